//! The OpenAPI document (`GET /api/v1/openapi.json`) against the live server: every response
//! every operation documents is produced here and validated against its documented schema
//! (objects held strictly: a field the document does not name fails), every documented
//! parameter bound is the one the server enforces, and every route is documented.

use std::collections::BTreeSet;

use marketlens_api::ApiSettings;
use marketlens_api::admin_token::AdminToken;
use marketlens_domain::Exchange;
use marketlens_domain::account::AccountStatus;
use marketlens_domain::api_key::ApiKey;
use marketlens_replay::{Fault, ReplayData, ReplayServer};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

use crate::{TestServer, depth, json_of, settings_with_tiers, stay_within_one_minute};

/// One request: method, path with query, JSON body.
#[derive(Clone)]
struct Call {
    method: Method,
    path: String,
    body: Option<Value>,
    content_type: &'static str,
    /// The `Idempotency-Key` header to send, if any.
    idempotency_key: Option<String>,
}

impl Call {
    fn get(path: impl Into<String>) -> Call {
        Call {
            method: Method::GET,
            path: path.into(),
            body: None,
            content_type: "application/json",
            idempotency_key: None,
        }
    }

    fn post(path: &str, body: Value) -> Call {
        Call {
            method: Method::POST,
            path: path.to_owned(),
            body: Some(body),
            content_type: "application/json",
            idempotency_key: None,
        }
    }

    fn new(method: Method, path: &str, body: Option<Value>) -> Call {
        Call {
            method,
            path: path.to_owned(),
            body,
            content_type: "application/json",
            idempotency_key: None,
        }
    }

    /// The same call with one more query parameter.
    fn with_parameter(&self, pair: &str) -> Call {
        let separator = if self.path.contains('?') { '&' } else { '?' };
        Call {
            path: format!("{}{separator}{pair}", self.path),
            ..self.clone()
        }
    }
}

/// The documented schema at `schema` (from the document), checked strictly.
pub(crate) fn validator(document: &Value, schema: &Value) -> jsonschema::Validator {
    let mut root = schema.clone();
    let mut components = document["components"].clone();
    forbid_undocumented_fields(&mut components);
    root.as_object_mut().unwrap().insert("components".into(), components);
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&root)
        .unwrap_or_else(|error| panic!("the schema {schema} does not compile: {error}"))
}

/// Every object schema that names its fields gets `additionalProperties: false`, so that a
/// response field the document does not describe fails validation.
fn forbid_undocumented_fields(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            if fields.contains_key("properties") && !fields.contains_key("additionalProperties") {
                fields.insert("additionalProperties".into(), Value::Bool(false));
            }
            fields.values_mut().for_each(forbid_undocumented_fields);
        }
        Value::Array(items) => items.iter_mut().for_each(forbid_undocumented_fields),
        _ => {}
    }
}

struct Checker {
    server: TestServer,
    document: Value,
    covered: BTreeSet<(String, String, String)>,
}

impl Checker {
    /// Sends `call` with `key`, expects `status`, and validates the body against what the
    /// document says `operation` answers with that status.
    async fn check(&mut self, operation: (&str, &str), call: &Call, key: Option<&ApiKey>, status: u16) -> Value {
        self.check_as(operation, call, key.map(ApiKey::as_str), status).await
    }

    /// As [`Checker::check`], with `bearer` (a key or the admin token) as the credential.
    async fn check_as(&mut self, operation: (&str, &str), call: &Call, bearer: Option<&str>, status: u16) -> Value {
        let (method, path) = operation;
        let mut request = self.server.request_as(call.method.clone(), &call.path, bearer);
        if let Some(body) = &call.body {
            request = request.header("content-type", call.content_type).body(body.to_string());
        }
        if let Some(idempotency_key) = &call.idempotency_key {
            request = request.header("Idempotency-Key", idempotency_key);
        }
        let response = request.send().await.unwrap();
        let documented = &self.document["paths"][path][method]["responses"][status.to_string()];
        assert!(
            documented.is_object(),
            "{method} {path} answered {} to {}, which the document does not list",
            response.status(),
            call.path
        );
        for header in documented["headers"]
            .as_object()
            .into_iter()
            .flat_map(|headers| headers.keys())
        {
            assert!(
                response.headers().contains_key(header.as_str()),
                "{method} {path} {status}: no {header} header"
            );
        }
        let (got, body) = json_of(response).await;
        assert_eq!(got, status, "{method} {} : {body}", call.path);
        let schema = &documented["content"]["application/json"]["schema"];
        let validator = validator(&self.document, schema);
        let errors: Vec<String> = validator
            .iter_errors(&body)
            .map(|error| format!("{error} at {}", error.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{method} {path} {status} does not match its schema: {errors:?}\n{body}"
        );
        self.covered
            .insert((method.to_owned(), path.to_owned(), status.to_string()));
        body
    }
}

/// Every operation carries its recorded example (`scripts/openapi-examples`): a curl line, the
/// parameters' values and the answer, which matches the documented schema of its status.
#[test]
fn every_operation_has_an_example_that_matches_its_schema() {
    let document: Value = serde_json::from_str(marketlens_api::openapi::document_json()).unwrap();
    let mut checked = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let name = format!("{method} {path}");
            let samples = operation["x-codeSamples"]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: no curl line"));
            if operation["responses"]["101"].is_object() {
                // A WebSocket: its messages are described by the `Stream*Message` schemas,
                // which `stream.rs` holds the live server's messages to.
                let websocat = samples[0]["source"].as_str().unwrap();
                assert!(
                    websocat.starts_with("websocat") && websocat.contains(path),
                    "{name}: {websocat}"
                );
                checked += 1;
                continue;
            }
            let curl = samples[0]["source"].as_str().unwrap();
            assert!(
                curl.starts_with("curl -s") && curl.contains(path.split('{').next().unwrap()),
                "{name}: {curl}"
            );
            let examples: Vec<(&String, &Value)> = operation["responses"]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(status, _)| status.starts_with('2'))
                .flat_map(|(status, response)| {
                    response["content"]
                        .as_object()
                        .into_iter()
                        .flatten()
                        .filter_map(move |(_, content)| {
                            content.get("example").map(|example| (status, content, example))
                        })
                })
                .map(|(status, content, example)| {
                    let schema = &content["schema"];
                    let errors: Vec<String> = validator(&document, schema)
                        .iter_errors(example)
                        .map(|error| format!("{error} at {}", error.instance_path()))
                        .collect();
                    assert!(
                        errors.is_empty(),
                        "{name}: the {status} example does not match its schema: {errors:?}"
                    );
                    (status, example)
                })
                .collect();
            assert!(!examples.is_empty(), "{name}: no example answer");
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                if parameter["required"] == json!(true) {
                    assert!(
                        parameter.get("example").is_some(),
                        "{name}: {} has no example",
                        parameter["name"]
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 23, "only {checked} operations");
}

#[tokio::test]
async fn every_documented_response_is_produced_and_matches_its_schema() {
    // Order books and trades from the replay server, which fails when told to (502).
    let replay = ReplayServer::start(ReplayData::recorded());
    let settings = ApiSettings {
        admin_token: Some(AdminToken::new(ADMIN_TOKEN).unwrap()),
        ..settings_with_tiers("tiny=1")
    };
    let server = TestServer::start_with_depth(settings, depth::rest_source(&replay, Duration::from_secs(2))).await;
    depth::store_depth_markets(&server).await;
    let [elon, oprah, duke, ariz] = [
        (Exchange::Kalshi, depth::ELON),
        (Exchange::Polymarket, depth::OPRAH),
        (Exchange::Kalshi, depth::DUKE),
        (Exchange::Kalshi, depth::ARIZ),
    ]
    .map(|(exchange, external_id)| depth::id(exchange, external_id));
    let response = server
        .request(Method::GET, "/api/v1/openapi.json", None)
        .send()
        .await
        .unwrap();
    let (status, document) = json_of(response).await;
    assert_eq!(status, 200);
    assert!(
        document["openapi"].as_str().unwrap().starts_with("3.1"),
        "{}",
        document["openapi"]
    );
    let key = server.key().await;
    let mut checker = Checker {
        server,
        document,
        covered: BTreeSet::new(),
    };

    // A market, an event and a market URL of the catalogue.
    let list = checker
        .check(
            ("get", "/api/v1/markets"),
            &Call::get("/api/v1/markets"),
            Some(&key),
            200,
        )
        .await;
    let market = list["data"][0].clone();
    let market_id = market["id"].as_str().unwrap().to_owned();
    let stored = checker
        .server
        .store
        .get_market(market_id.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    let market_url: String = url::form_urlencoded::byte_serialize(stored.market.url.as_bytes()).collect();
    let events = checker
        .check(("get", "/api/v1/events"), &Call::get("/api/v1/events"), Some(&key), 200)
        .await;
    let event_id = events["data"][0]["id"].as_str().unwrap().to_owned();
    // And a resolved market, whose get carries a resolution.
    let resolved_id = crate::seed::market(&crate::seed::SPECS[3]).id();
    let words: String = url::form_urlencoded::byte_serialize(stored.market.question.as_bytes()).collect();

    // A successful call of each operation that takes a key.
    let keyed = [
        (
            ("get", "/api/v1/markets"),
            Call::get("/api/v1/markets?include=outcomes&limit=200"),
        ),
        (
            ("get", "/api/v1/markets/{id}"),
            Call::get(format!("/api/v1/markets/{market_id}")),
        ),
        (
            ("get", "/api/v1/markets/{id}"),
            Call::get(format!("/api/v1/markets/{resolved_id}")),
        ),
        (
            ("get", "/api/v1/markets/lookup"),
            Call::get(format!("/api/v1/markets/lookup?url={market_url}")),
        ),
        (
            ("get", "/api/v1/markets/{id}/history"),
            Call::get(format!("/api/v1/markets/{market_id}/history?interval=1d&limit=1000")),
        ),
        (("get", "/api/v1/spreads"), Call::get("/api/v1/spreads?limit=200")),
        (("get", "/api/v1/events"), Call::get("/api/v1/events?limit=100")),
        (
            ("get", "/api/v1/events/{id}"),
            Call::get(format!("/api/v1/events/{event_id}")),
        ),
        (
            ("get", "/api/v1/explain"),
            Call::get("/api/v1/explain?query=bitcoin%20100k"),
        ),
        (
            ("get", "/api/v1/explain"),
            Call::get(format!("/api/v1/explain?query={words}")),
        ),
        (
            ("post", "/api/v1/explain"),
            Call::post("/api/v1/explain", json!({ "query": stored.market.question })),
        ),
        (("get", "/api/v1/account"), Call::get("/api/v1/account")),
        (
            ("get", "/api/v1/markets/{id}/orderbook"),
            Call::get(format!("/api/v1/markets/{elon}/orderbook")),
        ),
        (
            ("get", "/api/v1/orderbooks"),
            Call::get(format!("/api/v1/orderbooks?ids={elon},{oprah}")),
        ),
        (
            ("get", "/api/v1/markets/{id}/trades"),
            Call::get(format!("/api/v1/markets/{elon}/trades?limit=2")),
        ),
    ];
    // News about the Bitcoin market, so that explain's news sources are checked too.
    checker.server.add_news(&crate::news::news()).await;
    let (_, explained) = checker.server.get("/api/v1/explain?query=bitcoin%20100k", &key).await;
    assert!(
        explained["data"]["sources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|source| source["type"] == "news-feed"),
        "{explained}"
    );
    stay_within_one_minute().await;
    for (index, (operation, call)) in keyed.iter().enumerate() {
        checker.check(*operation, call, Some(&key), 200).await;
        checker.check(*operation, call, None, 401).await;
        checker
            .check(*operation, &call.with_parameter("unknownParameter=1"), Some(&key), 400)
            .await;
        let (suspended_account, suspended) = checker.server.account("free", 10).await;
        checker
            .server
            .store
            .set_account_status(suspended_account.id, AccountStatus::Suspended)
            .await
            .unwrap();
        checker.check(*operation, call, Some(&suspended), 403).await;
        let (_, limited) = checker.server.account("tiny", 100).await;
        checker.check(*operation, call, Some(&limited), 200).await;
        checker.check(*operation, call, Some(&limited), 429).await;
        let charged = checker.document["paths"][operation.1][operation.0]["responses"]["402"].is_object();
        if charged {
            let (_, broke) = checker.server.account("free", 0).await;
            checker.check(*operation, call, Some(&broke), 402).await;
            // A key kept for one request, sent with another.
            let with_key = Call {
                idempotency_key: Some(format!("documented-{index}")),
                ..call.clone()
            };
            checker.check(*operation, &with_key, Some(&key), 200).await;
            checker
                .check(*operation, &with_key.with_parameter("offset=1"), Some(&key), 422)
                .await;
        }
    }

    // Each operation's own errors.
    let unknown = "00000000-0000-4000-8000-000000000000";
    let own_errors = [
        (
            ("get", "/api/v1/markets/{id}"),
            Call::get(format!("/api/v1/markets/{unknown}")),
            404,
        ),
        (
            ("get", "/api/v1/events/{id}"),
            Call::get(format!("/api/v1/events/{unknown}")),
            404,
        ),
        (
            ("get", "/api/v1/markets/{id}/history"),
            Call::get(format!("/api/v1/markets/{unknown}/history")),
            404,
        ),
        (
            ("get", "/api/v1/markets/lookup"),
            Call::get("/api/v1/markets/lookup?url=https%3A%2F%2Fkalshi.com%2Fmarkets%2Fnone"),
            404,
        ),
        (
            ("get", "/api/v1/explain"),
            Call::get("/api/v1/explain?query=zzqqxxy"),
            404,
        ),
        (
            ("post", "/api/v1/explain"),
            Call::post("/api/v1/explain", json!({ "query": "zzqqxxy" })),
            404,
        ),
        (
            ("post", "/api/v1/explain"),
            Call::post("/api/v1/explain", json!({ "query": "x".repeat(20_000) })),
            413,
        ),
        (
            ("post", "/api/v1/explain"),
            Call {
                content_type: "text/plain",
                ..Call::post("/api/v1/explain", json!({ "query": "bitcoin" }))
            },
            415,
        ),
    ];
    for (operation, call, status) in &own_errors {
        checker.check(*operation, call, Some(&key), *status).await;
    }
    // The depth operations' own errors: an unknown market, and an exchange that fails both
    // attempts (on books and pages not fetched yet, so that no shared answer hides it).
    let depth_errors = [
        (
            ("get", "/api/v1/markets/{id}/orderbook"),
            format!("/api/v1/markets/{unknown}/orderbook"),
            format!("/api/v1/markets/{duke}/orderbook"),
            "/orderbook",
        ),
        (
            ("get", "/api/v1/orderbooks"),
            format!("/api/v1/orderbooks?ids={elon},{unknown}"),
            format!("/api/v1/orderbooks?ids={ariz}"),
            "/orderbook",
        ),
        (
            ("get", "/api/v1/markets/{id}/trades"),
            format!("/api/v1/markets/{unknown}/trades"),
            format!("/api/v1/markets/{elon}/trades?limit=3"),
            "/markets/trades",
        ),
    ];
    for (operation, unknown_market, failing, upstream_path) in &depth_errors {
        checker
            .check(*operation, &Call::get(unknown_market), Some(&key), 404)
            .await;
        replay.inject_on(upstream_path, Fault::ServerError);
        replay.inject_on(upstream_path, Fault::ServerError);
        checker.check(*operation, &Call::get(failing), Some(&key), 502).await;
    }

    // The operations that need no key.
    for path in ["/api/v1/openapi.json", "/healthz", "/readyz"] {
        checker.check(("get", path), &Call::get(path), None, 200).await;
    }
    let metrics = checker
        .server
        .request(Method::GET, "/metrics", None)
        .send()
        .await
        .unwrap();
    assert_eq!(metrics.status(), 200);
    assert!(
        metrics.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    checker.covered.insert(("get".into(), "/metrics".into(), "200".into()));

    check_admin_responses(&mut checker).await;

    // Every documented response was produced, but for the store being down (503), which the
    // error rendering shares with every other error (tested in `errors.rs`), and a repeat that
    // waited out the request timeout (409), which `a_repeat_that_waited_out_the_timeout_is_documented`
    // produces on a server with a short one; and the stream's, which
    // `stream::every_documented_answer_of_the_upgrade_is_produced` produces on a server with a
    // live source.
    let mut documented = BTreeSet::new();
    for (path, item) in checker.document["paths"].as_object().unwrap() {
        if path == STREAM_PATH {
            continue;
        }
        for (method, operation) in item.as_object().unwrap() {
            for status in operation["responses"].as_object().unwrap().keys() {
                if status != "503" && status != "409" {
                    documented.insert((method.clone(), path.clone(), status.clone()));
                }
            }
        }
    }
    let missing: Vec<_> = documented.difference(&checker.covered).collect();
    assert!(missing.is_empty(), "documented responses no test produced: {missing:?}");
}

/// 409 `IDEMPOTENCY_KEY_IN_PROGRESS`, documented on every charged operation, is what each
/// answers when the call holding its key outlasts the wait (here, a claim made in the store as
/// another node's running call would make it).
#[tokio::test]
async fn a_repeat_that_waited_out_the_timeout_is_documented() {
    let server = TestServer::start_with(ApiSettings {
        request_timeout: std::time::Duration::from_millis(200),
        ..ApiSettings::default()
    })
    .await;
    let response = server
        .request(Method::GET, "/api/v1/openapi.json", None)
        .send()
        .await
        .unwrap();
    let (_, document) = json_of(response).await;
    let (account, key) = server.account("enterprise", 1000).await;
    let market = crate::seed::market(&crate::seed::SPECS[0]).id();
    let calls = [
        (("get", "/api/v1/markets"), Call::get("/api/v1/markets?limit=1")),
        (
            ("get", "/api/v1/markets/{id}"),
            Call::get(format!("/api/v1/markets/{market}")),
        ),
        (
            ("get", "/api/v1/markets/lookup"),
            Call::get("/api/v1/markets/lookup?url=https%3A%2F%2Fkalshi.com%2Fmarkets%2Fnone"),
        ),
        (
            ("get", "/api/v1/markets/{id}/history"),
            Call::get(format!("/api/v1/markets/{market}/history")),
        ),
        (("get", "/api/v1/spreads"), Call::get("/api/v1/spreads")),
        (("get", "/api/v1/events"), Call::get("/api/v1/events")),
        (
            ("get", "/api/v1/events/{id}"),
            Call::get(format!("/api/v1/events/{market}")),
        ),
        (("get", "/api/v1/explain"), Call::get("/api/v1/explain?query=bitcoin")),
        (
            ("post", "/api/v1/explain"),
            Call::post("/api/v1/explain", json!({ "query": "bitcoin" })),
        ),
        (
            ("get", "/api/v1/markets/{id}/orderbook"),
            Call::get(format!("/api/v1/markets/{market}/orderbook")),
        ),
        (
            ("get", "/api/v1/orderbooks"),
            Call::get(format!("/api/v1/orderbooks?ids={market}")),
        ),
        (
            ("get", "/api/v1/markets/{id}/trades"),
            Call::get(format!("/api/v1/markets/{market}/trades")),
        ),
    ];
    let mut checker = Checker {
        server,
        document,
        covered: BTreeSet::new(),
    };
    for (index, (operation, call)) in calls.iter().enumerate() {
        let idempotency_key = format!("running-{index}");
        let (path, query) = match call.path.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (call.path.as_str(), None),
        };
        let body = call.body.as_ref().map(Value::to_string).unwrap_or_default();
        let now = chrono::Utc::now();
        let claimed = checker
            .server
            .store
            .claim_idempotency_key(&marketlens_storage::NewClaim {
                claim: marketlens_storage::IdempotencyClaim {
                    account_id: account.id,
                    key: idempotency_key.clone(),
                    owner: uuid::Uuid::new_v4(),
                },
                fingerprint: marketlens_api::idempotency::fingerprint(&call.method, path, query, body.as_bytes()),
                request_id: "running elsewhere".into(),
                now,
                lease_until: now + chrono::TimeDelta::seconds(60),
            })
            .await
            .unwrap();
        assert_eq!(claimed, marketlens_storage::ClaimOutcome::Claimed);
        let call = Call {
            idempotency_key: Some(idempotency_key),
            ..call.clone()
        };
        checker.check(*operation, &call, Some(&key), 409).await;
    }
    let mut documented = BTreeSet::new();
    for (path, item) in checker.document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            if operation["responses"]["409"].is_object() {
                documented.insert((method.clone(), path.clone(), "409".to_owned()));
            }
        }
    }
    assert_eq!(documented.len(), calls.len());
    assert_eq!(checker.covered, documented);
}

/// The stream's upgrade, whose answers `stream.rs` produces.
const STREAM_PATH: &str = "/api/v1/stream";

const ADMIN_TOKEN: &str = "0123456789abcdef0123456789abcdef-admin";

/// Every documented response of the admin operations.
async fn check_admin_responses(checker: &mut Checker) {
    let token = Some(ADMIN_TOKEN);
    let created = checker
        .check_as(
            ("post", "/admin/v1/accounts"),
            &Call::post(
                "/admin/v1/accounts",
                json!({ "tier": "free", "credits": 5, "label": "docs" }),
            ),
            token,
            201,
        )
        .await;
    let account = created["data"]["account"]["id"].as_str().unwrap().to_owned();
    let key = created["data"]["key"]["id"].as_str().unwrap().to_owned();
    let unknown = "00000000-0000-4000-8000-000000000000";
    // Each operation: method, documented path, the path with ids, a body it accepts, its success.
    let operations = [
        (
            Method::POST,
            "/admin/v1/accounts",
            "/admin/v1/accounts".to_owned(),
            Some(json!({ "tier": "free" })),
            201,
        ),
        (
            Method::GET,
            "/admin/v1/accounts",
            "/admin/v1/accounts".to_owned(),
            None,
            200,
        ),
        (
            Method::GET,
            "/admin/v1/accounts/{id}",
            format!("/admin/v1/accounts/{account}"),
            None,
            200,
        ),
        (
            Method::PATCH,
            "/admin/v1/accounts/{id}",
            format!("/admin/v1/accounts/{account}"),
            Some(json!({ "tier": "tiny", "status": "active" })),
            200,
        ),
        (
            Method::POST,
            "/admin/v1/accounts/{id}/credits",
            format!("/admin/v1/accounts/{account}/credits"),
            Some(json!({ "credits": 10 })),
            200,
        ),
        (
            Method::POST,
            "/admin/v1/accounts/{id}/keys",
            format!("/admin/v1/accounts/{account}/keys"),
            None,
            201,
        ),
        (
            Method::GET,
            "/admin/v1/accounts/{id}/keys",
            format!("/admin/v1/accounts/{account}/keys"),
            None,
            200,
        ),
        (
            Method::GET,
            "/admin/v1/accounts/{id}/ledger",
            format!("/admin/v1/accounts/{account}/ledger?limit=1"),
            None,
            200,
        ),
        (
            Method::DELETE,
            "/admin/v1/keys/{id}",
            format!("/admin/v1/keys/{key}"),
            None,
            200,
        ),
    ];
    let mut calls = Vec::new();
    for (method, documented, path, body, success) in operations {
        let operation = (method.as_str().to_lowercase(), documented);
        let operation = (operation.0.as_str(), operation.1);
        let call = Call::new(method.clone(), &path, body.clone());
        calls.push((operation.0.to_owned(), documented, call.clone()));
        checker.check_as(operation, &call, token, success).await;
        checker.check_as(operation, &call, None, 401).await;
        checker
            .check_as(operation, &call.with_parameter("unknown=1"), token, 400)
            .await;
        if documented.contains("{id}") {
            let elsewhere = Call::new(
                method.clone(),
                &path.replace(&account, unknown).replace(&key, unknown),
                body.clone(),
            );
            checker.check_as(operation, &elsewhere, token, 404).await;
        }
        if body.is_some() {
            let too_large = Call::new(method.clone(), &path, Some(json!({ "label": "x".repeat(17 * 1024) })));
            checker.check_as(operation, &too_large, token, 413).await;
            let not_json = Call {
                content_type: "text/plain",
                ..call.clone()
            };
            checker.check_as(operation, &not_json, token, 415).await;
        }
    }
    // Past the limit of failed authentications from this address, a wrong token is refused
    // with 429 until the minute ends (the right one still passes).
    for _ in 0..=marketlens_api::state::DEFAULT_FAILED_AUTH_PER_MINUTE {
        checker
            .server
            .request_as(Method::GET, "/admin/v1/accounts", Some("a-wrong-token"))
            .send()
            .await
            .unwrap();
    }
    for (method, documented, call) in &calls {
        checker
            .check_as((method, documented), call, Some("a-wrong-token"), 429)
            .await;
    }
}

/// The documented bounds and allowed values of every query parameter are the ones the server
/// enforces: the maximum is accepted and one past it refused, every listed value accepted, a
/// value off the list refused.
#[tokio::test]
async fn documented_parameters_are_the_enforced_ones() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let (_, document) = server.get("/api/v1/openapi.json", &key).await;
    let mut checked = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        let Some(operation) = item.get("get") else { continue };
        let Some(parameters) = operation["parameters"].as_array() else {
            continue;
        };
        if path.contains('{') {
            continue;
        }
        // Required parameters get a value that the server accepts (a URL for lookup).
        let base: Vec<String> = parameters
            .iter()
            .filter(|parameter| parameter["required"] == true && parameter["in"] == "query")
            .map(|parameter| format!("{}=bitcoin", parameter["name"].as_str().unwrap()))
            .collect();
        for parameter in parameters.iter().filter(|parameter| parameter["in"] == "query") {
            let name = parameter["name"].as_str().unwrap();
            // A number's schema is one of the number and the empty value (absent).
            let schema = match parameter["schema"]["oneOf"].as_array() {
                Some(variants) => variants
                    .iter()
                    .find(|variant| variant["type"] == "integer" || variant["type"] == "number")
                    .unwrap_or(&parameter["schema"]),
                None => &parameter["schema"],
            };
            let query = |value: &str| {
                let mut pairs: Vec<String> = base
                    .iter()
                    .filter(|pair| !pair.starts_with(&format!("{name}=")))
                    .cloned()
                    .collect();
                pairs.push(format!(
                    "{name}={}",
                    url::form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>()
                ));
                format!("{path}?{}", pairs.join("&"))
            };
            let refused = |status: u16, body: &Value| status == 400 && body["error"]["details"]["parameter"] == name;
            let accepted = |status: u16| status == 200 || status == 404;
            if schema["type"] == "number" {
                let (minimum, maximum) = (schema["minimum"].as_f64().unwrap(), schema["maximum"].as_f64().unwrap());
                for accepted_value in [minimum, (minimum + maximum) / 2.0, maximum] {
                    let (status, body) = server.get(&query(&accepted_value.to_string()), &key).await;
                    assert!(accepted(status), "{path} {name}={accepted_value}: {status} {body}");
                }
                for refused_value in [minimum - 0.5, maximum + 0.5, f64::NAN] {
                    let (status, body) = server.get(&query(&refused_value.to_string()), &key).await;
                    assert!(refused(status, &body), "{path} {name}={refused_value}: {status} {body}");
                }
                checked += 1;
            }
            if let Some(maximum) = schema["maximum"].as_u64() {
                let (status, body) = server.get(&query(&maximum.to_string()), &key).await;
                assert!(accepted(status), "{path} {name}={maximum}: {status} {body}");
                let (status, body) = server.get(&query(&(maximum + 1).to_string()), &key).await;
                assert!(refused(status, &body), "{path} {name}={}: {status} {body}", maximum + 1);
                let minimum = schema["minimum"].as_u64().unwrap();
                if minimum > 0 {
                    let (status, body) = server.get(&query(&(minimum - 1).to_string()), &key).await;
                    assert!(refused(status, &body), "{path} {name}={}: {status} {body}", minimum - 1);
                }
                checked += 1;
            }
            if let Some(values) = schema["enum"].as_array() {
                for value in values {
                    let (status, body) = server.get(&query(value.as_str().unwrap()), &key).await;
                    assert!(accepted(status), "{path} {name}={value}: {status} {body}");
                }
                let (status, body) = server.get(&query("not-a-listed-value"), &key).await;
                assert!(
                    refused(status, &body),
                    "{path} {name}=not-a-listed-value: {status} {body}"
                );
                checked += 1;
            }
            if let Some(maximum_length) = schema["maxLength"].as_u64() {
                let (status, body) = server.get(&query(&"a".repeat(maximum_length as usize + 1)), &key).await;
                assert!(
                    refused(status, &body),
                    "{path} {name} of {} characters: {status} {body}",
                    maximum_length + 1
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 18, "only {checked} parameters checked");
}

/// Every route the server answers is in the document, and nothing else is.
#[tokio::test]
async fn every_route_is_documented() {
    let server = TestServer::start_with(ApiSettings {
        admin_token: Some(AdminToken::new(ADMIN_TOKEN).unwrap()),
        ..ApiSettings::default()
    })
    .await;
    let key = server.key().await;
    let (_, document) = server.get("/api/v1/openapi.json", &key).await;
    let documented: BTreeSet<String> = document["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |method| format!("{method} {path}"))
        })
        .collect();
    // `/mcp` is served but not listed: it is MCP, not REST, and its tools are these
    // operations (`mcp.rs`).
    let routes: BTreeSet<String> = [
        "get /api/v1/markets",
        "get /api/v1/markets/lookup",
        "get /api/v1/markets/{id}",
        "get /api/v1/markets/{id}/history",
        "get /api/v1/markets/{id}/orderbook",
        "get /api/v1/orderbooks",
        "get /api/v1/markets/{id}/trades",
        "get /api/v1/spreads",
        "get /api/v1/events",
        "get /api/v1/events/{id}",
        "get /api/v1/explain",
        "post /api/v1/explain",
        "get /api/v1/account",
        "get /api/v1/stream",
        "get /api/v1/openapi.json",
        "get /healthz",
        "get /readyz",
        "get /metrics",
        "post /admin/v1/accounts",
        "get /admin/v1/accounts",
        "get /admin/v1/accounts/{id}",
        "patch /admin/v1/accounts/{id}",
        "post /admin/v1/accounts/{id}/credits",
        "post /admin/v1/accounts/{id}/keys",
        "get /admin/v1/accounts/{id}/keys",
        "get /admin/v1/accounts/{id}/ledger",
        "delete /admin/v1/keys/{id}",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    assert_eq!(documented, routes);
    // And the server answers each (not with "No such path").
    for route in &routes {
        let (method, path) = route.split_once(' ').unwrap();
        let path = path.replace("{id}", "00000000-0000-4000-8000-000000000000");
        let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
        let bearer = if path.starts_with("/admin/") {
            ADMIN_TOKEN
        } else {
            key.as_str()
        };
        let response = server.request_as(method, &path, Some(bearer)).send().await.unwrap();
        let status = response.status().as_u16();
        let body = response.text().await.unwrap();
        assert!(
            status != 404 || !body.contains("No such path."),
            "{route} is documented but not served"
        );
        assert_ne!(status, 405, "{route}");
    }
}
