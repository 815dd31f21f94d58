//! Get market and lookup on real recorded markets of both exchanges (the `demo-data/` copies
//! of the shared fixtures, normalized and stored as an import stores them): each market's
//! event, page, rules and result.

use chrono::Utc;
use marketlens_domain::Exchange;
use marketlens_domain::ids::{event_id, market_id};
use serde_json::{Value, json};

use crate::TestServer;

/// Stores `file` of `exchange`'s recordings as `marketlens import` does.
async fn import(server: &TestServer, exchange: Exchange, file: &str) {
    let path = format!(
        "{}/../../demo-data/{}/{file}",
        env!("CARGO_MANIFEST_DIR"),
        exchange.platform()
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    let (_, normalized) = marketlens_exchanges::normalize(exchange, &bytes).unwrap();
    server
        .store
        .upsert(&normalized.markets, &normalized.events, Utc::now())
        .await
        .unwrap();
}

/// A recorded market as get answers it, by its exchange id; lookup of its own `url` answers
/// the same when the page is the market's alone.
async fn get(server: &TestServer, exchange: Exchange, external_id: &str) -> Value {
    let key = server.key().await;
    let id = market_id(exchange, external_id);
    let (status, body) = server.get(&format!("/api/v1/markets/{id}"), &key).await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

async fn lookup(server: &TestServer, url: &Value) -> Value {
    let key = server.key().await;
    let url: String = url::form_urlencoded::byte_serialize(url.as_str().unwrap().as_bytes()).collect();
    let (status, body) = server.get(&format!("/api/v1/markets/lookup?url={url}"), &key).await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

fn starts_with(value: &Value, prefix: &str) -> bool {
    value.as_str().is_some_and(|text| text.starts_with(prefix))
}

#[tokio::test]
async fn resolved_and_open_recorded_markets_carry_their_event_page_rules_and_result() {
    let server = TestServer::start().await;
    import(&server, Exchange::Polymarket, "gamma-events-1.json").await;
    import(&server, Exchange::Polymarket, "gamma-events-2.json").await;
    import(&server, Exchange::Kalshi, "markets-1.json").await;
    import(&server, Exchange::Kalshi, "events-nested-1.json").await;
    import(&server, Exchange::Kalshi, "event-single-1.json").await;
    server.refresh_catalog().await;

    // Polymarket, resolved by the oracle at ["0", "1"]: No won, when Gamma closed it.
    let nuclear = get(&server, Exchange::Polymarket, "514472").await;
    assert_eq!(nuclear["status"], "RESOLVED");
    assert_eq!(nuclear["eventId"], event_id(Exchange::Polymarket, "15026").to_string());
    assert_eq!(
        nuclear["url"],
        "https://polymarket.com/event/nuclear-weapon-detonation-by/will-a-nuclear-weapon-detonate-by-march-31"
    );
    assert_eq!(
        nuclear["resolution"],
        json!({"outcome": "No", "resolvedAt": "2025-04-01T08:21:16.000Z"})
    );
    assert_eq!(nuclear["rules"]["primary"], nuclear["description"]);
    assert!(starts_with(
        &nuclear["rules"]["primary"],
        "This market will resolve to \"Yes\" if a nuclear weapon"
    ));
    assert_eq!(
        (&nuclear["rules"]["secondary"], &nuclear["rules"]["source"]),
        (&Value::Null, &Value::Null),
        "resolutionSource is \"\""
    );
    assert_eq!(lookup(&server, &nuclear["url"]).await["id"], nuclear["id"]);

    // A legacy Polymarket market names its source; its last price, 0.99999958…, crowned No.
    let mavericks = get(&server, Exchange::Polymarket, "239826").await;
    assert_eq!(mavericks["rules"]["source"], "https://www.nba.com/games");
    assert_eq!(
        mavericks["resolution"],
        json!({"outcome": "No", "resolvedAt": "2021-12-05T20:37:01.000Z"})
    );

    // Kalshi, finalized with result "no": settled at settlement_ts. A /markets list holds no
    // events, so this market's event is not stored: no eventId, and a page by event ticker.
    let wichita = get(&server, Exchange::Kalshi, "KXMARMAD-26-WICH").await;
    assert_eq!(wichita["status"], "RESOLVED");
    assert_eq!(wichita["eventId"], Value::Null);
    assert_eq!(wichita["url"], "https://kalshi.com/markets/kxmarmad-26");
    assert_eq!(
        wichita["resolution"],
        json!({"outcome": "No", "resolvedAt": "2026-03-15T23:28:19.638Z"})
    );
    assert!(starts_with(
        &wichita["rules"]["primary"],
        "If Wichita St. is the 2025-26"
    ));
    assert!(starts_with(&wichita["rules"]["secondary"], "Kalshi is not affiliated"));
    assert_eq!(wichita["rules"]["source"], Value::Null);

    // Kalshi, finalized in a trimmed record without settlement_ts: the winner, no time.
    let iphone = get(&server, Exchange::Kalshi, "KXIPHONERELEASE-IPHONE18-26JUL01").await;
    assert_eq!(
        iphone["eventId"],
        event_id(Exchange::Kalshi, "KXIPHONERELEASE-IPHONE18").to_string()
    );
    assert_eq!(iphone["resolution"], json!({"outcome": "No", "resolvedAt": null}));

    // Open markets: rules, and no result.
    let clinton = get(&server, Exchange::Polymarket, "512272").await;
    assert_eq!(clinton["status"], "OPEN");
    assert_eq!(clinton["resolution"], Value::Null);
    assert_eq!(
        clinton["url"],
        "https://polymarket.com/event/will-trump-jail-hillary-clinton"
    );
    assert_eq!(clinton["eventId"], event_id(Exchange::Polymarket, "14205").to_string());
    assert!(starts_with(
        &clinton["rules"]["primary"],
        "This market will resolve to \"Yes\" if Hillary Clinton"
    ));
    let mars = get(&server, Exchange::Kalshi, "KXELONMARS-99").await;
    assert_eq!(mars["status"], "OPEN");
    assert_eq!(mars["resolution"], Value::Null);
    assert_eq!(mars["eventId"], event_id(Exchange::Kalshi, "KXELONMARS-99").to_string());
    assert_eq!(
        mars["url"],
        "https://kalshi.com/markets/kxelonmars/will-elon-musk-visit-mars-in-his-lifetime/kxelonmars-99"
    );
    assert_eq!(
        mars["rules"],
        json!({
            "primary": "If Elon Musk visits Mars before the earlier of his death or Aug 1, 2099, then the market resolves to Yes.",
            "secondary": null,
            "source": null
        })
    );
    // The event's only market: its page names it.
    assert_eq!(lookup(&server, &mars["url"]).await["id"], mars["id"]);
}
