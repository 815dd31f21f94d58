use marketlens_domain::account::AccountStatus;
use marketlens_domain::api_key::ApiKey;
use reqwest::Method;

use crate::{TestServer, assert_error, json_of, settings_with_tiers, stay_within_one_minute};

#[tokio::test]
async fn missing_and_malformed_authorization_is_missing_api_key() {
    let server = TestServer::start().await;
    for header in [
        None,
        Some("Basic dXNlcjpwYXNz"),
        Some("Bearer"),
        Some("Bearer   "),
        Some("pm_live_abc"),
    ] {
        let mut request = server.request(Method::GET, "/api/v1/markets", None);
        if let Some(header) = header {
            request = request.header("authorization", header);
        }
        let response = request.send().await.unwrap();
        assert_eq!(
            response
                .headers()
                .get("www-authenticate")
                .map(|value| value.to_str().unwrap().starts_with("Bearer")),
            Some(true)
        );
        let (status, body) = json_of(response).await;
        assert_error(status, &body, 401, "MISSING_API_KEY");
    }
}

#[tokio::test]
async fn unknown_malformed_and_revoked_keys_are_invalid() {
    let server = TestServer::start().await;
    let (account, key) = server.account("free", 10).await;
    for token in [
        "pm_live_nothex",
        "sk_live_0123456789abcdef0123456789abcdef01234567",
        ApiKey::generate(&mut rand::rng()).as_str(),
    ] {
        let response = server
            .request(Method::GET, "/api/v1/account", None)
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert!(response.headers().get("www-authenticate").is_some());
        let (status, body) = json_of(response).await;
        assert_error(status, &body, 401, "INVALID_API_KEY");
    }
    let (status, _) = server.get("/api/v1/account", &key).await;
    assert_eq!(status, 200);
    let key_id = server.store.list_keys(account.id).await.unwrap()[0].id;
    server.store.revoke_key(key_id, chrono::Utc::now()).await.unwrap();
    let (status, body) = server.get("/api/v1/account", &key).await;
    assert_error(status, &body, 401, "INVALID_API_KEY");
}

#[tokio::test]
async fn a_second_key_works_while_the_first_is_revoked() {
    let server = TestServer::start().await;
    let (account, first) = server.account("free", 10).await;
    let second = ApiKey::generate(&mut rand::rng());
    server
        .store
        .create_key(account.id, second.hash(), &second.truncated(), chrono::Utc::now())
        .await
        .unwrap();
    let keys = server.store.list_keys(account.id).await.unwrap();
    let first_id = keys
        .iter()
        .find(|record| record.display == first.truncated())
        .unwrap()
        .id;
    server.store.revoke_key(first_id, chrono::Utc::now()).await.unwrap();
    assert_eq!(server.get("/api/v1/account", &first).await.0, 401);
    let (status, body) = server.get("/api/v1/account", &second).await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["apiKey"], second.truncated());
}

#[tokio::test]
async fn suspended_accounts_are_refused_everywhere() {
    let server = TestServer::start().await;
    let (account, key) = server.account("free", 10).await;
    server
        .store
        .set_account_status(account.id, AccountStatus::Suspended)
        .await
        .unwrap();
    for path in ["/api/v1/markets", "/api/v1/account", "/api/v1/explain?query=bitcoin"] {
        let (status, body) = server.get(path, &key).await;
        assert_error(status, &body, 403, "ACCOUNT_SUSPENDED");
    }
    server
        .store
        .set_account_status(account.id, AccountStatus::Active)
        .await
        .unwrap();
    assert_eq!(server.get("/api/v1/account", &key).await.0, 200);
}

#[tokio::test]
async fn the_rate_limit_counts_every_authenticated_request_and_refuses_with_429() {
    let server = TestServer::start_with(settings_with_tiers("tiny=3")).await;
    let (account, key) = server.account("tiny", 100).await;
    stay_within_one_minute().await;
    let mut remaining_seen = Vec::new();
    for path in ["/api/v1/markets", "/api/v1/markets?limit=0", "/api/v1/account"] {
        let response = server.request(Method::GET, path, Some(&key)).send().await.unwrap();
        let headers = response.headers();
        assert_eq!(headers["x-ratelimit-limit"], "3");
        let reset: i64 = headers["x-ratelimit-reset"].to_str().unwrap().parse().unwrap();
        assert_eq!(reset % 60, 0);
        remaining_seen.push(headers["x-ratelimit-remaining"].to_str().unwrap().to_owned());
    }
    assert_eq!(remaining_seen, ["2", "1", "0"]);
    for _ in 0..2 {
        let response = server
            .request(Method::GET, "/api/v1/account", Some(&key))
            .send()
            .await
            .unwrap();
        let retry_after: i64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=60).contains(&retry_after));
        assert_eq!(response.headers()["x-ratelimit-remaining"], "0");
        let (status, body) = json_of(response).await;
        let error = assert_error(status, &body, 429, "RATE_LIMITED");
        assert_eq!(error["details"]["requestsPerMinute"], 3);
    }
    assert_eq!(
        server.remaining_credits(account.id).await,
        99,
        "only the one successful list was charged"
    );
    // Another account is not affected.
    let (_, other) = server.account("tiny", 1).await;
    assert_eq!(server.get("/api/v1/account", &other).await.0, 200);
}
