use marketlens_domain::Exchange;
use marketlens_storage::{SyncKind, SyncRun, UpsertCounts};

use crate::{at, backends};

fn run(exchange: Exchange, kind: SyncKind, finished: i64, succeeded: bool) -> SyncRun {
    SyncRun {
        exchange,
        kind,
        started_at: at(finished - 5),
        finished_at: at(finished),
        succeeded,
        pages: 3,
        counts: UpsertCounts {
            markets_inserted: 10,
            markets_unchanged: 2,
            events_inserted: 1,
            ..UpsertCounts::default()
        },
        records_skipped: 1,
        errors: u64::from(!succeeded),
        error: (!succeeded).then(|| "HTTP 503 after 5 attempts".to_owned()),
    }
}

#[tokio::test]
async fn status_reports_the_latest_run_and_the_latest_successes() {
    for backend in backends().await {
        let store = &backend.store;
        let empty = store.sync_status(Exchange::Kalshi).await.unwrap();
        assert_eq!(
            (empty.latest, empty.latest_success, empty.latest_full_success),
            (None, None, None),
            "{}",
            backend.name
        );

        let full = run(Exchange::Kalshi, SyncKind::Full, 10, true);
        let incremental = run(Exchange::Kalshi, SyncKind::Incremental, 20, true);
        let failed = run(Exchange::Kalshi, SyncKind::Incremental, 30, false);
        let other = run(Exchange::Polymarket, SyncKind::Full, 40, true);
        for item in [&full, &incremental, &failed, &other] {
            store.record_sync_run(item).await.unwrap();
        }
        let status = store.sync_status(Exchange::Kalshi).await.unwrap();
        assert_eq!(status.latest, Some(failed));
        assert_eq!(status.latest_success, Some(incremental));
        assert_eq!(status.latest_full_success, Some(full));
    }
}

#[tokio::test]
async fn a_lease_has_one_holder_until_released_or_expired() {
    let minute = chrono::TimeDelta::minutes(1);
    for backend in backends().await {
        let store = &backend.store;
        assert!(
            store.acquire_lease("sync", "node-a", at(0), minute).await.unwrap(),
            "{}",
            backend.name
        );
        assert!(
            !store.acquire_lease("sync", "node-b", at(30), minute).await.unwrap(),
            "{}: held by another",
            backend.name
        );
        assert!(
            store.acquire_lease("sync", "node-a", at(50), minute).await.unwrap(),
            "the holder renews"
        );
        assert!(
            !store.acquire_lease("sync", "node-b", at(100), minute).await.unwrap(),
            "renewed until 110"
        );
        assert!(
            store.acquire_lease("other", "node-b", at(100), minute).await.unwrap(),
            "leases are separate"
        );
        assert!(
            store.acquire_lease("sync", "node-b", at(110), minute).await.unwrap(),
            "expired: taken over"
        );
        store.release_lease("sync", "node-a").await.unwrap();
        assert!(
            !store.acquire_lease("sync", "node-a", at(111), minute).await.unwrap(),
            "a release by one who no longer holds it changes nothing"
        );
        store.release_lease("sync", "node-b").await.unwrap();
        assert!(
            store.acquire_lease("sync", "node-a", at(112), minute).await.unwrap(),
            "released: free at once"
        );
    }
}
