use marketlens_domain::Exchange;
use marketlens_domain::ids::event_id;
use serde_json::{Value, json};
use std::collections::BTreeSet;

use crate::{TestServer, assert_error};

#[tokio::test]
async fn list_defaults_fields_and_filters() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let (status, body) = server.get("/api/v1/events", &key).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["pagination"],
        json!({ "total": 5, "limit": 20, "offset": 0, "hasMore": false })
    );
    let items = body["data"].as_array().unwrap();
    let fields: BTreeSet<&str> = items[0].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        fields,
        BTreeSet::from([
            "id",
            "title",
            "description",
            "exchange",
            "category",
            "marketCount",
            "totalVolume",
            "imageUrl",
            "createdAt"
        ])
    );
    // Ordered by total volume, largest first.
    let volumes: Vec<f64> = items.iter().map(|item| item["totalVolume"].as_f64().unwrap()).collect();
    assert!(volumes.windows(2).all(|pair| pair[0] >= pair[1]), "{volumes:?}");

    let kalshi_btc = event_id(Exchange::Kalshi, "KXBTC-26DEC31").to_string();
    let item = items.iter().find(|item| item["id"] == kalshi_btc.as_str()).unwrap();
    assert_eq!(item["marketCount"], 2);
    assert_eq!(
        item["totalVolume"], 1_000_000.0,
        "Kalshi reports no event volume: the markets' volumes are summed"
    );
    assert_eq!(item["imageUrl"], "");
    assert_eq!(item["exchange"], "KALSHI");
    assert_eq!(
        item["createdAt"], "2026-01-03T00:00:00.000Z",
        "the earliest market creation"
    );

    let polymarket_btc = event_id(Exchange::Polymarket, "9001").to_string();
    let item = items.iter().find(|item| item["id"] == polymarket_btc.as_str()).unwrap();
    assert_eq!(
        (item["marketCount"].clone(), item["totalVolume"].clone()),
        (json!(1), json!(6_000_000.0))
    );

    let mars = event_id(Exchange::Kalshi, "KXELONMARS-99").to_string();
    assert_eq!(
        items.iter().find(|item| item["id"] == mars.as_str()).unwrap()["marketCount"],
        0
    );

    for (query, total) in [
        ("exchange=kalshi", 3),
        ("category=crypto", 2),
        ("exchange=POLYMARKET&category=Economics", 1),
        ("limit=2", 5),
    ] {
        let (status, body) = server.get(&format!("/api/v1/events?{query}"), &key).await;
        assert_eq!(status, 200);
        assert_eq!(body["pagination"]["total"], total, "{query}");
    }
    let (_, page) = server.get("/api/v1/events?limit=2&offset=2", &key).await;
    assert_eq!(
        page["pagination"],
        json!({ "total": 5, "limit": 2, "offset": 2, "hasMore": true })
    );
}

#[tokio::test]
async fn list_parameter_errors() {
    let server = TestServer::start().await;
    let key = server.key().await;
    for (query, parameter) in [
        ("limit=101", "limit"),
        ("limit=0", "limit"),
        ("offset=x", "offset"),
        ("exchange=x", "exchange"),
        ("status=OPEN", "status"),
    ] {
        let (status, body) = server.get(&format!("/api/v1/events?{query}"), &key).await;
        let error = assert_error(status, &body, 400, "INVALID_PARAMETER");
        assert_eq!(error["details"]["parameter"], parameter);
    }
    let (status, body) = server.get("/api/v1/events?limit=101", &key).await;
    assert!(
        assert_error(status, &body, 400, "INVALID_PARAMETER")["message"]
            .as_str()
            .unwrap()
            .contains("100")
    );
}

#[tokio::test]
async fn get_adds_markets_and_drops_the_count() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let pope = event_id(Exchange::Kalshi, "KXNEWPOPE-70");
    let (status, body) = server.get(&format!("/api/v1/events/{pope}"), &key).await;
    assert_eq!(status, 200, "{body}");
    let event = &body["data"];
    let fields: BTreeSet<&str> = event.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        fields,
        BTreeSet::from([
            "id",
            "title",
            "description",
            "exchange",
            "category",
            "totalVolume",
            "imageUrl",
            "createdAt",
            "markets"
        ])
    );
    assert_eq!(event["title"], "Who will the next Pope be?");
    let markets = event["markets"].as_array().unwrap();
    assert_eq!(markets.len(), 2);
    for market in markets {
        let keys: BTreeSet<&str> = market.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, BTreeSet::from(["id", "question", "price", "volume24h"]));
    }
    // The first outcome's price, highest first.
    assert_eq!(markets[0]["price"], 0.15);
    assert_eq!(
        markets[0]["question"],
        "Who will the next Pope be? — Luis Antonio Tagle"
    );
    assert_eq!(markets[1]["price"], 0.12);

    let empty = event_id(Exchange::Kalshi, "KXELONMARS-99");
    let (_, body) = server.get(&format!("/api/v1/events/{empty}"), &key).await;
    assert_eq!(body["data"]["markets"], Value::Array(Vec::new()));
}

#[tokio::test]
async fn get_unknown_events_are_not_found() {
    let server = TestServer::start().await;
    let key = server.key().await;
    for id in [uuid::Uuid::new_v4().to_string(), "KXNEWPOPE-70".to_owned()] {
        let (status, body) = server.get(&format!("/api/v1/events/{id}"), &key).await;
        assert_error(status, &body, 404, "NOT_FOUND");
    }
}
