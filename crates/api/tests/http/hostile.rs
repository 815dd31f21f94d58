//! Hostile input at the live server: arbitrary methods, paths, ids, query strings, headers
//! and bodies, as property tests. Whatever arrives, the server answers (no panic, no dropped
//! connection), never with a 5xx, only with statuses the API documents, and every error in
//! the one error shape with a listed code. Then the limits, each at its edge.

use marketlens_api::MAX_BODY_BYTES;
use marketlens_api::error::ApiError;
use proptest::prelude::*;
use reqwest::Method;
use serde_json::Value;

use std::time::Duration;
use tokio::time::Instant;

use marketlens_api::ApiSettings;
use marketlens_api::connections::ConnectionLimits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::TestServer;

/// What the API documents it may answer.
const DOCUMENTED_STATUSES: [u16; 11] = [200, 400, 401, 402, 403, 404, 405, 413, 415, 429, 503];

/// Mostly the methods the API serves, so that most requests reach a handler.
fn method() -> impl Strategy<Value = Method> {
    prop_oneof![
        6 => Just(Method::GET),
        2 => Just(Method::POST),
        1 => prop::sample::select(vec![Method::PUT, Method::PATCH, Method::DELETE, Method::HEAD, Method::OPTIONS]),
    ]
}

/// A path: a real route with arbitrary ids and suffixes, or arbitrary segments.
fn path() -> impl Strategy<Value = String> {
    let segment = "[a-zA-Z0-9%._~{}<>!$&'()*+,;=:@ -]{0,40}";
    prop_oneof![
        4 => prop::sample::select(vec![
            "/api/v1/markets",
            "/api/v1/markets/lookup",
            "/api/v1/spreads",
            "/api/v1/events",
            "/api/v1/explain",
            "/api/v1/account",
            "/api/v1/openapi.json",
            "/healthz",
            "/readyz",
            "/metrics",
            "/docs",
        ])
        .prop_map(str::to_owned),
        2 => (prop::sample::select(vec!["/api/v1/markets/", "/api/v1/events/", "/api/v1/", "/admin/v1/"]), segment)
            .prop_map(|(prefix, id)| format!("{prefix}{}", encode_path(&id))),
        1 => segment.prop_map(|id| format!("/api/v1/markets/{}/history", encode_path(&id))),
        1 => prop::collection::vec(segment, 0..5).prop_map(|segments| {
            segments.iter().map(|segment| format!("/{}", encode_path(segment))).collect::<String>()
        }),
    ]
}

fn encode_path(segment: &str) -> String {
    url::form_urlencoded::byte_serialize(segment.as_bytes()).collect()
}

/// A query string: known parameter names with arbitrary values, or arbitrary text.
fn query() -> impl Strategy<Value = String> {
    let name = prop::sample::select(vec![
        "limit",
        "offset",
        "exchange",
        "status",
        "category",
        "search",
        "sortBy",
        "sortOrder",
        "include",
        "query",
        "url",
        "x",
        "",
        "limit[]",
    ]);
    let value = prop_oneof![
        any::<i64>().prop_map(|number| number.to_string()),
        "\\PC{0,60}",
        prop::sample::select(vec![
            "",
            "-0",
            "1e3",
            "0x10",
            "NaN",
            "99999999999999999999",
            "%00",
            "🙂"
        ])
        .prop_map(str::to_owned),
    ];
    prop_oneof![
        prop::collection::vec((name, value), 0..6).prop_map(|pairs| {
            let mut serializer = url::form_urlencoded::Serializer::new(String::new());
            for (name, value) in pairs {
                serializer.append_pair(name, &value);
            }
            serializer.finish()
        }),
        "[ -~]{0,200}".prop_map(|text| text.replace(['#', ' '], "")),
    ]
}

#[derive(Debug, Clone)]
enum Authorization {
    None,
    Valid,
    Garbage(String),
}

fn authorization() -> impl Strategy<Value = Authorization> {
    prop_oneof![
        1 => Just(Authorization::None),
        4 => Just(Authorization::Valid),
        1 => "[ -~]{0,80}".prop_map(Authorization::Garbage),
        1 => "pm_live_[0-9a-f]{0,50}".prop_map(|key| Authorization::Garbage(format!("Bearer {key}"))),
    ]
}

fn body() -> impl Strategy<Value = Option<(String, Vec<u8>)>> {
    let content_type = prop::sample::select(vec![
        "application/json",
        "text/plain",
        "application/json; charset=utf-8",
        "",
    ]);
    let bytes = prop_oneof![
        2 => prop::collection::vec(any::<u8>(), 0..512),
        4 => "\\PC{0,200}".prop_map(|text| format!("{{\"query\": {}}}", serde_json::Value::String(text)).into_bytes()),
        2 => Just(b"{\"query\": \"bitcoin\", \"extra\": [1, {\"deep\": null}]}".to_vec()),
        1 => (0usize..3).prop_map(|extra| vec![b'a'; MAX_BODY_BYTES + extra]),
    ];
    prop::option::of((content_type.prop_map(str::to_owned), bytes))
}

/// The server's answer is one the API documents, and an error is in the error shape.
fn check_answer(method: &Method, status: u16, body: &[u8]) -> Result<(), TestCaseError> {
    prop_assert!(DOCUMENTED_STATUSES.contains(&status), "undocumented status {status}");
    if status >= 400 && method != Method::HEAD {
        let error: Value = serde_json::from_slice(body).map_err(|_| {
            TestCaseError::fail(format!(
                "a {status} that is not JSON: {}",
                String::from_utf8_lossy(body)
            ))
        })?;
        prop_assert_eq!(&error["success"], &Value::Bool(false));
        let code = error["error"]["code"].as_str().unwrap_or_default();
        prop_assert!(ApiError::CODES.contains(&code), "unlisted code {code:?}");
        prop_assert!(error["requestId"].is_string());
    }
    Ok(())
}

struct Hostile {
    runtime: tokio::runtime::Runtime,
    server: TestServer,
    key: marketlens_domain::api_key::ApiKey,
}

fn hostile() -> Hostile {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (server, key) = runtime.block_on(async {
        let server = TestServer::start().await;
        let key = server.account("enterprise", 1_000_000_000).await.1;
        (server, key)
    });
    Hostile { runtime, server, key }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_requests_get_documented_answers(
        method in method(),
        path in path(),
        query in query(),
        authorization in authorization(),
        extra_header in ("x-[a-z-]{1,20}", "[ -~]{0,100}"),
        body in body(),
    ) {
        thread_local! {
            static HOSTILE: Hostile = hostile();
        }
        HOSTILE.with(|hostile| {
            hostile.runtime.block_on(async {
                let target = if query.is_empty() { path.clone() } else { format!("{path}?{query}") };
                let url = format!("{}{target}", hostile.server.base_url);
                let Ok(url) = reqwest::Url::parse(&url) else { return Ok(()) };
                let mut request = hostile.server.client.request(method.clone(), url);
                request = match &authorization {
                    Authorization::None => request,
                    Authorization::Valid => request.bearer_auth(hostile.key.as_str()),
                    Authorization::Garbage(value) => request.header("authorization", value.as_str()),
                };
                request = request.header(extra_header.0.as_str(), extra_header.1.as_str());
                if let Some((content_type, bytes)) = &body {
                    if !content_type.is_empty() {
                        request = request.header("content-type", content_type.as_str());
                    }
                    request = request.body(bytes.clone());
                }
                let response = request.send().await.map_err(|error| TestCaseError::fail(format!("no answer: {error}")))?;
                let status = response.status().as_u16();
                let bytes = response.bytes().await.map_err(|error| TestCaseError::fail(format!("a broken body: {error}")))?;
                check_answer(&method, status, &bytes)
            })
        })?;
    }
}

#[tokio::test]
async fn every_limit_is_enforced_at_its_edge() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let send = |request: reqwest::RequestBuilder| async move {
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap_or(Value::Null);
        (status, body)
    };
    let url = |path: &str| format!("{}{path}", server.base_url);

    // Body size: the largest body is read, one byte more is refused.
    let at_limit = format!("{{\"query\": \"{}\"}}", "a".repeat(MAX_BODY_BYTES - 13));
    assert_eq!(at_limit.len(), MAX_BODY_BYTES);
    let (status, body) = send(
        server
            .client
            .post(url("/api/v1/explain"))
            .bearer_auth(key.as_str())
            .header("content-type", "application/json")
            .body(at_limit),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("INVALID_PARAMETER")),
        "{body}"
    );
    let over = "a".repeat(MAX_BODY_BYTES + 1);
    let (status, body) = send(
        server
            .client
            .post(url("/api/v1/explain"))
            .bearer_auth(key.as_str())
            .header("content-type", "application/json")
            .body(over),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (413, Some("PAYLOAD_TOO_LARGE")),
        "{body}"
    );

    // Query length: 4096 characters parse, 4097 are refused.
    let filler = |length: usize| format!("search=bitcoin&x={}", "a".repeat(length - "search=bitcoin&x=".len()));
    let (status, body) = send(
        server
            .client
            .get(url(&format!("/api/v1/markets?{}", filler(4096))))
            .bearer_auth(key.as_str()),
    )
    .await;
    assert_eq!(
        (status, body["error"]["details"]["parameter"].as_str()),
        (400, Some("x")),
        "4096: {body}"
    );
    let (status, body) = send(
        server
            .client
            .get(url(&format!("/api/v1/markets?{}", filler(4097))))
            .bearer_auth(key.as_str()),
    )
    .await;
    assert_eq!(
        (status, body["error"]["details"]["parameter"].as_str()),
        (400, Some("query string")),
        "4097: {body}"
    );

    // Page size and search length are in `openapi.rs` (every documented bound, both sides).

    // Headers: a header block far over what the server reads is refused, not buffered.
    let response = server
        .client
        .get(url("/api/v1/markets"))
        .bearer_auth(key.as_str())
        .header("x-padding", "a".repeat(1024 * 1024))
        .send()
        .await;
    match response {
        Ok(response) => assert_eq!(response.status().as_u16(), 431),
        Err(error) => assert!(error.is_request() || error.is_connect() || error.is_body(), "{error}"),
    }
    // And the server still answers afterwards.
    let (status, _) = send(server.client.get(url("/api/v1/markets")).bearer_auth(key.as_str())).await;
    assert_eq!(status, 200);
}

/// Reads until the server closes the connection; how long that took, or `None` if it did not
/// within `patience`.
pub(crate) async fn closed_within(stream: &mut tokio::net::TcpStream, patience: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buffer = [0u8; 1024];
    loop {
        match tokio::time::timeout_at(started + patience, stream.read(&mut buffer)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => continue,
        }
    }
}

#[tokio::test]
async fn slow_and_idle_clients_are_cut_off_and_connections_are_capped() {
    let limits = ConnectionLimits {
        max_connections: 4,
        header_read_timeout: Duration::from_secs(1),
        ..ConnectionLimits::default()
    };
    let server = TestServer::start_with_limits(ApiSettings::default(), limits).await;
    let address = server.base_url.trim_start_matches("http://").to_owned();

    // A client that sends half its headers, then a byte now and then (slowloris).
    let mut slow = TcpStream::connect(&address).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let dribble = async {
        for _ in 0..10 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if slow.write_all(b"X").await.is_err() {
                break;
            }
        }
    };
    dribble.await;
    let waited = closed_within(&mut slow, Duration::from_secs(5)).await;
    assert!(
        waited.is_some(),
        "a client still sending its headers after 3 s was not cut off"
    );

    // Four idle connections fill the cap; the fifth is closed at once.
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(TcpStream::connect(&address).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut fifth = TcpStream::connect(&address).await.unwrap();
    let closed = closed_within(&mut fifth, Duration::from_millis(500)).await;
    assert!(closed.is_some(), "a connection past the cap was kept open");

    // The idle ones are cut off by the header timeout, freeing the cap: the server answers again.
    for stream in &mut idle {
        assert!(
            closed_within(stream, Duration::from_secs(3)).await.is_some(),
            "an idle connection was kept"
        );
    }
    let response = reqwest::get(format!("{}/healthz", server.base_url)).await.unwrap();
    assert_eq!(response.status(), 200);
}
