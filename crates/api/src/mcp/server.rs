//! The MCP server's handler: the tool list, and each tool call made as its REST request
//! through the keyed routes, in process, with the MCP request's own credential.

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use axum::http::request::Parts;
use axum::http::{Method, header};
use axum::response::Response;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult, MetaObject,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use tower::ServiceExt;

use super::tools::Tools;
use crate::deadline::Deadline;
use crate::request_id::{ClientRequestId, ReceivedAt, RequestId};

const INSTRUCTIONS: &str = "Prediction markets of Polymarket and Kalshi: search markets, get one with the \
markets of the other exchange that ask the same question, events, spreads between matched markets, price \
history, and explanations from recent news. Each tool is a call of the Marketlens REST API, charged the same \
credits against your API key's account (each tool's description gives its cost) and counted against the same \
requests-per-minute limit; get_account is free and shows the balance.";

/// The response headers of a charged REST answer that a tool result carries in its `_meta`.
const RECEIPT_HEADERS: [(&str, &str); 2] = [
    ("x-credits-used", "creditsUsed"),
    ("x-credits-remaining", "creditsRemaining"),
];

#[derive(Clone)]
pub(crate) struct Marketlens {
    tools: Arc<Tools>,
    /// The keyed routes of `/api/v1` with authentication, the rate limit and error rendering,
    /// as [`crate::app`] serves them.
    rest: Router,
}

impl Marketlens {
    pub fn new(tools: Arc<Tools>, rest: Router) -> Marketlens {
        Marketlens { tools, rest }
    }
}

impl ServerHandler for Marketlens {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("marketlens", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.list()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.get(name).map(|rest_tool| rest_tool.tool.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let rest_tool = self
            .tools
            .get(&request.name)
            .ok_or_else(|| ErrorData::invalid_params(format!("There is no tool {:?}.", request.name), None))?;
        let path_and_query = rest_tool.path_and_query(&request.arguments.unwrap_or_default())?;
        let parts = context.extensions.get::<Parts>().ok_or_else(|| {
            tracing::error!("an MCP request reached a tool without its HTTP request");
            ErrorData::internal_error("The tool call could not be made.", None)
        })?;
        let rest_request = rest_request(parts, &path_and_query)?;
        let response = self
            .rest
            .clone()
            .oneshot(rest_request)
            .await
            .unwrap_or_else(|never| match never {});
        Ok(tool_result(response).await?.into())
    }
}

/// The REST request of a tool call: a GET of `path_and_query` with the MCP request's
/// `Authorization` header, and its request id, arrival time, peer address and deadline, so
/// that the ledger line, explain's timing, the limit on failed authentications and the timeout
/// see the one request the client sent.
fn rest_request(parts: &Parts, path_and_query: &str) -> Result<Request, ErrorData> {
    let mut builder = axum::http::Request::builder().method(Method::GET).uri(path_and_query);
    for value in parts.headers.get_all(header::AUTHORIZATION) {
        builder = builder.header(header::AUTHORIZATION, value);
    }
    let mut request = builder
        .body(Body::empty())
        .map_err(|error| ErrorData::invalid_params(format!("The arguments make no valid request: {error}."), None))?;
    let extensions = request.extensions_mut();
    if let Some(id) = parts.extensions.get::<RequestId>() {
        extensions.insert(id.clone());
    }
    if let Some(id) = parts.extensions.get::<ClientRequestId>() {
        extensions.insert(id.clone());
    }
    if let Some(received_at) = parts.extensions.get::<ReceivedAt>() {
        extensions.insert(*received_at);
    }
    if let Some(peer) = parts.extensions.get::<ConnectInfo<SocketAddr>>() {
        extensions.insert(*peer);
    }
    // The tool call's charge passes the `/mcp` request's own deadline gate.
    if let Some(deadline) = parts.extensions.get::<Deadline>() {
        extensions.insert(deadline.clone());
    }
    Ok(request)
}

/// The REST answer as a tool result: its JSON as the structured content (and as text), an
/// error answer as an error result, and what the call cost in `_meta`.
async fn tool_result(response: Response) -> Result<CallToolResult, ErrorData> {
    let unreadable = |error: String| {
        tracing::error!(%error, "a REST answer to a tool call could not be read");
        ErrorData::internal_error("The tool's answer could not be read.", None)
    };
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .map_err(|error| unreadable(error.to_string()))?;
    let body: Value = serde_json::from_slice(&bytes).map_err(|error| unreadable(error.to_string()))?;
    let result = if parts.status.is_success() {
        CallToolResult::structured(body)
    } else {
        CallToolResult::structured_error(body)
    };
    let mut receipt = MetaObject::new();
    for (header_name, field) in RECEIPT_HEADERS {
        let value = parts.headers.get(header_name).and_then(|value| value.to_str().ok());
        if let Some(credits) = value.and_then(|value| value.parse::<i64>().ok()) {
            receipt.0.insert(field.to_owned(), credits.into());
        }
    }
    Ok(if receipt.0.is_empty() {
        result
    } else {
        result.with_meta(Some(receipt))
    })
}
