//! Each listing's filters, alone and across pages.

use marketlens_replay::ReplayServer;
use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::{Endpoint, gamma_market_ids, get, get_ok, recorded, walk};

fn is_true(record: &Value, key: &str) -> bool {
    record.get(key) == Some(&Value::Bool(true))
}

#[tokio::test]
async fn gamma_events_filter_on_closed_active_and_archived() {
    let data = recorded();
    let server = ReplayServer::start(data.clone());
    let ids_where = |keep: &dyn Fn(&Value) -> bool| -> Vec<String> {
        Endpoint::GammaEvents.ids(
            &data
                .polymarket_events
                .iter()
                .filter(|e| keep(e))
                .cloned()
                .collect::<Vec<_>>(),
        )
    };

    let closed = walk(&server, Endpoint::GammaEvents, "closed=true", Some(3)).await;
    assert_eq!(Endpoint::GammaEvents.ids(&closed), ids_where(&|e| is_true(e, "closed")));
    assert_eq!(closed.len(), 10);
    let open = walk(&server, Endpoint::GammaEvents, "closed=false", Some(500)).await;
    assert_eq!(Endpoint::GammaEvents.ids(&open), ids_where(&|e| !is_true(e, "closed")));
    assert_eq!(open.len(), 100);

    let active_open = walk(
        &server,
        Endpoint::GammaEvents,
        "active=true&closed=false&archived=false",
        None,
    )
    .await;
    assert_eq!(active_open.len(), 100);
    assert!(
        walk(&server, Endpoint::GammaEvents, "archived=true", None)
            .await
            .is_empty()
    );

    let (status, _) = get(
        &Client::new(),
        &format!("{}?closed=maybe", Endpoint::GammaEvents.url(&server)),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn gamma_markets_filter_on_ids_in_stored_order_and_on_flags() {
    let data = recorded();
    let server = ReplayServer::start(data.clone());
    let all = gamma_market_ids(&data);
    // A nested-only market, a top-level one and an unknown id, asked out of order.
    let (nested_only, top_level) = (&all[1100], &all[3]);
    let query = format!("id={nested_only}&id=999999999&id={top_level}");
    let markets = walk(&server, Endpoint::GammaMarkets, &query, Some(1)).await;
    assert_eq!(Endpoint::GammaMarkets.ids(&markets), [top_level.as_str(), nested_only]);

    let closed = walk(&server, Endpoint::GammaMarkets, "closed=true", Some(100)).await;
    assert!(closed.iter().all(|market| is_true(market, "closed")));
    // All 500 of gamma-markets-2.json, and 22 closed markets known only from events.
    assert_eq!(closed.len(), 522);
    let open = walk(&server, Endpoint::GammaMarkets, "closed=false", Some(100)).await;
    assert_eq!(open.len() + closed.len(), all.len());
}

#[tokio::test]
async fn kalshi_events_nest_markets_only_when_asked() {
    let data = recorded();
    let server = ReplayServer::start(data.clone());
    let flat = walk(&server, Endpoint::KalshiEvents, "", None).await;
    assert!(flat.iter().all(|event| event.get("markets").is_none()));
    let flat_false = walk(&server, Endpoint::KalshiEvents, "with_nested_markets=false", None).await;
    assert_eq!(flat_false, flat);

    let nested = walk(&server, Endpoint::KalshiEvents, "with_nested_markets=true", Some(200)).await;
    let markets: Vec<&Value> = nested
        .iter()
        .flat_map(|event| event["markets"].as_array().expect("every nested event has a list"))
        .collect();
    assert_eq!(markets.len(), 16);
    assert!(markets.iter().all(|market| market["event_ticker"].is_string()));
}

#[tokio::test]
async fn kalshi_events_filter_on_their_markets_status() {
    let server = ReplayServer::start(recorded());
    let open = walk(
        &server,
        Endpoint::KalshiEvents,
        "status=open&with_nested_markets=true",
        Some(1),
    )
    .await;
    assert_eq!(open.len(), 6);
    for event in &open {
        let statuses: Vec<&Value> = event["markets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| &m["status"])
            .collect();
        assert!(statuses.contains(&&Value::from("active")), "{statuses:?}");
    }
    for ended in ["closed", "settled"] {
        let events = walk(&server, Endpoint::KalshiEvents, &format!("status={ended}"), None).await;
        assert_eq!(
            Endpoint::KalshiEvents.ids(&events),
            ["KXIPHONERELEASE-IPHONE18"],
            "status={ended}"
        );
    }
    // As the real API does (demo-data/kalshi/SOURCES.md), `finalized` is not a status filter.
    let (status, _) = get(
        &Client::new(),
        &format!("{}?status=finalized", Endpoint::KalshiEvents.url(&server)),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn kalshi_markets_filter_on_tickers_event_and_status() {
    let data = recorded();
    let server = ReplayServer::start(data.clone());
    let tickers = Endpoint::KalshiMarkets.ids(&data.kalshi_markets);
    let query = format!("tickers={},NOPE,{}", tickers[700], tickers[2]);
    let markets = walk(&server, Endpoint::KalshiMarkets, &query, None).await;
    assert_eq!(
        Endpoint::KalshiMarkets.ids(&markets),
        [tickers[2].as_str(), &tickers[700]]
    );

    let event = data.kalshi_markets[0]["event_ticker"].as_str().unwrap();
    let of_event = walk(
        &server,
        Endpoint::KalshiMarkets,
        &format!("event_ticker={event}"),
        Some(1),
    )
    .await;
    let expected: Vec<&Value> = data
        .kalshi_markets
        .iter()
        .filter(|m| m["event_ticker"] == event)
        .collect();
    assert_eq!(of_event.iter().collect::<Vec<_>>(), expected);

    let open = walk(&server, Endpoint::KalshiMarkets, "status=open", Some(1000)).await;
    assert_eq!(open.len(), 298);
    assert!(open.iter().all(|market| market["status"] == "active"));
    let settled = walk(&server, Endpoint::KalshiMarkets, "status=settled", Some(1000)).await;
    assert_eq!(settled.len(), 477);
    let (status, _) = get(
        &Client::new(),
        &format!("{}?status=unknown", Endpoint::KalshiMarkets.url(&server)),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    get_ok(
        &Client::new(),
        &format!("{}?series_ticker=KXMARMAD", Endpoint::KalshiMarkets.url(&server)),
    )
    .await;
}
