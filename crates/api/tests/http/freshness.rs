//! Freshness: `lastSyncedAt` in a market's get and lookup, and `X-Data-Age` on market lists
//! and gets, from when each market was written and when its exchange last synced.

use chrono::{TimeDelta, Utc};
use marketlens_domain::Exchange;
use marketlens_domain::time::{Timestamp, to_iso8601};
use marketlens_storage::{SyncKind, SyncRun, UpsertCounts};
use reqwest::Method;

use crate::TestServer;
use crate::seed::{SPECS, market};

fn run(exchange: Exchange, kind: SyncKind, started_at: Timestamp) -> SyncRun {
    SyncRun {
        exchange,
        kind,
        started_at,
        finished_at: started_at + TimeDelta::seconds(30),
        succeeded: true,
        pages: 3,
        counts: UpsertCounts::default(),
        records_skipped: 0,
        errors: 0,
        error: None,
    }
}

/// The `X-Data-Age` of a call, and its body.
async fn data_age(
    server: &TestServer,
    path: &str,
    key: &marketlens_domain::api_key::ApiKey,
) -> (Option<i64>, serde_json::Value) {
    let response = server.request(Method::GET, path, Some(key)).send().await.unwrap();
    let age = response
        .headers()
        .get("x-data-age")
        .map(|value| value.to_str().unwrap().parse().unwrap());
    let (status, body) = crate::json_of(response).await;
    assert_eq!(status, 200, "{path}: {body}");
    (age, body)
}

fn near(age: Option<i64>, expected: i64) -> bool {
    age.is_some_and(|age| (expected..=expected + 5).contains(&age))
}

#[tokio::test]
async fn a_get_is_as_fresh_as_its_last_write_or_the_last_sync_that_walked_it() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let now = Utc::now();
    // Every Kalshi market written two hours ago, with new prices.
    let two_hours_ago = now - TimeDelta::hours(2);
    let kalshi: Vec<_> = SPECS
        .iter()
        .filter(|spec| spec.exchange == Exchange::Kalshi)
        .map(|spec| {
            let mut written = market(spec);
            written.outcomes[0].price = (spec.yes_price + 0.01).min(1.0);
            written
        })
        .collect();
    server.store.upsert(&kalshi, &[], two_hours_ago).await.unwrap();
    // Kalshi's last full sync started three hours ago, its last incremental one an hour ago.
    let three_hours_ago = now - TimeDelta::hours(3);
    let an_hour_ago = now - TimeDelta::hours(1);
    server
        .store
        .record_sync_run(&run(Exchange::Kalshi, SyncKind::Full, three_hours_ago))
        .await
        .unwrap();
    server
        .store
        .record_sync_run(&run(Exchange::Kalshi, SyncKind::Incremental, an_hour_ago))
        .await
        .unwrap();
    server.refresh_catalog().await;

    // An open market: walked by the incremental sync.
    let open = market(&SPECS[1]).id();
    let (age, body) = data_age(&server, &format!("/api/v1/markets/{open}"), &key).await;
    assert_eq!(body["data"]["lastSyncedAt"], to_iso8601(an_hour_ago));
    assert!(near(age, 3_600), "{age:?}");
    // A closed one: only full syncs walk it, so its own write is the latest confirmation.
    let closed = market(&SPECS[7]).id();
    let (age, body) = data_age(&server, &format!("/api/v1/markets/{closed}"), &key).await;
    assert_eq!(body["data"]["lastSyncedAt"], to_iso8601(two_hours_ago));
    assert!(near(age, 7_200), "{age:?}");
    // Lookup answers as get does.
    let url: String = url::form_urlencoded::byte_serialize(market(&SPECS[7]).url.as_bytes()).collect();
    let (age, body) = data_age(&server, &format!("/api/v1/markets/lookup?url={url}"), &key).await;
    assert_eq!(body["data"]["lastSyncedAt"], to_iso8601(two_hours_ago));
    assert!(near(age, 7_200), "{age:?}");

    // A list of Kalshi markets: since its last sync.
    let (age, _) = data_age(&server, "/api/v1/markets?exchange=KALSHI", &key).await;
    assert!(near(age, 3_600), "{age:?}");
    // Polymarket's markets were written by the seed, dated in the future: no age.
    let (age, _) = data_age(&server, "/api/v1/markets?exchange=POLYMARKET", &key).await;
    assert_eq!(age, Some(0));
    // Both exchanges: the older of the two.
    let (age, _) = data_age(&server, "/api/v1/markets", &key).await;
    assert!(near(age, 3_600), "{age:?}");
}
