use marketlens_domain::Exchange;
use marketlens_replay::Fault;
use marketlens_storage::SyncKind;
use std::time::{Duration, Instant};

use crate::{Harness, assert_same, expected};

#[tokio::test]
async fn every_transient_fault_is_retried_and_nothing_is_lost() {
    let faults = [
        Fault::TooManyRequests { retry_after_secs: None },
        Fault::ServerError,
        Fault::Slow(Duration::from_millis(300)),
        Fault::Truncated,
        Fault::Malformed,
        Fault::Slow(Duration::from_secs(4)),
    ];
    for exchange in Exchange::ALL {
        let harness = Harness::new().await;
        let walk_path = match exchange {
            Exchange::Polymarket => "/events/keyset",
            Exchange::Kalshi => "/events",
        };
        for fault in &faults {
            harness.replay.inject_on(walk_path, fault.clone());
        }
        let report = harness.sync(exchange, SyncKind::Full).await;
        assert!(report.succeeded(), "{exchange}: {report}");
        let walked = harness
            .replay
            .requests()
            .iter()
            .filter(|(path, _)| path.ends_with(walk_path))
            .count() as u64;
        assert_eq!(
            walked,
            report.pages + 5,
            "five faults cost one retry each (the short delay costs none)"
        );
        assert_same(
            &harness.stored_markets(exchange).await,
            &expected(exchange).0,
            &exchange.to_string(),
        );
    }
}

#[tokio::test]
async fn retry_after_is_honoured() {
    let harness = Harness::new().await;
    harness.replay.inject_on(
        "/events/keyset",
        Fault::TooManyRequests {
            retry_after_secs: Some(1),
        },
    );
    let started = Instant::now();
    let report = harness.sync(Exchange::Polymarket, SyncKind::Full).await;
    assert!(report.succeeded(), "{report}");
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "waited as the exchange asked"
    );
}

#[tokio::test]
async fn a_refused_request_fails_the_run_at_once_and_says_why() {
    let mut harness = Harness::new().await;
    harness.settings.polymarket.page_size = 501; // above Gamma's maximum: a 400
    let report = harness.sync(Exchange::Polymarket, SyncKind::Full).await;
    assert!(!report.succeeded());
    assert!(
        report.error.as_deref().is_some_and(|error| error.contains("HTTP 400")),
        "{report}"
    );
    assert_eq!(harness.replay.requests().len(), 1, "a 400 is not retried");
    let status = harness.store.sync_status(Exchange::Polymarket).await.unwrap();
    assert_eq!(status.latest.map(|run| run.succeeded), Some(false));
    assert_eq!(status.latest_success, None);
}

#[tokio::test]
async fn a_run_that_fails_half_way_keeps_what_it_stored_and_the_next_run_completes_it() {
    let harness = Harness::new().await;
    let replay = harness.replay.clone();
    let attempts = harness.settings.max_attempts;
    // After the second page is stored, the exchange fails every attempt of the next request.
    // The third page is already fetched by then (pages are fetched one ahead), so the walk
    // stores three pages and fails on the fourth.
    let failing = harness
        .sync_watching(Exchange::Kalshi, SyncKind::Full, &mut |report| {
            if report.pages == 2 {
                for _ in 0..attempts {
                    replay.inject_on("/events", Fault::ServerError);
                }
            }
        })
        .await;
    assert!(!failing.succeeded(), "{failing}");
    assert_eq!(failing.pages, 3);
    assert!(
        failing
            .error
            .as_deref()
            .is_some_and(|error| error.contains("gave up after 4 attempts")),
        "{failing}"
    );
    let partial = harness.stored_events(Exchange::Kalshi).await;
    assert_eq!(partial.len(), 3 * 23, "three whole pages stored, nothing of the fourth");

    let rerun = harness.sync(Exchange::Kalshi, SyncKind::Full).await;
    assert!(rerun.succeeded(), "{rerun}");
    let (markets, events) = expected(Exchange::Kalshi);
    assert_same(
        &harness.stored_markets(Exchange::Kalshi).await,
        &markets,
        "Kalshi markets",
    );
    assert_same(&harness.stored_events(Exchange::Kalshi).await, &events, "Kalshi events");
}
