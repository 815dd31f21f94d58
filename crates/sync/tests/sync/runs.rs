use marketlens_domain::{Exchange, MarketStatus};
use marketlens_storage::SyncKind;
use serde_json::json;

use crate::{Harness, assert_same, expected};

#[tokio::test]
async fn a_full_sync_stores_exactly_the_recorded_markets_and_events() {
    let harness = Harness::new().await;
    for exchange in Exchange::ALL {
        let report = harness.sync(exchange, SyncKind::Full).await;
        assert!(report.succeeded(), "{report}");
        let (markets, events) = expected(exchange);
        assert!(report.pages > 5, "small pages make a long walk: {report}");
        assert_eq!(report.counts.markets_inserted as usize, markets.len(), "{report}");
        assert_same(
            &harness.stored_markets(exchange).await,
            &markets,
            &format!("{exchange} markets"),
        );
        assert_same(
            &harness.stored_events(exchange).await,
            &events,
            &format!("{exchange} events"),
        );
    }
    let (polymarket, _) = expected(Exchange::Polymarket);
    let (kalshi, kalshi_events) = expected(Exchange::Kalshi);
    assert_eq!(
        (polymarket.len(), kalshi.len(), kalshi_events.len()),
        (242, 16, 203),
        "the recorded counts"
    );

    let status = harness.store.sync_status(Exchange::Kalshi).await.unwrap();
    assert!(
        status
            .latest_full_success
            .is_some_and(|run| run.succeeded && run.counts.markets_inserted == 16)
    );
}

#[tokio::test]
async fn a_second_sync_changes_nothing() {
    let harness = Harness::new().await;
    for exchange in Exchange::ALL {
        harness.sync(exchange, SyncKind::Full).await;
        let before = harness.stored_markets(exchange).await;
        for kind in [SyncKind::Full, SyncKind::Incremental] {
            let again = harness.sync(exchange, kind).await;
            assert!(again.succeeded(), "{again}");
            assert_eq!(
                (again.counts.markets_inserted, again.counts.markets_updated),
                (0, 0),
                "{again}"
            );
            assert_eq!(
                (again.counts.events_inserted, again.counts.events_updated),
                (0, 0),
                "{again}"
            );
            assert!(!again.changed_markets());
        }
        assert_eq!(harness.stored_markets(exchange).await, before);
    }
}

#[tokio::test]
async fn incremental_sync_walks_only_open_events() {
    let harness = Harness::new().await;
    harness.sync(Exchange::Polymarket, SyncKind::Incremental).await;
    let requests = harness.replay.requests();
    assert!(
        requests
            .iter()
            .filter(|(path, _)| path.ends_with("/events/keyset"))
            .all(|(_, query)| query.contains("closed=false"))
    );
    let stored = harness.stored_markets(Exchange::Polymarket).await;
    assert!(!stored.is_empty());
    // The ten closed 2021–22 events of gamma-events-2 are not walked.
    assert!(!stored.contains_key("239826"));
}

#[tokio::test]
async fn a_changed_record_is_updated() {
    let harness = Harness::new().await;
    harness.sync(Exchange::Kalshi, SyncKind::Full).await;
    harness
        .replay
        .update_market(Exchange::Kalshi, "KXELONMARS-99", |market| {
            market["last_price_dollars"] = json!("0.2200");
            market["updated_time"] = json!("2026-05-01T00:00:00Z");
        });
    let report = harness.sync(Exchange::Kalshi, SyncKind::Incremental).await;
    assert!(report.succeeded(), "{report}");
    assert_eq!(report.counts.markets_updated, 1, "{report}");
    assert!(report.changed_markets());
    let stored = harness.stored_markets(Exchange::Kalshi).await;
    assert_eq!(stored["KXELONMARS-99"].outcomes[0].price, 0.22);
}

#[tokio::test]
async fn a_market_that_closed_since_is_found_by_looking_it_up() {
    let harness = Harness::new().await;
    harness.sync(Exchange::Polymarket, SyncKind::Full).await;
    assert_eq!(
        harness.stored_markets(Exchange::Polymarket).await["512272"].status,
        MarketStatus::Open
    );
    // "Will Trump jail Hillary Clinton?" resolves No: its event closes, so an incremental walk
    // of open events no longer returns it.
    harness
        .replay
        .update_event(Exchange::Polymarket, "14205", |event| event["closed"] = json!(true));
    harness.replay.update_market(Exchange::Polymarket, "512272", |market| {
        market["closed"] = json!(true);
        market["outcomePrices"] = json!("[\"0\", \"1\"]");
        market["updatedAt"] = json!("2025-07-01T00:00:00Z");
    });
    let report = harness.sync(Exchange::Polymarket, SyncKind::Incremental).await;
    assert!(report.succeeded(), "{report}");
    assert!(report.markets_looked_up >= 1, "{report}");
    let stored = harness.stored_markets(Exchange::Polymarket).await;
    assert_eq!(stored["512272"].status, MarketStatus::Resolved);
    assert_eq!(stored["512272"].outcomes[1].price, 1.0);
    assert!(
        harness
            .replay
            .requests()
            .iter()
            .any(|(path, query)| path.ends_with("/markets/keyset") && query.contains("id=512272"))
    );
}
