use marketlens_domain::Exchange;
use marketlens_domain::ids::market_id;
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::BTreeSet;

use crate::{TestServer, assert_error, json_of};

fn field_names(value: &Value) -> BTreeSet<&str> {
    value.as_object().unwrap().keys().map(String::as_str).collect()
}

#[tokio::test]
async fn keyword_explain_returns_the_full_envelope_and_charges_five() {
    let server = TestServer::start().await;
    let (account, key) = server.account("pro", 100).await;
    let (status, body) = server
        .get("/api/v1/explain?query=bitcoin%20100k%20december", &key)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        field_names(&body),
        BTreeSet::from(["success", "data", "creditsUsed", "processingTimeMs"])
    );
    assert_eq!(body["success"], true);
    assert_eq!(body["creditsUsed"], 5);
    assert!(body["processingTimeMs"].as_f64().unwrap() >= 0.0);
    let data = &body["data"];
    assert_eq!(
        field_names(data),
        BTreeSet::from(["meta", "market", "summary", "keyFactors", "sources"])
    );
    let meta = &data["meta"];
    assert_eq!(meta["query"], "bitcoin 100k december");
    assert_eq!(
        meta["platform"], "polymarket",
        "open, higher volume wins the tie in relevance"
    );
    assert_eq!(meta["creditsUsed"], 1);
    assert_eq!(meta["marketId"], market_id(Exchange::Polymarket, "501").to_string());
    assert!(chrono::DateTime::parse_from_rfc3339(meta["timestamp"].as_str().unwrap()).is_ok());
    let market = &data["market"];
    assert_eq!(
        field_names(market),
        BTreeSet::from([
            "title",
            "question",
            "platform",
            "provider",
            "volume",
            "volume24h",
            "liquidity",
            "createdAt",
            "endDate",
            "status",
            "outcomes",
            "url",
            "image"
        ])
    );
    assert_eq!(market["title"], "Bitcoin above $100k in 2026?", "the event's title");
    assert_eq!(market["question"], "Will Bitcoin reach $100k by December 31, 2026?");
    assert_eq!(market["provider"], "Polymarket");
    assert_eq!(market["status"], "open");
    assert_eq!(market["endDate"], "2027-01-02T00:00:00.000Z");
    assert_eq!(market["url"], "https://polymarket.com/market/market-501");
    assert_eq!(
        market["image"], "https://polymarket-upload.s3.us-east-2.amazonaws.com/btc.png",
        "the event's image"
    );
    let outcomes = market["outcomes"].as_array().unwrap();
    assert_eq!(field_names(&outcomes[0]), BTreeSet::from(["id", "name", "price"]));
    assert_eq!(data["keyFactors"], json!([]));
    assert_eq!(data["sources"][0]["type"], "market-db");
    let summary = data["summary"].as_str().unwrap();
    for expected in [
        "Yes",
        "58%",
        "$5,000,000",
        "$120,000",
        "January 2, 2027",
        "No news articles",
    ] {
        // The leading outcome is No at 58%.
        let expected = if expected == "Yes" { "No at 58%" } else { expected };
        assert!(summary.contains(expected), "summary lacks {expected:?}: {summary}");
    }
    assert_eq!(server.remaining_credits(account.id).await, 95);
}

#[tokio::test]
async fn post_is_equivalent_to_get() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let response = server
        .request(Method::POST, "/api/v1/explain", Some(&key))
        .header("content-type", "application/json; charset=utf-8")
        .body(r#"{"query": "next pope tagle"}"#)
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(response).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["market"]["question"],
        "Who will the next Pope be? — Luis Antonio Tagle"
    );
    assert_eq!(body["data"]["market"]["platform"], "kalshi");
    assert_eq!(body["data"]["market"]["provider"], "Kalshi");
    assert_eq!(body["data"]["market"]["title"], "Who will the next Pope be?");
}

#[tokio::test]
async fn urls_are_looked_up_by_slug_or_ticker_never_fetched() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let cases = [
        ("https://polymarket.com/market/market-503", "503"),
        ("https://polymarket.com/event/event-9001?tid=1758818660485", "501"),
        ("polymarket.com/event/event-9002/market-502/", "502"),
        ("https://kalshi.com/markets/kxnewpope-70-ppar", "KXNEWPOPE-70-PPAR"),
        (
            "https://kalshi.com/markets/KXBTC/bitcoin-price/KXBTC-26DEC31",
            "KXBTC-26DEC31-T100000",
        ),
        ("https://kalshi.com/markets/kxmarmad", "KXMARMAD-26-UGA"),
    ];
    for (url, external_id) in cases {
        let (status, body) = server
            .get(&format!("/api/v1/explain?query={}", urlencode(url)), &key)
            .await;
        assert_eq!(status, 200, "{url}: {body}");
        let expected_exchange = if external_id.starts_with("KX") {
            Exchange::Kalshi
        } else {
            Exchange::Polymarket
        };
        assert_eq!(
            body["data"]["meta"]["marketId"],
            market_id(expected_exchange, external_id).to_string(),
            "{url}"
        );
        assert_eq!(body["data"]["meta"]["query"], url);
    }
    // A recognised exchange URL that names nothing stored, and another host's URL, find nothing.
    for query in [
        "https://polymarket.com/event/no-such-event",
        "https://example.com/bitcoin-100k",
    ] {
        let (status, body) = server
            .get(&format!("/api/v1/explain?query={}", urlencode(query)), &key)
            .await;
        assert_error(status, &body, 404, "NO_MATCH");
    }
}

#[tokio::test]
async fn a_bare_exchange_id_finds_its_market() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let cases = [
        ("501", Exchange::Polymarket, "501"),
        ("market-503", Exchange::Polymarket, "503"),
        ("KXNEWPOPE-70-PPAR", Exchange::Kalshi, "KXNEWPOPE-70-PPAR"),
        ("kxnewpope-70-lant", Exchange::Kalshi, "KXNEWPOPE-70-LANT"),
        ("KXBTC-26DEC31-T150000", Exchange::Kalshi, "KXBTC-26DEC31-T150000"),
    ];
    for (query, exchange, external_id) in cases {
        let (status, body) = server
            .get(&format!("/api/v1/explain?query={}", urlencode(query)), &key)
            .await;
        assert_eq!(status, 200, "{query}: {body}");
        assert_eq!(
            body["data"]["meta"]["marketId"],
            market_id(exchange, external_id).to_string(),
            "{query}"
        );
    }
}

#[tokio::test]
async fn no_match_names_the_closest_candidates() {
    let server = TestServer::start().await;
    let (account, key) = server.account("pro", 50).await;
    // Only "bitcoin" is in the catalogue; the rarer words, in no question, outweigh it.
    let (status, body) = server
        .get("/api/v1/explain?query=bitcoin%20mining%20difficulty%20hashrate", &key)
        .await;
    assert_error(status, &body, 404, "NO_MATCH");
    let candidates = body["error"]["details"]["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), 3, "{body}");
    for candidate in candidates {
        assert_eq!(
            field_names(candidate),
            BTreeSet::from(["id", "exchange", "question", "coverage"])
        );
        assert!(candidate["question"].as_str().unwrap().contains("Bitcoin"), "{body}");
        let coverage = candidate["coverage"].as_f64().unwrap();
        assert!(coverage > 0.0 && coverage < 0.5, "{body}");
    }
    // Nothing shares a word: no candidates.
    let (status, nothing) = server.get("/api/v1/explain?query=zzqqxx%20wwvvuu", &key).await;
    assert_error(status, &nothing, 404, "NO_MATCH");
    assert_eq!(nothing["error"]["details"], json!({ "candidates": [] }));
    assert_eq!(
        server.remaining_credits(account.id).await,
        50,
        "a refusal costs nothing"
    );
    // Open before closed at equal coverage: the first candidate is an open market.
    let first = candidates[0]["id"].as_str().unwrap();
    let (status, market) = server.get(&format!("/api/v1/markets/{first}"), &key).await;
    assert_eq!(status, 200);
    assert_eq!(market["data"]["status"], "OPEN");
}

fn urlencode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[tokio::test]
async fn explain_errors_and_their_cost() {
    let server = TestServer::start().await;
    let (account, key) = server.account("pro", 50).await;
    let post = |content_type: Option<&'static str>, body: String| {
        let mut request = server.request(Method::POST, "/api/v1/explain", Some(&key)).body(body);
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        async move { json_of(request.send().await.unwrap()).await }
    };
    let (status, body) = server.get("/api/v1/explain", &key).await;
    assert_error(status, &body, 400, "MISSING_QUERY");
    let (status, body) = server.get("/api/v1/explain?query=%20%20", &key).await;
    assert_error(status, &body, 400, "MISSING_QUERY");
    let (status, body) = server.get("/api/v1/explain?query=zzqqxx%20wwvvuu", &key).await;
    assert_error(status, &body, 404, "NO_MATCH");
    let (status, body) = post(None, r#"{"query":"bitcoin"}"#.into()).await;
    assert_error(status, &body, 415, "UNSUPPORTED_MEDIA_TYPE");
    let (status, body) = post(Some("text/plain"), r#"{"query":"bitcoin"}"#.into()).await;
    assert_error(status, &body, 415, "UNSUPPORTED_MEDIA_TYPE");
    let (status, body) = post(Some("application/json"), "{not json".into()).await;
    assert_error(status, &body, 400, "INVALID_JSON");
    let (status, body) = post(Some("application/json"), "[1, 2]".into()).await;
    assert_error(status, &body, 400, "INVALID_JSON");
    for missing in ["{}", r#"{"query": ""}"#, r#"{"query": null}"#, r#"{"query": "   "}"#] {
        let (status, body) = post(Some("application/json"), missing.into()).await;
        assert_error(status, &body, 400, "MISSING_QUERY");
    }
    let (status, body) = post(Some("application/json"), r#"{"query": 42}"#.into()).await;
    assert_error(status, &body, 400, "INVALID_PARAMETER");
    let (status, body) = post(Some("application/json"), r#"{"query": "bitcoin", "extra": 1}"#.into()).await;
    assert_error(status, &body, 400, "INVALID_PARAMETER");
    let (status, body) = post(
        Some("application/json"),
        format!(r#"{{"query": "{}"}}"#, "a".repeat(17 * 1024)),
    )
    .await;
    assert_error(status, &body, 413, "PAYLOAD_TOO_LARGE");
    let (status, body) = server
        .get(&format!("/api/v1/explain?query={}", "a".repeat(501)), &key)
        .await;
    assert_error(status, &body, 400, "INVALID_PARAMETER");
    assert_eq!(
        server.remaining_credits(account.id).await,
        50,
        "no error costs anything"
    );
}
