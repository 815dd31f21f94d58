//! `GET /metrics` in Prometheus text format, with the `metrics` facade and its Prometheus
//! exporter. Counters and histograms are recorded where things happen (requests here,
//! credits in [`crate::billing`], refusals in [`crate::auth`], sync runs by the sync loops);
//! what the store knows (how much it holds, how old each exchange's data is) is read at scrape
//! time, so that every node reports the shared store's state, whichever node synced.
//!
//! Labels are bounded: a route is its template (`/api/v1/markets/{id}`), never the path a
//! client sent, and unknown paths share one label; a method is one of HTTP's nine, any other
//! token (HTTP allows any) is `other`. So hostile paths and methods cannot grow the series.

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use marketlens_domain::Exchange;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::breaker::Trouble;
use crate::error::ApiError;
use crate::state::AppState;

const REQUEST_DURATION: &str = "marketlens_http_request_duration_seconds";

/// The process's recorder, installed by [`crate::app`] before anything is recorded (tests
/// start many servers in one process; they share it).
pub fn install() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full(REQUEST_DURATION.to_owned()),
                &[
                    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
                ],
            )
            .expect("the buckets are not empty")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("another metrics recorder is installed; /metrics reports only what reaches this one");
        }
        handle
    })
}

/// Counts each request by route, method and status, and times it.
pub async fn track(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |path| path.as_str().to_owned());
    let method = method_label(request.method());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::histogram!(REQUEST_DURATION, "route" => route.clone(), "method" => method)
        .record(started.elapsed().as_secs_f64());
    metrics::counter!("marketlens_http_requests_total", "route" => route, "method" => method, "status" => status)
        .increment(1);
    response
}

/// The method's label: a standard method's name, else `other`, since a client may send any token
/// as a method, before authentication.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "other",
    }
}

/// Counters, histograms and the store's state in Prometheus text format. No key needed: it
/// names no account, key or client, only routes, operations, tiers and exchanges.
#[utoipa::path(
    get,
    path = "/metrics",
    operation_id = "getMetrics",
    tag = "operations",
    responses(
        (status = 200, description = "Prometheus text format (version 0.0.4).", content_type = "text/plain", body = String),
        (status = 503, description = "The store does not answer (`SERVICE_UNAVAILABLE`).", body = crate::error::ErrorBody),
    )
)]
pub async fn render(State(state): State<AppState>) -> Result<Response, ApiError> {
    let handle = install();
    record_store_state(&state).await?;
    handle.run_upkeep();
    Ok((
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        handle.render(),
    )
        .into_response())
}

/// The gauges read from the store, and the node's own. While the store is known to be away
/// the store's gauges keep their last values, so that `/metrics` still answers at once.
async fn record_store_state(state: &AppState) -> Result<(), ApiError> {
    let limiter = state.rate_limiter.health();
    metrics::gauge!("marketlens_rate_limiter_degraded").set(if limiter.degraded.is_some() { 1.0 } else { 0.0 });
    let trouble = state.store_health.tripped().map(|tripped| tripped.trouble);
    for kind in [Trouble::Down, Trouble::ReadOnly, Trouble::Slow] {
        metrics::gauge!("marketlens_store_trouble", "trouble" => kind.as_str()).set(if trouble == Some(kind) {
            1.0
        } else {
            0.0
        });
    }
    if state.store_health.check().is_err() {
        return Ok(());
    }
    let counts = state.store.catalog_counts().await?;
    metrics::gauge!("marketlens_store_markets", "exchange" => Exchange::Polymarket.as_str())
        .set(counts.polymarket_markets as f64);
    metrics::gauge!("marketlens_store_markets", "exchange" => Exchange::Kalshi.as_str())
        .set(counts.kalshi_markets as f64);
    metrics::gauge!("marketlens_store_events").set(counts.events as f64);
    metrics::gauge!("marketlens_store_matched_pairs").set(counts.match_pairs as f64);
    metrics::gauge!("marketlens_news_articles_in_memory").set(state.news.article_count() as f64);
    let catalog = state.catalog.status();
    metrics::gauge!("marketlens_catalog_markets_in_memory").set(catalog.markets as f64);
    if let Some(age) = catalog.age {
        metrics::gauge!("marketlens_catalog_age_seconds").set(age.as_secs_f64());
    }
    let now = Utc::now();
    for exchange in Exchange::ALL {
        let status = state.store.sync_status(exchange).await?;
        if let Some(success) = &status.latest_success {
            let age = (now - success.finished_at).num_milliseconds().max(0) as f64 / 1000.0;
            metrics::gauge!("marketlens_sync_last_success_age_seconds", "exchange" => exchange.as_str()).set(age);
        }
        if let Some(latest) = &status.latest {
            metrics::gauge!("marketlens_sync_last_run_succeeded", "exchange" => exchange.as_str())
                .set(if latest.succeeded { 1.0 } else { 0.0 });
        }
    }
    Ok(())
}
