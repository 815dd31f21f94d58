//! `/mcp`: the API for AI agents, as an MCP (Model Context Protocol) server over streamable
//! HTTP, built with the protocol's official Rust SDK (`rmcp`), so that an agent's MCP client
//! finds the tools, their arguments and their costs by itself.
//!
//! Each tool is one operation of `/api/v1` ([`tools`]), and a call of it is that operation's
//! REST request, sent in process through the keyed routes [`crate::app`] serves, with the MCP
//! request's own `Authorization` header ([`server`]). So a tool call is authenticated,
//! counted against the rate limit, checked and charged exactly as the REST call is, by the
//! same code, and answers the same JSON: as the tool's structured result, or, for an error,
//! the error body as an error result. No second copy of any of it exists here.
//!
//! `/mcp` itself takes a key (`auth::require_key`, layered in [`crate::app`]): a missing or
//! wrong one is refused with the API's 401 before any MCP exchange. That check counts nothing
//! against the rate limit and charges nothing, since initializing and listing the tools do no
//! paid work; the tool calls' REST requests count and charge, once each.
//!
//! Stateless: the server keeps no MCP session between HTTP requests, and answers each with
//! one JSON body rather than an event stream. Any node of several behind a load balancer can
//! then answer any request, as for REST, and nothing is held open: the tools never change and
//! a call is one short request.

mod server;
mod tools;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::http::request::Parts;
use axum::http::{Request, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;

use crate::error::ProtocolErrorBody;
use crate::state::AppState;

/// Where the MCP server answers.
const PATH: &str = "/mcp";

type McpService = StreamableHttpService<server::Marketlens, NeverSessionManager>;

/// The `/mcp` route, calling the tools' operations through `rest` (the keyed routes with
/// their middleware and state).
pub(crate) fn router(rest: Router) -> Router<AppState> {
    let tools = Arc::new(tools::Tools::from_document(crate::openapi::document_value()));
    let handler = server::Marketlens::new(tools, rest);
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_max_request_body_bytes(crate::MAX_BODY_BYTES)
        // rmcp accepts only loopback `Host`s by default, against DNS rebinding of a local
        // server without credentials; this one is public and every request needs a key.
        .disable_allowed_hosts();
    let service: McpService = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    Router::new().route(
        PATH,
        any(move |parts: Parts, body: Result<Bytes, BytesRejection>| answer(service.clone(), parts, body)),
    )
}

/// Hands the request to rmcp with its body read in full first, so that a body over the API's
/// limit is refused as any other (413 `PAYLOAD_TOO_LARGE`) however it was sent.
async fn answer(service: McpService, parts: Parts, body: Result<Bytes, BytesRejection>) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejection) => return rejection.into_response(),
    };
    let mut response = service
        .handle(Request::from_parts(parts, Body::from(body)))
        .await
        .map(Body::new);
    // rmcp's plain-text refusals (a wrong method, a missing `Accept`) become the API's error
    // JSON; its JSON-RPC errors are for the MCP client and stay as they are.
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"));
    if is_json {
        response.extensions_mut().insert(ProtocolErrorBody);
    }
    response
}
