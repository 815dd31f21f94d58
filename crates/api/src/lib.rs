//! The Marketlens HTTP API: `docs/contract/interface.md` over `axum`, with the choices of `docs/contract/decisions.md`.
//!
//! - [`app`] builds the whole application from an [`AppState`]; tests call it too.
//! - [`serve`] runs it on a listener until a shutdown signal, finishing requests in flight.
//!
//! A request passes, outermost first: request id ([`request_id`]), error rendering
//! ([`error::render_errors`]), tracing, panic catching, the backstop timeout, the request's
//! deadline ([`deadline`], which bounds everything after it, the charge included) and the body
//! limit; then, on `/api/v1` routes, the store's health ([`store_health`]: refused at once
//! while the store is away), authentication ([`auth`], through [`key_cache`], with failures limited
//! per address by [`failed_auth`]) and the rate limit ([`rate_limit`]); on charged routes,
//! idempotency keys ([`idempotency`]); then the handler, which parses its parameters ([`params`]) and runs its
//! work as a charged call ([`billing`]). Responses are built from [`views`], the contract's JSON shapes.
//! `/mcp` ([`mcp`]) serves the same keyed routes to AI agents as MCP tools. `/api/v1/stream`
//! ([`stream`]) upgrades to a WebSocket of live market data, authenticated and charged by the
//! same code, its minutes charged as they start.

pub mod admin_token;
pub mod auth;
pub mod billing;
pub mod breaker;
mod cache_control;
pub mod connections;
pub mod deadline;
pub mod error;
pub mod failed_auth;
pub mod freshness;
pub mod idempotency;
pub mod key_cache;
mod list_page;
mod mcp;
pub mod openapi;
pub mod params;
pub mod rate_limit;
pub mod reference;
pub mod request_id;
mod routes;
pub mod schemas;
pub mod state;
pub mod store_health;
pub mod stream;
pub mod sweep;
pub mod telemetry;
pub mod views;

use axum::http::{HeaderValue, Request, StatusCode, header};
use axum::middleware;
use axum::routing::get;
use axum::{Extension, Router};
use std::future::Future;
use tokio::net::TcpListener;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa_axum::router::OpenApiRouter;

pub use routes::admin::{AdminAccount, AdminKey};
pub use state::{ApiSettings, AppState};

/// The largest request body accepted (`docs/contract/decisions.md#d2-codes`).
pub const MAX_BODY_BYTES: usize = 16 * 1024;

pub fn app(state: AppState) -> Router {
    telemetry::install();
    let backstop = state.settings.request_timeout + state::REQUEST_TIMEOUT_MARGIN;
    let bounded = middleware::from_fn_with_state(state.clone(), deadline::bound);
    router(state).layer(
        ServiceBuilder::new()
            .layer(middleware::from_fn(request_id::assign_request_id))
            // Every answer, JSON or page: not to be sniffed as another type, nor framed.
            .layer(SetResponseHeaderLayer::overriding(
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ))
            .layer(SetResponseHeaderLayer::if_not_present(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("frame-ancestors 'none'"),
            ))
            .layer(middleware::from_fn(error::render_errors))
            .layer(TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
                let extensions = request.extensions();
                let request_id = extensions
                    .get::<request_id::RequestId>()
                    .map(|id| id.0.as_str())
                    .unwrap_or_default();
                let client_request_id = extensions.get::<request_id::ClientRequestId>().map(|id| id.0.as_str());
                // The path only: query strings and headers (keys) stay out of the logs.
                tracing::info_span!(
                    "request",
                    method = %request.method(),
                    path = %request.uri().path(),
                    request_id,
                    client_request_id
                )
            }))
            .layer(CatchPanicLayer::new())
            // Only cuts a request whose charge's commit never got an answer (see `deadline`).
            .layer(TimeoutLayer::with_status_code(
                StatusCode::SERVICE_UNAVAILABLE,
                backstop,
            ))
            .layer(bounded)
            .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES)),
    )
}

/// Every route, with the middleware each group needs. The routes come with their
/// documentation ([`routes::keyed`], [`routes::operations`], the admin API's); the document
/// itself is [`openapi::document`]'s, which lists the admin API whether or not it is served.
fn router(state: AppState) -> Router {
    let mut documented = OpenApiRouter::new()
        .merge(keyed(&state))
        .merge(routes::stream::router().route_layer(cache_control::no_store()))
        .merge(routes::operations());
    // Without an admin token the admin API's paths do not exist (404).
    if state.settings.admin_token.is_some() {
        documented = documented.merge(
            routes::admin::router()
                .route_layer(middleware::from_fn_with_state(state.clone(), routes::admin::authorize))
                .route_layer(cache_control::no_store()),
        );
    }
    let (router, _document) = documented.split_for_parts();
    let router = router.merge(reference::router()).merge(agents(&state));
    let router = if state.settings.benchmark {
        router.route("/benchmark/ceiling", get(routes::benchmark::ceiling))
    } else {
        router
    };
    router
        .fallback(|| async { error::ApiError::not_found("No such path.") })
        .method_not_allowed_fallback(|| async { error::ApiError::MethodNotAllowed })
        .layer(Extension(routes::document::Document(openapi::document_json())))
        .layer(middleware::from_fn(telemetry::track))
        .with_state(state)
}

/// The keyed routes of `/api/v1`, behind authentication and the rate limit; the charged ones
/// also honour idempotency keys.
fn keyed(state: &AppState) -> OpenApiRouter<AppState> {
    routes::charged()
        .route_layer(middleware::from_fn_with_state(state.clone(), idempotency::layer))
        .merge(routes::free())
        .route_layer(middleware::from_fn_with_state(state.clone(), auth::authenticate))
        .route_layer(cache_control::no_store())
}

/// `/mcp`, behind the key check alone; its tools call [`keyed`] routes of their own, whose
/// errors they read rendered.
fn agents(state: &AppState) -> Router<AppState> {
    let (rest, _document) = keyed(state).split_for_parts();
    let rest = rest
        .layer(middleware::from_fn(error::render_errors))
        .with_state(state.clone());
    mcp::router(rest)
        .route_layer(middleware::from_fn_with_state(state.clone(), auth::require_key))
        .route_layer(cache_control::no_store())
}

/// Serves `app` on `listener` with the default [`connections::ConnectionLimits`] until
/// `shutdown` completes, then lets requests in flight finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    connections::serve(listener, app, shutdown, connections::ConnectionLimits::default()).await
}
