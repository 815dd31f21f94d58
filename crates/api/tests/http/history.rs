//! `GET /api/v1/markets/{id}/history`: candles from the snapshots every write records, on
//! known observations: open, high, low and close, empty buckets, UTC bucket edges, paging,
//! expiry of fine bars, errors and credits.

use chrono::{TimeDelta, TimeZone, Utc};
use marketlens_domain::history::Retention;
use marketlens_domain::time::Timestamp;
use marketlens_storage::ExpiryReport;
use serde_json::Value;

use crate::seed::{SPECS, market};
use crate::{TestServer, assert_error};

/// Monday 2026-03-02T00:00:00Z.
fn midnight() -> Timestamp {
    Utc.with_ymd_and_hms(2026, 3, 2, 0, 0, 0).unwrap()
}

/// Writes the Polymarket Bitcoin market of the seed with its Yes price at `price` (and its
/// 24-hour volume at `volume_24h`), as a sync at `at` would.
async fn observe(server: &TestServer, at: Timestamp, price: f64, volume_24h: f64) {
    let mut bitcoin = market(&SPECS[0]);
    bitcoin.outcomes[0].price = price;
    bitcoin.outcomes[1].price = ((1.0 - price) * 1e6).round() / 1e6;
    bitcoin.volume_24h = volume_24h;
    let counts = server.store.upsert(&[bitcoin], &[], at).await.unwrap();
    assert_eq!(counts.markets_updated, 1, "each observation changes the market");
}

fn bitcoin_id() -> String {
    market(&SPECS[0]).id().to_string()
}

fn iso(time: Timestamp) -> String {
    marketlens_domain::time::to_iso8601(time)
}

/// The Yes outcome's candles as (time, open, high, low, close).
fn yes_candles(body: &Value) -> Vec<(String, f64, f64, f64, f64)> {
    body["data"]["outcomes"][0]["candles"]
        .as_array()
        .unwrap_or_else(|| panic!("{body}"))
        .iter()
        .map(|candle| {
            (
                candle["time"].as_str().unwrap().to_owned(),
                candle["open"].as_f64().unwrap(),
                candle["high"].as_f64().unwrap(),
                candle["low"].as_f64().unwrap(),
                candle["close"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// A day of observations with known extremes.
async fn observe_a_day(server: &TestServer) {
    let t0 = midnight();
    for (offset, price, volume) in [
        (60, 0.40, 1.0),
        (600, 0.55, 2.0),
        (1_800, 0.30, 3.0),
        (3_540, 0.45, 4.0),
        // Exactly on the next hour: the next candle's first observation.
        (3_600, 0.50, 5.0),
        // Hour 2 has none; hour 3 one.
        (3 * 3_600 + 10, 0.60, 6.0),
        // The day's last second, and the next day's first.
        (86_399, 0.70, 7.0),
        (86_400, 0.20, 8.0),
    ] {
        observe(server, t0 + TimeDelta::seconds(offset), price, volume).await;
    }
}

fn range(from: Timestamp, to: Timestamp) -> String {
    format!("from={}&to={}", iso(from), iso(to))
}

#[tokio::test]
async fn candles_open_at_the_first_observation_close_at_the_last_and_skip_empty_buckets() {
    let server = TestServer::start().await;
    let (account, key) = server.account("pro", 100).await;
    observe_a_day(&server).await;
    let t0 = midnight();
    let hour = |hours: i64| iso(t0 + TimeDelta::hours(hours));
    let two_days = range(t0, t0 + TimeDelta::days(2));

    let response = server
        .request(
            reqwest::Method::GET,
            &format!("/api/v1/markets/{}/history?interval=1h&{two_days}", bitcoin_id()),
            Some(&key),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-credits-used"], "1");
    let (status, hourly) = crate::json_of(response).await;
    assert_eq!(status, 200, "{hourly}");
    assert_eq!(hourly["data"]["marketId"], bitcoin_id());
    assert_eq!(hourly["data"]["interval"], "1h");
    assert_eq!(
        yes_candles(&hourly),
        [
            (hour(0), 0.40, 0.55, 0.30, 0.45),
            (hour(1), 0.50, 0.50, 0.50, 0.50),
            (hour(3), 0.60, 0.60, 0.60, 0.60),
            (hour(23), 0.70, 0.70, 0.70, 0.70),
            (hour(24), 0.20, 0.20, 0.20, 0.20),
        ]
    );
    let no = &hourly["data"]["outcomes"][1];
    assert_eq!(no["name"], "No");
    assert_eq!(no["candles"][0]["open"], 0.6);
    assert_eq!(no["candles"][0]["high"], 0.7);
    assert_eq!(no["candles"][0]["low"], 0.45);
    assert_eq!(no["candles"][0]["close"], 0.55);
    assert_eq!(
        hourly["data"]["outcomes"][0]["candles"][0]["volume24h"], 4.0,
        "as of the close"
    );
    assert_eq!(
        hourly["pagination"],
        serde_json::json!({ "total": 5, "limit": 100, "offset": 0, "hasMore": false })
    );

    let (_, daily) = server
        .get(
            &format!("/api/v1/markets/{}/history?interval=1d&{two_days}", bitcoin_id()),
            &key,
        )
        .await;
    assert_eq!(
        yes_candles(&daily),
        [(hour(0), 0.40, 0.70, 0.30, 0.70), (hour(24), 0.20, 0.20, 0.20, 0.20)]
    );
    let (_, four_hourly) = server
        .get(
            &format!("/api/v1/markets/{}/history?interval=4H&{two_days}", bitcoin_id()),
            &key,
        )
        .await;
    assert_eq!(
        yes_candles(&four_hourly),
        [
            (hour(0), 0.40, 0.60, 0.30, 0.60),
            (hour(20), 0.70, 0.70, 0.70, 0.70),
            (hour(24), 0.20, 0.20, 0.20, 0.20),
        ]
    );
    let (_, five_minutes) = server
        .get(
            &format!("/api/v1/markets/{}/history?interval=5m&{two_days}", bitcoin_id()),
            &key,
        )
        .await;
    assert_eq!(yes_candles(&five_minutes).len(), 8, "one candle per observation here");

    // Paging, and `to` excluding the candle that starts at it.
    let (_, paged) = server
        .get(
            &format!(
                "/api/v1/markets/{}/history?interval=1h&{two_days}&limit=2&offset=1",
                bitcoin_id()
            ),
            &key,
        )
        .await;
    assert_eq!(
        yes_candles(&paged)
            .iter()
            .map(|candle| candle.0.clone())
            .collect::<Vec<_>>(),
        [hour(1), hour(3)]
    );
    assert_eq!(
        paged["pagination"],
        serde_json::json!({ "total": 5, "limit": 2, "offset": 1, "hasMore": true })
    );
    // The last page, shorter than its limit, and a page past the end: the total either way.
    for (offset, candles) in [(4, 1), (10, 0)] {
        let (_, page) = server
            .get(
                &format!(
                    "/api/v1/markets/{}/history?interval=1h&{two_days}&limit=2&offset={offset}",
                    bitcoin_id()
                ),
                &key,
            )
            .await;
        assert_eq!(yes_candles(&page).len(), candles, "offset {offset}");
        assert_eq!(
            page["pagination"],
            serde_json::json!({ "total": 5, "limit": 2, "offset": offset, "hasMore": false })
        );
    }
    let (_, first_hour) = server
        .get(
            &format!(
                "/api/v1/markets/{}/history?interval=1h&{}",
                bitcoin_id(),
                range(t0, t0 + TimeDelta::hours(1))
            ),
            &key,
        )
        .await;
    assert_eq!(yes_candles(&first_hour).len(), 1);
    // A `from` inside a bucket starts at the next whole one.
    let (_, from_inside) = server
        .get(
            &format!(
                "/api/v1/markets/{}/history?interval=1h&{}",
                bitcoin_id(),
                range(t0 + TimeDelta::minutes(30), t0 + TimeDelta::hours(2))
            ),
            &key,
        )
        .await;
    assert_eq!(yes_candles(&from_inside).len(), 1, "{from_inside}");
    assert_eq!(yes_candles(&from_inside)[0].0, hour(1));

    assert_eq!(
        server.remaining_credits(account.id).await,
        100 - 9,
        "one credit per call"
    );
}

#[tokio::test]
async fn expiry_keeps_every_candle_the_coarser_bars_serve() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let t0 = midnight();
    // A day of five-minute observations zigzagging between 0.30 and 0.70.
    for step in 0..288i64 {
        let price = 0.5 + ((step % 9) as f64 - 4.0) / 20.0;
        observe(&server, t0 + TimeDelta::seconds(step * 300 + 7), price, step as f64).await;
    }
    let day = range(t0, t0 + TimeDelta::days(1));
    let candles = |interval: &'static str| {
        let server = &server;
        let key = &key;
        let day = day.clone();
        async move {
            let (status, body) = server
                .get(
                    &format!(
                        "/api/v1/markets/{}/history?interval={interval}&{day}&limit=1000",
                        bitcoin_id()
                    ),
                    key,
                )
                .await;
            assert_eq!(status, 200, "{body}");
            body["data"]["outcomes"].clone()
        }
    };
    let (fine, hourly, daily) = (candles("5m").await, candles("1h").await, candles("1d").await);
    assert_eq!(fine[0]["candles"].as_array().unwrap().len(), 288);
    assert_eq!(hourly[0]["candles"].as_array().unwrap().len(), 24);
    assert_eq!(daily[0]["candles"][0]["high"], 0.7);
    assert_eq!(daily[0]["candles"][0]["low"], 0.3);

    // A week later the five-minute bars are gone: the hourly and daily candles stay.
    let report = server
        .store
        .expire_history(t0 + TimeDelta::days(9), Retention::default())
        .await
        .unwrap();
    assert_eq!(
        report,
        ExpiryReport {
            five_minute_bars: 288,
            hourly_bars: 0
        }
    );
    assert_eq!(candles("5m").await[0]["candles"], serde_json::json!([]));
    assert_eq!(candles("1h").await, hourly);
    assert_eq!(candles("1d").await, daily);

    // After 90 days the hourly bars are gone too; the daily one keeps the day's extremes.
    let report = server
        .store
        .expire_history(t0 + TimeDelta::days(92), Retention::default())
        .await
        .unwrap();
    assert_eq!(report.hourly_bars, 24);
    assert_eq!(candles("1h").await[0]["candles"], serde_json::json!([]));
    assert_eq!(candles("1d").await, daily);
    // Expiring again deletes nothing.
    let again = server
        .store
        .expire_history(t0 + TimeDelta::days(92), Retention::default())
        .await
        .unwrap();
    assert_eq!(again, ExpiryReport::default());
}

#[tokio::test]
async fn a_market_without_history_in_range_has_no_candles_and_errors_cost_nothing() {
    let server = TestServer::start().await;
    let (account, key) = server.account("pro", 10).await;
    let t0 = midnight();
    let (status, body) = server
        .get(
            &format!(
                "/api/v1/markets/{}/history?{}",
                bitcoin_id(),
                range(t0, t0 + TimeDelta::days(1))
            ),
            &key,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["outcomes"][0]["candles"], serde_json::json!([]));
    assert_eq!(body["data"]["outcomes"].as_array().unwrap().len(), 2);
    assert_eq!(body["pagination"]["total"], 0);
    // The seed's own write is the market's first observation.
    let (_, everything) = server
        .get(&format!("/api/v1/markets/{}/history", bitcoin_id()), &key)
        .await;
    assert_eq!(everything["pagination"]["total"], 1, "{everything}");
    assert_eq!(everything["data"]["outcomes"][0]["candles"][0]["close"], 0.42);

    for (path, status, code) in [
        (
            "/api/v1/markets/00000000-0000-4000-8000-000000000000/history",
            404,
            "NOT_FOUND",
        ),
        ("/api/v1/markets/not-an-id/history", 404, "NOT_FOUND"),
        (
            &*format!("/api/v1/markets/{}/history?interval=2h", bitcoin_id()),
            400,
            "INVALID_PARAMETER",
        ),
        (
            &*format!("/api/v1/markets/{}/history?from=yesterday", bitcoin_id()),
            400,
            "INVALID_PARAMETER",
        ),
        (
            &*format!("/api/v1/markets/{}/history?from=2026-03-02&to=2026-03-01", bitcoin_id()),
            400,
            "INVALID_PARAMETER",
        ),
        (
            &*format!("/api/v1/markets/{}/history?limit=1001", bitcoin_id()),
            400,
            "INVALID_PARAMETER",
        ),
        (
            &*format!("/api/v1/markets/{}/history?step=1", bitcoin_id()),
            400,
            "INVALID_PARAMETER",
        ),
    ] {
        let (got, body) = server.get(path, &key).await;
        assert_error(got, &body, status, code);
    }
    assert_eq!(server.remaining_credits(account.id).await, 10 - 2, "errors are free");
}
