use serde_json::json;

use crate::{TestServer, stay_within_one_minute};

#[tokio::test]
async fn account_reports_truncated_key_credits_tier_and_window_for_free() {
    let server = TestServer::start().await;
    let (account, key) = server.account("starter", 40).await;
    stay_within_one_minute().await;
    server.get("/api/v1/markets", &key).await;
    server.get("/api/v1/markets?limit=abc", &key).await;
    let (status, body) = server.get("/api/v1/account", &key).await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    let truncated = data["apiKey"].as_str().unwrap();
    let secret_parts = truncated
        .strip_prefix("pm_live_")
        .and_then(|rest| rest.split_once("..."));
    let is_hex4 = |part: &str| part.len() == 4 && part.bytes().all(|byte| byte.is_ascii_hexdigit());
    assert!(
        secret_parts.is_some_and(|(first, last)| is_hex4(first) && is_hex4(last)),
        "{truncated}"
    );
    assert!(key.as_str().starts_with(&truncated[..12]) && key.as_str().ends_with(&truncated[truncated.len() - 4..]));
    assert_eq!(data["credits"], json!({ "remaining": 39, "purchased": 40, "used": 1 }));
    assert_eq!(
        data["user"],
        json!({ "id": account.id.to_string(), "walletAddress": "0x1234" })
    );
    assert_eq!(data["tier"], "starter");
    assert_eq!(data["rateLimit"]["requestsPerMinute"], 300);
    assert_eq!(
        data["rateLimit"]["currentUsage"], 3,
        "every authenticated request counts, this one and the failed one included"
    );
    let resets_at = chrono::DateTime::parse_from_rfc3339(data["rateLimit"]["resetsAt"].as_str().unwrap()).unwrap();
    assert_eq!(resets_at.timestamp() % 60, 0, "windows end on the minute");
    assert!(resets_at > chrono::Utc::now());
    let (_, again) = server.get("/api/v1/account", &key).await;
    assert_eq!(again["data"]["credits"]["remaining"], 39, "the account call is free");
}

#[tokio::test]
async fn an_account_without_a_wallet_reports_an_empty_string() {
    let server = TestServer::start().await;
    let new_account = marketlens_storage::NewAccount {
        label: String::new(),
        tier: "free".into(),
        wallet_address: String::new(),
        initial_credits: 0,
    };
    let account = server
        .store
        .create_account(new_account, chrono::Utc::now())
        .await
        .unwrap();
    let key = marketlens_domain::api_key::ApiKey::generate(&mut rand::rng());
    server
        .store
        .create_key(account.id, key.hash(), &key.truncated(), chrono::Utc::now())
        .await
        .unwrap();
    let (status, body) = server.get("/api/v1/account", &key).await;
    assert_eq!(
        status, 200,
        "an account with no credits can still see its account: {body}"
    );
    assert_eq!(body["data"]["user"]["walletAddress"], "");
    assert_eq!(
        body["data"]["credits"],
        json!({ "remaining": 0, "purchased": 0, "used": 0 })
    );
}
