//! The admin API under `/admin/v1`: off without a token, refused with a wrong one, and each
//! action carried out, visible through the public API, and logged without tokens or keys.

use std::io::Write;
use std::sync::{Arc, Mutex};

use marketlens_api::ApiSettings;
use marketlens_api::admin_token::AdminToken;
use reqwest::Method;
use serde_json::{Value, json};

use crate::{TestServer, assert_error, json_of};

const TOKEN: &str = "0123456789abcdef0123456789abcdef-admin";

async fn admin_server() -> TestServer {
    TestServer::start_with(ApiSettings {
        admin_token: Some(AdminToken::new(TOKEN).unwrap()),
        ..ApiSettings::default()
    })
    .await
}

async fn admin(server: &TestServer, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = server
        .client
        .request(method, format!("{}/admin/v1{path}", server.base_url))
        .bearer_auth(TOKEN);
    if let Some(body) = body {
        request = request.json(&body);
    }
    json_of(request.send().await.unwrap()).await
}

async fn public(server: &TestServer, path: &str, key: &str) -> (u16, Value) {
    json_of(
        server
            .client
            .get(format!("{}{path}", server.base_url))
            .bearer_auth(key)
            .send()
            .await
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn without_a_token_the_admin_api_does_not_exist() {
    let server = TestServer::start().await;
    let response = server
        .client
        .get(format!("{}/admin/v1/accounts", server.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(response).await;
    assert_error(status, &body, 404, "NOT_FOUND");
}

#[tokio::test]
async fn a_missing_or_wrong_token_is_refused() {
    let server = admin_server().await;
    let url = format!("{}/admin/v1/accounts", server.base_url);
    let key = server.key().await;
    for request in [
        server.client.get(&url),
        server
            .client
            .get(&url)
            .bearer_auth("0123456789abcdef0123456789abcdef-other"),
        server.client.get(&url).bearer_auth(&TOKEN[..TOKEN.len() - 1]),
        server.client.get(&url).bearer_auth(key.as_str()),
        server.client.get(&url).header("authorization", TOKEN),
    ] {
        let response = request.send().await.unwrap();
        assert!(response.headers().contains_key("www-authenticate"));
        let (status, body) = json_of(response).await;
        assert_error(status, &body, 401, "INVALID_ADMIN_TOKEN");
    }
    assert!(AdminToken::new("short").is_err());
    assert!(AdminToken::new("0123456789abcdef 0123456789abcdef").is_err());
    // Long enough but predictable: one character, a short pattern repeated.
    assert!(AdminToken::new(&"a".repeat(32)).is_err());
    assert!(AdminToken::new(&"ab".repeat(32)).is_err());
    assert!(AdminToken::new(&"0123456789abcdef".repeat(2)).is_err());
    assert!(AdminToken::new(&"password".repeat(5)).is_err());
    // What `openssl rand -hex 16` makes is accepted.
    assert!(AdminToken::new("9f86d081884c7d659a2feaa0c55ad015").is_ok());
}

#[tokio::test]
async fn accounts_keys_credits_and_ledgers_through_the_admin_api() {
    let server = admin_server().await;

    let (status, created) = admin(
        &server,
        Method::POST,
        "/accounts",
        Some(json!({ "tier": "starter", "credits": 10, "label": "acme", "walletAddress": "0xabc" })),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let account_id = created["data"]["account"]["id"].as_str().unwrap().to_owned();
    let first_key = created["data"]["key"]["apiKey"].as_str().unwrap().to_owned();
    assert_eq!(created["data"]["account"]["credits"]["remaining"], 10);
    let (status, account) = public(&server, "/api/v1/account", &first_key).await;
    assert_eq!(status, 200, "{account}");
    assert_eq!(account["data"]["tier"], "starter");
    assert_eq!(account["data"]["rateLimit"]["requestsPerMinute"], 300);

    let (_, listed) = admin(&server, Method::GET, "/accounts", None).await;
    assert!(
        listed["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|account| account["id"] == account_id.as_str())
    );
    let (status, fetched) = admin(&server, Method::GET, &format!("/accounts/{account_id}"), None).await;
    assert_eq!((status, fetched["data"]["label"].as_str()), (200, Some("acme")));

    // Tier and suspension take effect on this node at once.
    let (status, moved) = admin(
        &server,
        Method::PATCH,
        &format!("/accounts/{account_id}"),
        Some(json!({ "tier": "pro" })),
    )
    .await;
    assert_eq!((status, moved["data"]["tier"].as_str()), (200, Some("pro")), "{moved}");
    let (_, account) = public(&server, "/api/v1/account", &first_key).await;
    assert_eq!(account["data"]["rateLimit"]["requestsPerMinute"], 1200);
    let (status, _) = admin(
        &server,
        Method::PATCH,
        &format!("/accounts/{account_id}"),
        Some(json!({ "status": "suspended" })),
    )
    .await;
    assert_eq!(status, 200);
    let (status, body) = public(&server, "/api/v1/markets", &first_key).await;
    assert_error(status, &body, 403, "ACCOUNT_SUSPENDED");
    admin(
        &server,
        Method::PATCH,
        &format!("/accounts/{account_id}"),
        Some(json!({ "status": "active" })),
    )
    .await;
    assert_eq!(public(&server, "/api/v1/markets", &first_key).await.0, 200);

    let (status, credited) = admin(
        &server,
        Method::POST,
        &format!("/accounts/{account_id}/credits"),
        Some(json!({ "credits": 500 })),
    )
    .await;
    assert_eq!(status, 200, "{credited}");
    assert_eq!(
        credited["data"]["credits"],
        json!({ "remaining": 509, "purchased": 510, "used": 1 })
    );

    let (status, second) = admin(&server, Method::POST, &format!("/accounts/{account_id}/keys"), None).await;
    assert_eq!(status, 201, "{second}");
    let second_key = second["data"]["apiKey"].as_str().unwrap().to_owned();
    let second_id = second["data"]["id"].as_str().unwrap().to_owned();
    assert_eq!(public(&server, "/api/v1/markets", &second_key).await.0, 200);
    let (_, keys) = admin(&server, Method::GET, &format!("/accounts/{account_id}/keys"), None).await;
    let keys_text = keys.to_string();
    assert_eq!(keys["data"].as_array().unwrap().len(), 2, "{keys}");
    assert!(
        !keys_text.contains(&first_key) && !keys_text.contains(&second_key),
        "a listing shows a key"
    );

    let (status, revoked) = admin(&server, Method::DELETE, &format!("/keys/{second_id}"), None).await;
    assert_eq!(status, 200, "{revoked}");
    assert!(revoked["data"]["revokedAt"].is_string());
    let (status, body) = public(&server, "/api/v1/markets", &second_key).await;
    assert_error(status, &body, 401, "INVALID_API_KEY");
    assert_eq!(public(&server, "/api/v1/markets", &first_key).await.0, 200);

    // The ledger: two credit lines, then three charges, paged.
    let (status, page) = admin(
        &server,
        Method::GET,
        &format!("/accounts/{account_id}/ledger?limit=2"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{page}");
    let kinds: Vec<&str> = page["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["credit", "charge"]);
    let after = page["nextAfter"].as_i64().unwrap();
    let (_, rest) = admin(
        &server,
        Method::GET,
        &format!("/accounts/{account_id}/ledger?after={after}"),
        None,
    )
    .await;
    let rest = rest["data"].as_array().unwrap();
    assert_eq!(rest.len(), 3, "{rest:?}");
    assert_eq!(rest[0]["kind"], "credit");
    assert!(rest.iter().skip(1).all(|line| line["operation"] == "listMarkets"));
}

#[tokio::test]
async fn bad_admin_requests_get_the_error_that_names_the_mistake() {
    let server = admin_server().await;
    let unknown = "00000000-0000-4000-8000-000000000000";
    let (_, created) = admin(&server, Method::POST, "/accounts", Some(json!({ "tier": "free" }))).await;
    let account_id = created["data"]["account"]["id"].as_str().unwrap().to_owned();
    let cases: Vec<(Method, String, Option<Value>, u16, &str)> = vec![
        (
            Method::POST,
            "/accounts".into(),
            Some(json!({ "tier": "gold" })),
            400,
            "INVALID_PARAMETER",
        ),
        (
            Method::POST,
            "/accounts".into(),
            Some(json!({ "tier": "free", "credits": -1 })),
            400,
            "INVALID_PARAMETER",
        ),
        (
            Method::POST,
            "/accounts".into(),
            Some(json!({ "tier": "free", "label": "x".repeat(129) })),
            400,
            "INVALID_PARAMETER",
        ),
        (
            Method::POST,
            "/accounts".into(),
            Some(json!({ "tier": "free", "owner": "me" })),
            400,
            "INVALID_JSON",
        ),
        (
            Method::POST,
            "/accounts".into(),
            Some(json!(["free"])),
            400,
            "INVALID_JSON",
        ),
        (Method::POST, "/accounts".into(), Some(json!({})), 400, "INVALID_JSON"),
        (Method::GET, format!("/accounts/{unknown}"), None, 404, "NOT_FOUND"),
        (Method::GET, "/accounts/not-an-id".into(), None, 404, "NOT_FOUND"),
        (
            Method::PATCH,
            format!("/accounts/{account_id}"),
            Some(json!({ "status": "deleted" })),
            400,
            "INVALID_PARAMETER",
        ),
        (
            Method::PATCH,
            format!("/accounts/{account_id}"),
            Some(json!({})),
            400,
            "INVALID_JSON",
        ),
        (
            Method::PATCH,
            format!("/accounts/{unknown}"),
            Some(json!({ "tier": "pro" })),
            404,
            "NOT_FOUND",
        ),
        (
            Method::POST,
            format!("/accounts/{account_id}/credits"),
            Some(json!({ "credits": 0 })),
            400,
            "INVALID_PARAMETER",
        ),
        (
            Method::POST,
            format!("/accounts/{account_id}/credits"),
            Some(json!({ "credits": "ten" })),
            400,
            "INVALID_JSON",
        ),
        (
            Method::POST,
            format!("/accounts/{unknown}/credits"),
            Some(json!({ "credits": 5 })),
            404,
            "NOT_FOUND",
        ),
        (
            Method::POST,
            format!("/accounts/{unknown}/keys"),
            None,
            404,
            "NOT_FOUND",
        ),
        (Method::DELETE, format!("/keys/{unknown}"), None, 404, "NOT_FOUND"),
        (
            Method::GET,
            format!("/accounts/{account_id}/ledger?limit=1001"),
            None,
            400,
            "INVALID_PARAMETER",
        ),
        (
            Method::GET,
            format!("/accounts/{account_id}/ledger?after=-1"),
            None,
            400,
            "INVALID_PARAMETER",
        ),
        (Method::GET, "/accounts?page=2".into(), None, 400, "INVALID_PARAMETER"),
        (Method::PUT, "/accounts".into(), None, 405, "METHOD_NOT_ALLOWED"),
    ];
    for (method, path, body, status, code) in cases {
        let (got, response) = admin(&server, method.clone(), &path, body.clone()).await;
        assert_eq!(
            (got, response["error"]["code"].as_str()),
            (status, Some(code)),
            "{method} {path} {body:?}: {response}"
        );
        assert_error(got, &response, status, code);
    }
    // A body that is not sent as JSON.
    let response = server
        .client
        .post(format!("{}/admin/v1/accounts", server.base_url))
        .bearer_auth(TOKEN)
        .header("content-type", "text/plain")
        .body(r#"{"tier":"free"}"#)
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(response).await;
    assert_error(status, &body, 415, "UNSUPPORTED_MEDIA_TYPE");
}

/// What the server logs, kept for the test to read.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn admin_actions_are_logged_without_tokens_or_keys() {
    let captured = Captured::default();
    let writer = captured.clone();
    // The process's one global subscriber: only this test installs one.
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .init();
    let server = admin_server().await;
    let (_, created) = admin(
        &server,
        Method::POST,
        "/accounts",
        Some(json!({ "tier": "free", "credits": 3 })),
    )
    .await;
    let key = created["data"]["key"]["apiKey"].as_str().unwrap().to_owned();
    let account_id = created["data"]["account"]["id"].as_str().unwrap().to_owned();
    public(&server, &format!("/api/v1/markets?search={key}"), &key).await;
    public(&server, "/api/v1/account", &key).await;
    server
        .client
        .get(format!("{}/admin/v1/accounts", server.base_url))
        .bearer_auth("0123456789abcdef0123456789abcdef-wrong-token")
        .send()
        .await
        .unwrap();
    let request = server
        .request(Method::GET, "/api/v1/markets", None)
        .header("authorization", format!("Bearer {key}x"));
    request.send().await.unwrap();

    let logs = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    assert!(logs.contains("admin action") && logs.contains(&account_id), "{logs}");
    assert!(logs.contains("admin call refused"), "{logs}");
    assert!(!logs.contains(TOKEN), "the admin token is in the logs");
    assert!(!logs.contains("wrong-token"), "a presented token is in the logs");
    assert!(!logs.contains(&key), "an API key is in the logs");
    assert!(!logs.contains(&key[8..24]), "part of an API key is in the logs");
}
