//! `GET /api/v1/markets/lookup?url=`: a market by its exchange URL, parsed and never fetched.

use serde_json::Value;

use crate::{TestServer, assert_error};

/// Every market of the catalogue, as list returns them.
async fn all_markets(server: &TestServer, key: &marketlens_domain::api_key::ApiKey) -> Vec<Value> {
    let (status, body) = server.get("/api/v1/markets?limit=100", key).await;
    assert_eq!(status, 200, "{body}");
    body["data"].as_array().unwrap().clone()
}

fn encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// A market's own page URL, as the store holds it (get does not show it).
async fn url_of(server: &TestServer, id: &str) -> String {
    let id = uuid::Uuid::parse_str(id).unwrap();
    server.store.get_market(id).await.unwrap().unwrap().market.url
}

#[tokio::test]
async fn every_market_is_found_by_its_own_url_however_it_is_written() {
    let server = TestServer::start().await;
    let (account, key) = server.account("pro", 1_000).await;
    let markets = all_markets(&server, &key).await;
    // A Kalshi URL names its event's page, which several markets may share.
    let mut by_url: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for listed in &markets {
        let id = listed["id"].as_str().unwrap().to_owned();
        by_url.entry(url_of(&server, &id).await).or_default().push(id);
    }
    let mut looked_up = 0;
    for (url, ids) in &by_url {
        let bare = url.trim_start_matches("https://");
        for written in [
            url.clone(),
            format!("{url}/"),
            format!("{url}?tid=123#top"),
            bare.to_owned(),
        ] {
            let (status, body) = server
                .get(&format!("/api/v1/markets/lookup?url={}", encode(&written)), &key)
                .await;
            assert_eq!(status, 200, "{written}: {body}");
            let found = body["data"]["id"].as_str().unwrap();
            assert!(
                ids.iter().any(|id| id == found),
                "{written} gave {found}, not one of {ids:?}"
            );
            assert!(body["data"]["matchedMarkets"].is_array(), "{body}");
            looked_up += 1;
        }
    }
    assert!(looked_up >= 40, "{looked_up}");
    assert_eq!(
        server.remaining_credits(account.id).await,
        1_000 - 1 - looked_up,
        "one credit per lookup"
    );
}

#[tokio::test]
async fn the_same_answer_as_get_for_a_market_page() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let (_, listed) = server
        .get("/api/v1/markets?exchange=POLYMARKET&limit=1&sortBy=volume", &key)
        .await;
    let id = listed["data"][0]["id"].as_str().unwrap();
    let (_, got) = server.get(&format!("/api/v1/markets/{id}"), &key).await;
    let url = url_of(&server, id).await;
    let (status, found) = server
        .get(&format!("/api/v1/markets/lookup?url={}", encode(&url)), &key)
        .await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["data"], got["data"]);
}

#[tokio::test]
async fn unknown_foreign_missing_and_bad_urls_are_refused_and_not_charged() {
    let server = TestServer::start().await;
    let (account, key) = server.account("pro", 100).await;
    for url in [
        "https://polymarket.com/event/no-such-event",
        "https://kalshi.com/markets/kxnosuchseries",
        "https://example.com/event/market-501",
        "https://polymarket.com.evil.example/market/market-501",
        "bitcoin above 100k",
    ] {
        let (status, body) = server
            .get(&format!("/api/v1/markets/lookup?url={}", encode(url)), &key)
            .await;
        assert_error(status, &body, 404, "NOT_FOUND");
    }
    let (status, body) = server.get("/api/v1/markets/lookup", &key).await;
    let error = assert_error(status, &body, 400, "INVALID_PARAMETER");
    assert_eq!(error["details"]["parameter"], "url", "{body}");
    let (status, body) = server
        .get(
            "/api/v1/markets/lookup?url=https%3A%2F%2Fkalshi.com%2Fmarkets%2Fx&extra=1",
            &key,
        )
        .await;
    assert_error(status, &body, 400, "INVALID_PARAMETER");
    let long = format!("https://polymarket.com/event/{}", "a".repeat(600));
    let (status, body) = server
        .get(&format!("/api/v1/markets/lookup?url={}", encode(&long)), &key)
        .await;
    assert_error(status, &body, 400, "INVALID_PARAMETER");
    assert_eq!(server.remaining_credits(account.id).await, 100, "errors are free");
}
