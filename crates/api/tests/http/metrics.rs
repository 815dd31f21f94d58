//! `GET /metrics`: Prometheus text with requests by route and status, latency, credits by
//! operation, rate-limit refusals and the store's state; routes by template, never by the
//! path a client sent.

use reqwest::Method;

use crate::{TestServer, settings_with_tiers, stay_within_one_minute};

pub(crate) async fn scrape(server: &TestServer) -> String {
    let response = server.request(Method::GET, "/metrics", None).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain"),
        "{:?}",
        response.headers()
    );
    response.text().await.unwrap()
}

/// The value of the series whose line starts with `name{` and has every label of `labels`.
fn value(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|line| line.starts_with(&format!("{name}{{")) || line.starts_with(&format!("{name} ")))
        .filter(|line| labels.iter().all(|label| line.contains(label)))
        .map(|line| line.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
        .reduce(f64::max)
}

#[tokio::test]
async fn metrics_count_requests_credits_refusals_and_the_store() {
    let server = TestServer::start_with(settings_with_tiers("tiny=2")).await;
    let key = server.key().await;
    let (_, limited) = server.account("tiny", 100).await;
    let before = scrape(&server).await;
    let count = |text: &str, labels: &[&str]| value(text, "marketlens_http_requests_total", labels).unwrap_or(0.0);
    let list_ok = [r#"route="/api/v1/markets""#, r#"status="200""#, r#"method="GET""#];
    let get_missing = [r#"route="/api/v1/markets/{id}""#, r#"status="404""#];
    let credits = |text: &str| {
        value(
            text,
            "marketlens_credits_charged_total",
            &[r#"operation="listMarkets""#],
        )
        .unwrap_or(0.0)
    };
    let refusals = |text: &str| value(text, "marketlens_rate_limit_refusals_total", &[r#"tier="tiny""#]).unwrap_or(0.0);

    for _ in 0..3 {
        assert_eq!(server.get("/api/v1/markets", &key).await.0, 200);
    }
    let (status, _) = server
        .get("/api/v1/markets/00000000-0000-4000-8000-000000000000", &key)
        .await;
    assert_eq!(status, 404);
    stay_within_one_minute().await;
    for _ in 0..3 {
        server.get("/api/v1/account", &limited).await;
    }
    let hostile = "/no/such/path/7f3e9c1d";
    server.request(Method::GET, hostile, None).send().await.unwrap();

    let after = scrape(&server).await;
    // Other tests in this process share the recorder: compare, never expect exact totals.
    assert!(count(&after, &list_ok) >= count(&before, &list_ok) + 3.0, "{after}");
    assert!(
        count(&after, &get_missing) >= count(&before, &get_missing) + 1.0,
        "{after}"
    );
    assert!(credits(&after) >= credits(&before) + 3.0, "{after}");
    assert!(refusals(&after) >= refusals(&before) + 1.0, "{after}");
    assert!(
        value(
            &after,
            "marketlens_http_request_duration_seconds_count",
            &[r#"route="/api/v1/markets""#]
        )
        .unwrap()
            >= 3.0
    );
    assert!(
        after.contains(
            r#"marketlens_http_request_duration_seconds_bucket{route="/api/v1/markets",method="GET",le="0.005"}"#
        ),
        "{after}"
    );
    assert!(!after.contains("7f3e9c1d"), "a client's path became a label");
    assert!(
        value(
            &after,
            "marketlens_http_requests_total",
            &[r#"route="unmatched""#, r#"status="404""#]
        )
        .unwrap()
            >= 1.0
    );
    assert!(
        value(&after, "marketlens_store_markets", &[r#"exchange="POLYMARKET""#]).unwrap() > 0.0,
        "{after}"
    );
    assert!(value(&after, "marketlens_store_events", &[]).unwrap() > 0.0, "{after}");
    assert!(!after.contains(key.as_str()), "a key is in the metrics");
}
