//! Scaled data multiplies the records and keeps ids unique and references consistent.

use marketlens_replay::{ReplayData, ReplayServer};
use serde_json::Value;
use std::collections::HashSet;

use crate::{Endpoint, assert_unique, recorded, walk};

#[tokio::test]
async fn three_copies_serve_three_times_the_records_with_unique_ids() {
    let one = recorded();
    let server = ReplayServer::start(ReplayData::scaled(3));
    for endpoint in Endpoint::ALL {
        let records = walk(&server, endpoint, "", Some(endpoint.max_limit())).await;
        let ids = endpoint.ids(&records);
        assert_eq!(ids.len(), 3 * crate::expected_ids(&one, endpoint).len(), "{endpoint:?}");
        assert_unique(&ids);
    }

    // 1,292 Gamma markets and 775 Kalshi markets a copy.
    let gamma_markets = walk(&server, Endpoint::GammaMarkets, "", Some(100)).await;
    let kalshi_markets = walk(&server, Endpoint::KalshiMarkets, "", Some(1000)).await;
    assert_eq!(gamma_markets.len() + kalshi_markets.len(), 3 * 2_067);

    // Every back-reference is renamed with its market; those of markets known only from an
    // event (served after all top-level ones) name a served event.
    let gamma_events: HashSet<Value> = walk(&server, Endpoint::GammaEvents, "", Some(500))
        .await
        .into_iter()
        .map(|event| event["id"].clone())
        .collect();
    let top_level = 3 * one.polymarket_markets.len();
    for (position, market) in gamma_markets.iter().enumerate() {
        if !market["id"].as_str().unwrap().ends_with("c2") {
            continue;
        }
        for event in market["events"].as_array().into_iter().flatten() {
            assert!(event["id"].as_str().unwrap().ends_with("c2"), "{}", event["id"]);
            assert!(event["slug"].as_str().unwrap().ends_with("-c2"), "{}", event["slug"]);
            if position >= top_level {
                assert!(gamma_events.contains(&event["id"]), "{}", event["id"]);
            }
        }
    }
    let kalshi_events = walk(&server, Endpoint::KalshiEvents, "with_nested_markets=true", Some(200)).await;
    for event in kalshi_events
        .iter()
        .filter(|event| event["event_ticker"].as_str().unwrap().ends_with("-C1"))
    {
        for market in event["markets"].as_array().unwrap() {
            assert_eq!(market["event_ticker"], event["event_ticker"]);
            assert!(market["ticker"].as_str().unwrap().ends_with("-C1"));
        }
    }
}

#[test]
fn one_copy_is_the_recorded_data() {
    let scaled = ReplayData::scaled(1);
    let recorded = recorded();
    assert_eq!(scaled.polymarket_events, recorded.polymarket_events);
    assert_eq!(scaled.kalshi_markets, recorded.kalshi_markets);
    assert!(ReplayData::scaled(0).polymarket_markets.is_empty());
}
