//! Walking the cursors visits every record exactly once, whatever the page size.

use marketlens_replay::ReplayServer;
use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::{Endpoint, assert_unique, expected_ids, get, get_ok, recorded, walk};

#[tokio::test]
async fn every_listing_serves_every_record_once_at_every_page_size() {
    let data = recorded();
    let server = ReplayServer::start(data.clone());
    for endpoint in Endpoint::ALL {
        let expected = expected_ids(&data, endpoint);
        assert_unique(&expected);
        for limit in [Some(1), Some(7), None, Some(endpoint.max_limit())] {
            let records = walk(&server, endpoint, "", limit).await;
            assert_eq!(endpoint.ids(&records), expected, "{endpoint:?} with limit {limit:?}");
        }
    }
}

#[tokio::test]
async fn records_are_served_as_recorded() {
    let data = recorded();
    let server = ReplayServer::start(data.clone());
    assert_eq!(
        walk(&server, Endpoint::GammaEvents, "", Some(500)).await,
        data.polymarket_events
    );
    assert_eq!(
        walk(&server, Endpoint::KalshiMarkets, "", Some(1000)).await,
        data.kalshi_markets
    );
    let kalshi_events = walk(&server, Endpoint::KalshiEvents, "with_nested_markets=true", None).await;
    let nested_recording = &data.kalshi_events[0];
    assert_eq!(&kalshi_events[0], nested_recording);

    let gamma_markets = walk(&server, Endpoint::GammaMarkets, "", Some(100)).await;
    let (top_level, from_events) = gamma_markets.split_at(data.polymarket_markets.len());
    assert_eq!(top_level, data.polymarket_markets);
    // A market known only from an event is served with that event as its back-reference.
    let event = &data.polymarket_events[0];
    let nested = &from_events[0];
    assert_eq!(nested["id"], event["markets"][0]["id"]);
    let back_reference = &nested["events"].as_array().unwrap()[..];
    assert_eq!(back_reference.len(), 1);
    assert_eq!(back_reference[0]["id"], event["id"]);
    assert_eq!(back_reference[0]["title"], event["title"]);
    assert!(back_reference[0].get("markets").is_none());
}

#[tokio::test]
async fn the_limit_has_a_default_and_a_maximum() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    for endpoint in Endpoint::ALL {
        let url = endpoint.url(&server);
        let page = get_ok(&client, &url).await;
        let records = page[endpoint.records_key()].as_array().unwrap();
        let total = expected_ids(&recorded(), endpoint).len();
        assert_eq!(records.len(), endpoint.default_limit().min(total), "{endpoint:?}");

        let maximum = endpoint.max_limit();
        get_ok(&client, &format!("{url}?limit={maximum}")).await;
        for bad in [(maximum + 1).to_string(), "0".into(), "ten".into()] {
            let (status, body) = get(&client, &format!("{url}?limit={bad}")).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{endpoint:?} limit={bad}");
            assert_eq!(body["error"]["code"], "bad_request");
            assert!(body["error"]["message"].as_str().unwrap().starts_with("limit"));
        }
    }
}

#[tokio::test]
async fn keyset_endpoints_refuse_offset() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    for endpoint in [Endpoint::GammaEvents, Endpoint::GammaMarkets] {
        let (status, _) = get(&client, &format!("{}?offset=0", endpoint.url(&server))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{endpoint:?}");
    }
    // Kalshi ignores parameters it does not know.
    get_ok(&client, &format!("{}?offset=0", Endpoint::KalshiEvents.url(&server))).await;
}

#[tokio::test]
async fn cursors_are_only_accepted_where_they_were_issued() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    let first = get_ok(&client, &format!("{}?limit=5", Endpoint::GammaEvents.url(&server))).await;
    let cursor = Endpoint::GammaEvents.next_cursor(&first).unwrap();
    get_ok(
        &client,
        &format!("{}?after_cursor={cursor}", Endpoint::GammaEvents.url(&server)),
    )
    .await;

    let garbled = format!("{cursor}ff");
    let attempts = [
        format!("{}?after_cursor={garbled}", Endpoint::GammaEvents.url(&server)),
        format!("{}?after_cursor=not-a-cursor", Endpoint::GammaEvents.url(&server)),
        format!("{}?after_cursor={cursor}", Endpoint::GammaMarkets.url(&server)),
        format!("{}?cursor={cursor}", Endpoint::KalshiEvents.url(&server)),
        format!(
            "{}?cursor=CgYI8PuC-AYSC1NFTkFURUlOLTI4",
            Endpoint::KalshiEvents.url(&server)
        ),
    ];
    for url in attempts {
        let (status, body) = get(&client, &url).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{url}");
        assert_eq!(body["error"]["code"], "bad_request");
    }
    // An empty Kalshi cursor is the first page.
    let page = get_ok(
        &client,
        &format!("{}?cursor=&limit=1", Endpoint::KalshiEvents.url(&server)),
    )
    .await;
    assert_eq!(
        page["events"][0]["event_ticker"],
        recorded().kalshi_events[0]["event_ticker"]
    );
}

#[tokio::test]
async fn pages_have_each_exchange_envelope() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    let gamma_last = get_ok(&client, &format!("{}?limit=500", Endpoint::GammaEvents.url(&server))).await;
    assert_eq!(keys(&gamma_last), ["events"]);
    let gamma_first = get_ok(&client, &Endpoint::GammaMarkets.url(&server)).await;
    assert_eq!(keys(&gamma_first), ["markets", "next_cursor"]);
    let kalshi_events = get_ok(&client, &format!("{}?limit=200", Endpoint::KalshiEvents.url(&server))).await;
    assert_eq!(keys(&kalshi_events), ["cursor", "events", "milestones"]);
    assert_eq!(kalshi_events["milestones"], serde_json::json!([]));
    let kalshi_markets = get_ok(&client, &format!("{}?limit=1000", Endpoint::KalshiMarkets.url(&server))).await;
    assert_eq!(keys(&kalshi_markets), ["cursor", "markets"]);
    assert_eq!(kalshi_markets["cursor"], "");
}

#[tokio::test]
async fn unknown_paths_are_a_json_404() {
    let server = ReplayServer::start(recorded());
    let (status, body) = get(&Client::new(), &format!("{}/events", server.polymarket_url())).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"]["code"], "not_found");
}

fn keys(body: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = body.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}
