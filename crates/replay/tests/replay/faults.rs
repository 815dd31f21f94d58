//! Each fault spoils exactly one request; the next is served normally.

use marketlens_replay::{Fault, MALFORMED_BODY, ReplayServer};
use reqwest::header::RETRY_AFTER;
use reqwest::{Client, StatusCode};
use serde_json::Value;
use std::time::{Duration, Instant};

use crate::{Endpoint, get_ok, recorded};

/// A small first page of Gamma events (its body a few hundred kilobytes at most).
fn page_url(server: &ReplayServer) -> String {
    format!("{}?limit=2", Endpoint::GammaEvents.url(server))
}

async fn assert_next_is_normal(client: &Client, url: &str) {
    let page = get_ok(client, url).await;
    assert_eq!(page["events"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn too_many_requests_carries_retry_after_only_when_given() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    let url = page_url(&server);
    for retry_after_secs in [Some(7), None] {
        server.inject(Fault::TooManyRequests { retry_after_secs });
        let response = client.get(&url).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .map(|value| value.to_str().unwrap().to_owned());
        assert_eq!(retry_after, retry_after_secs.map(|seconds| seconds.to_string()));
        assert_next_is_normal(&client, &url).await;
    }
}

#[tokio::test]
async fn server_error_is_a_500() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    let url = page_url(&server);
    server.inject(Fault::ServerError);
    let response = client.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_next_is_normal(&client, &url).await;
}

#[tokio::test]
async fn slow_answers_normally_after_the_delay() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    let url = page_url(&server);
    let delay = Duration::from_millis(300);
    server.inject(Fault::Slow(delay));
    let started = Instant::now();
    let page = get_ok(&client, &url).await;
    assert!(started.elapsed() >= delay);
    assert_eq!(page["events"].as_array().unwrap().len(), 2);

    // A client with a shorter timeout gives up; the server is fine afterwards.
    server.inject(Fault::Slow(delay));
    let impatient = Client::builder().timeout(Duration::from_millis(50)).build().unwrap();
    assert!(impatient.get(&url).send().await.unwrap_err().is_timeout());
    assert_next_is_normal(&client, &url).await;
}

#[tokio::test]
async fn truncated_is_half_the_normal_body() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    let url = page_url(&server);
    let normal = client.get(&url).send().await.unwrap().bytes().await.unwrap();

    server.inject(Fault::Truncated);
    let response = client.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let truncated = response.bytes().await.unwrap();
    assert_eq!(truncated.len(), normal.len() / 2);
    assert_eq!(truncated[..], normal[..normal.len() / 2]);
    assert!(serde_json::from_slice::<Value>(&truncated).is_err());
    assert_next_is_normal(&client, &url).await;
}

#[tokio::test]
async fn malformed_is_a_200_that_is_not_json() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    let url = page_url(&server);
    server.inject(Fault::Malformed);
    let response = client.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body = response.text().await.unwrap();
    assert_eq!(body, MALFORMED_BODY);
    assert!(serde_json::from_str::<Value>(&body).is_err());
    assert_next_is_normal(&client, &url).await;
}

#[tokio::test]
async fn faults_apply_in_order_and_targeted_ones_wait_for_their_path() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    let gamma_events = page_url(&server);
    let kalshi_markets = format!("{}?limit=1", Endpoint::KalshiMarkets.url(&server));

    server.inject_on("/events/keyset", Fault::ServerError);
    server.inject(Fault::TooManyRequests { retry_after_secs: None });
    server.inject(Fault::Malformed);

    let status = |url: String| {
        let client = client.clone();
        async move { client.get(&url).send().await.unwrap().status() }
    };
    // The targeted fault does not apply to Kalshi: the oldest that does is the 429.
    assert_eq!(status(kalshi_markets.clone()).await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(status(gamma_events.clone()).await, StatusCode::INTERNAL_SERVER_ERROR);
    let malformed = client.get(&kalshi_markets).send().await.unwrap().text().await.unwrap();
    assert_eq!(malformed, MALFORMED_BODY);
    get_ok(&client, &kalshi_markets).await;
    assert_next_is_normal(&client, &gamma_events).await;

    // "/events" does not match "/events/keyset"'s requests, only Kalshi's "/events".
    server.inject_on("/trade-api/v2/events", Fault::ServerError);
    assert_next_is_normal(&client, &gamma_events).await;
    assert_eq!(
        status(Endpoint::KalshiEvents.url(&server)).await,
        StatusCode::INTERNAL_SERVER_ERROR
    );
}

#[tokio::test]
async fn every_request_is_recorded_with_its_query() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    server.inject(Fault::ServerError);
    client.get(page_url(&server)).send().await.unwrap();
    client.get(Endpoint::KalshiMarkets.url(&server)).send().await.unwrap();
    client
        .get(format!("{}?id=1&id=2", Endpoint::GammaMarkets.url(&server)))
        .send()
        .await
        .unwrap();
    assert_eq!(
        server.requests(),
        [
            ("/polymarket/events/keyset".to_owned(), "limit=2".to_owned()),
            ("/kalshi/trade-api/v2/markets".to_owned(), String::new()),
            ("/polymarket/markets/keyset".to_owned(), "id=1&id=2".to_owned()),
        ]
    );
}
