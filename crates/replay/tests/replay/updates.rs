//! A record that changes between two syncs changes everywhere it is served.

use marketlens_domain::Exchange;
use marketlens_replay::ReplayServer;
use serde_json::{Value, json};

use crate::{Endpoint, recorded, walk};

/// The first record of `endpoint` under `query` whose `key` is `id`.
async fn find(server: &ReplayServer, endpoint: Endpoint, query: &str, key: &str, id: &str) -> Value {
    let records = walk(server, endpoint, query, Some(endpoint.max_limit())).await;
    records
        .into_iter()
        .find(|record| record[key] == id)
        .expect("the record is served")
}

/// The market `id` as nested in the events of `endpoint`.
async fn nested_market(server: &ReplayServer, endpoint: Endpoint, query: &str, key: &str, id: &str) -> Value {
    let events = walk(server, endpoint, query, Some(endpoint.max_limit())).await;
    let mut nested = events
        .iter()
        .flat_map(|event| event["markets"].as_array().into_iter().flatten())
        .filter(|market| market[key] == id);
    let market = nested.next().expect("the market is nested in an event").clone();
    assert!(nested.next().is_none(), "nested once");
    market
}

#[tokio::test]
async fn a_polymarket_market_changes_at_top_level_and_in_its_event() {
    let server = ReplayServer::start(recorded());
    // 517310 is recorded both in gamma-markets-1.json and nested in gamma-events-1.json.
    let market_id = "517310";
    let before = find(
        &server,
        Endpoint::GammaMarkets,
        &format!("id={market_id}"),
        "id",
        market_id,
    )
    .await;
    assert_eq!(before["closed"], false);

    server.update_market(Exchange::Polymarket, market_id, |market| {
        market["closed"] = json!(true);
        market["outcomePrices"] = json!("[\"1\", \"0\"]");
    });

    let after = find(
        &server,
        Endpoint::GammaMarkets,
        &format!("id={market_id}"),
        "id",
        market_id,
    )
    .await;
    assert_eq!(
        (&after["closed"], &after["outcomePrices"]),
        (&json!(true), &json!("[\"1\", \"0\"]"))
    );
    assert_eq!(
        after["events"], before["events"],
        "the market keeps its own back-reference"
    );
    let nested = nested_market(&server, Endpoint::GammaEvents, "", "id", market_id).await;
    assert_eq!(
        (&nested["closed"], &nested["outcomePrices"]),
        (&json!(true), &json!("[\"1\", \"0\"]"))
    );
    assert!(
        nested.get("events").is_none(),
        "a nested market gains no back-reference"
    );
    assert_eq!(
        walk(&server, Endpoint::GammaMarkets, "closed=true", Some(100))
            .await
            .len(),
        523
    );
}

#[tokio::test]
async fn a_market_known_only_from_its_event_changes_in_both_listings() {
    let data = recorded();
    let server = ReplayServer::start(data.clone());
    let market_id = data.polymarket_events[0]["markets"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    server.update_market(Exchange::Polymarket, &market_id, |market| {
        market["volume"] = json!("1.5")
    });
    let served = find(&server, Endpoint::GammaMarkets, "", "id", &market_id).await;
    assert_eq!(served["volume"], "1.5");
    assert_eq!(
        nested_market(&server, Endpoint::GammaEvents, "", "id", &market_id).await["volume"],
        "1.5"
    );
}

#[tokio::test]
async fn a_kalshi_market_changes_in_the_list_and_nested_in_its_event() {
    let server = ReplayServer::start(recorded());
    let ticker = "KXELONMARS-99";
    server.update_market(Exchange::Kalshi, ticker, |market| {
        market["status"] = json!("finalized");
        market["result"] = json!("no");
    });
    let listed = find(
        &server,
        Endpoint::KalshiMarkets,
        &format!("tickers={ticker}"),
        "ticker",
        ticker,
    )
    .await;
    assert_eq!(
        (&listed["status"], &listed["result"]),
        (&json!("finalized"), &json!("no"))
    );
    let nested = nested_market(
        &server,
        Endpoint::KalshiEvents,
        "with_nested_markets=true",
        "ticker",
        ticker,
    )
    .await;
    assert_eq!(
        (&nested["status"], &nested["result"]),
        (&json!("finalized"), &json!("no"))
    );
    let settled = walk(&server, Endpoint::KalshiEvents, "status=settled", None).await;
    assert_eq!(
        Endpoint::KalshiEvents.ids(&settled),
        ["KXELONMARS-99", "KXIPHONERELEASE-IPHONE18"]
    );
}

#[tokio::test]
async fn events_change_in_their_listing_and_in_market_back_references() {
    let data = recorded();
    let server = ReplayServer::start(data.clone());
    let event_id = data.polymarket_markets[0]["events"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    server.update_event(Exchange::Polymarket, &event_id, |event| {
        event["title"] = json!("Renamed")
    });
    let event = find(&server, Endpoint::GammaEvents, "", "id", &event_id).await;
    assert_eq!(event["title"], "Renamed");
    let market_id = data.polymarket_markets[0]["id"].as_str().unwrap();
    let market = find(
        &server,
        Endpoint::GammaMarkets,
        &format!("id={market_id}"),
        "id",
        market_id,
    )
    .await;
    assert_eq!(market["events"][0]["title"], "Renamed");

    let nested_event_id = data.polymarket_events[0]["id"].as_str().unwrap().to_owned();
    server.update_event(Exchange::Polymarket, &nested_event_id, |event| {
        event["title"] = json!("Also renamed")
    });
    let nested_only = data.polymarket_events[0]["markets"][0]["id"].as_str().unwrap();
    let market = find(&server, Endpoint::GammaMarkets, "", "id", nested_only).await;
    assert_eq!(market["events"][0]["title"], "Also renamed");

    server.update_event(Exchange::Kalshi, "KXNEWPOPE-70", |event| {
        event["category"] = json!("World")
    });
    let event = find(&server, Endpoint::KalshiEvents, "", "event_ticker", "KXNEWPOPE-70").await;
    assert_eq!(event["category"], "World");
}
