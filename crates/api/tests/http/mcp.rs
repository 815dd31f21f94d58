//! `/mcp`, spoken as an MCP client speaks it over streamable HTTP (JSON-RPC in POSTs): the
//! key is checked before any exchange, the tools are the REST operations, and a tool call
//! answers and costs exactly what the same REST call does. `scripts/mcp` does the same with
//! the official Python SDK's client.

use marketlens_domain::account::{AccountStatus, LedgerKind};
use reqwest::{Method, Response};
use serde_json::{Value, json};

use crate::{TestServer, assert_error, json_of, seed};

const PROTOCOL_VERSION: &str = "2025-06-18";

/// The tools and the REST calls they make, with the same arguments.
fn calls() -> Vec<(&'static str, Value, String)> {
    let (left, _) = seed::matched_pair();
    let event = marketlens_domain::ids::event_id(marketlens_domain::Exchange::Kalshi, "KXNEWPOPE-70");
    vec![
        (
            "search_markets",
            json!({ "search": "bitcoin", "exchange": "KALSHI", "sortBy": "volume", "limit": 2 }),
            "/api/v1/markets?search=bitcoin&exchange=KALSHI&sortBy=volume&limit=2".to_owned(),
        ),
        ("get_market", json!({ "id": left }), format!("/api/v1/markets/{left}")),
        (
            "list_events",
            json!({ "category": "Culture" }),
            "/api/v1/events?category=Culture".to_owned(),
        ),
        ("get_event", json!({ "id": event }), format!("/api/v1/events/{event}")),
        (
            "explain",
            json!({ "query": "bitcoin 100k december" }),
            "/api/v1/explain?query=bitcoin%20100k%20december".to_owned(),
        ),
        (
            "market_history",
            json!({ "id": left, "interval": "1d" }),
            format!("/api/v1/markets/{left}/history?interval=1d"),
        ),
        (
            "list_spreads",
            json!({ "minSimilarity": 0.5 }),
            "/api/v1/spreads?minSimilarity=0.5".to_owned(),
        ),
        ("get_account", json!({}), "/api/v1/account".to_owned()),
    ]
}

/// POSTs one JSON-RPC message to `/mcp` as a streamable HTTP client does.
async fn post(server: &TestServer, key: Option<&str>, message: &Value) -> Response {
    server
        .request_as(Method::POST, "/mcp", key)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", PROTOCOL_VERSION)
        .json(message)
        .send()
        .await
        .unwrap()
}

/// A JSON-RPC request's result.
async fn rpc(server: &TestServer, key: &str, method: &str, params: Value) -> Value {
    let response = post(
        server,
        Some(key),
        &json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }),
    )
    .await;
    assert_eq!(response.headers()["content-type"], "application/json");
    let (status, body) = json_of(response).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["id"], 1, "{body}");
    body["result"].clone()
}

/// The handshake of a client: initialize, then the notification that it is done.
async fn initialize(server: &TestServer, key: &str) -> Value {
    let params = json!({
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": { "name": "marketlens-tests", "version": "1" },
    });
    let result = rpc(server, key, "initialize", params).await;
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    assert_eq!(post(server, Some(key), &initialized).await.status(), 202);
    result
}

async fn call_tool(server: &TestServer, key: &str, name: &str, arguments: Value) -> Value {
    rpc(
        server,
        key,
        "tools/call",
        json!({ "name": name, "arguments": arguments }),
    )
    .await
}

/// The REST call's status, credits used and body.
async fn rest(server: &TestServer, key: &str, path: &str) -> (u16, i64, Value) {
    let response = server.request_as(Method::GET, path, Some(key)).send().await.unwrap();
    let credits_used = response
        .headers()
        .get("x-credits-used")
        .map_or(0, |value| value.to_str().unwrap().parse().unwrap());
    let (status, body) = json_of(response).await;
    (status, credits_used, body)
}

/// An answer without what differs from one call to the next: timings, balances, usage.
fn steady(mut body: Value) -> Value {
    for pointer in [
        "/processingTimeMs",
        "/data/meta/timestamp",
        "/data/credits",
        "/data/rateLimit",
    ] {
        if let Some((parent, field)) = pointer.rsplit_once('/')
            && let Some(Value::Object(object)) = body.pointer_mut(parent)
        {
            object.remove(field);
        }
    }
    body
}

#[tokio::test]
async fn mcp_refuses_a_missing_or_wrong_key_before_any_exchange() {
    let server = TestServer::start().await;
    let initialize = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {} });
    let response = post(&server, None, &initialize).await;
    assert!(
        response.headers()["www-authenticate"]
            .to_str()
            .unwrap()
            .starts_with("Bearer")
    );
    let (status, body) = json_of(response).await;
    assert_error(status, &body, 401, "MISSING_API_KEY");
    let wrong = "pm_live_0000000000000000000000000000000000000000";
    let (status, body) = json_of(post(&server, Some(wrong), &initialize).await).await;
    assert_error(status, &body, 401, "INVALID_API_KEY");
    let (account, key) = server.account("free", 0).await;
    server
        .store
        .set_account_status(account.id, AccountStatus::Suspended)
        .await
        .unwrap();
    let (status, body) = json_of(post(&server, Some(key.as_str()), &initialize).await).await;
    assert_error(status, &body, 403, "ACCOUNT_SUSPENDED");
}

#[tokio::test]
async fn mcp_lists_the_tools_without_counting_or_charging() {
    let server = TestServer::start().await;
    let (account, key) = server.account("free", 10).await;
    let key = key.as_str();
    let response = post(
        &server,
        Some(key),
        &json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } }),
    )
    .await;
    assert_eq!(response.headers()["cache-control"], "private, no-store");
    assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    assert!(
        response.headers().get("mcp-session-id").is_none(),
        "stateless: no session"
    );
    let (status, body) = json_of(response).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["serverInfo"]["name"], "marketlens");
    assert!(body["result"]["capabilities"]["tools"].is_object(), "{body}");
    initialize(&server, key).await;
    let tools = rpc(&server, key, "tools/list", json!({})).await;
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = calls().iter().map(|(name, _, _)| *name).collect();
    assert_eq!(names, expected);
    let search = &tools["tools"][0];
    assert!(
        search["description"].as_str().unwrap().contains("(1 credit)"),
        "{search}"
    );
    assert_eq!(search["inputSchema"]["properties"]["limit"]["maximum"], 200, "{search}");
    assert_eq!(
        search["inputSchema"]["properties"]["exchange"]["enum"],
        json!(["POLYMARKET", "KALSHI"])
    );
    assert_eq!(tools["tools"][1]["inputSchema"]["required"], json!(["id"]));
    // Neither the handshake nor the list was a call: nothing charged, nothing counted.
    assert_eq!(server.remaining_credits(account.id).await, 10);
    let (_, _, account_body) = rest(&server, key, "/api/v1/account").await;
    assert_eq!(account_body["data"]["rateLimit"]["currentUsage"], 1, "{account_body}");
}

#[tokio::test]
async fn each_tool_answers_and_costs_what_its_rest_call_does() {
    let server = TestServer::start().await;
    let (account, key) = server.account("enterprise", 1_000).await;
    let key = key.as_str();
    initialize(&server, key).await;
    let mut rest_credits = 0;
    for (name, arguments, path) in calls() {
        let before = server.remaining_credits(account.id).await;
        let result = call_tool(&server, key, name, arguments).await;
        let mcp_cost = before - server.remaining_credits(account.id).await;
        let (status, rest_cost, rest_body) = rest(&server, key, &path).await;
        assert_eq!(status, 200, "{path}: {rest_body}");
        assert_eq!(result["isError"], false, "{name}: {result}");
        assert_eq!(mcp_cost, rest_cost, "{name} costs what {path} does");
        // A free call's answer, like its REST answer, names no credits.
        let credits_used = result["_meta"]["creditsUsed"].as_i64().unwrap_or(0);
        assert_eq!(credits_used, rest_cost, "{name}: {result}");
        assert_eq!(
            steady(result["structuredContent"].clone()),
            steady(rest_body.clone()),
            "{name}"
        );
        let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(text, result["structuredContent"], "{name}");
        rest_credits += rest_cost;
    }
    // The contract's prices: 1 a call, explain 5, the account free.
    assert_eq!(rest_credits, 1 + 1 + 1 + 1 + 5 + 1 + 1);
    assert_eq!(server.remaining_credits(account.id).await, 1_000 - 2 * rest_credits);
}

#[tokio::test]
async fn a_rest_error_is_a_tool_error_and_costs_nothing() {
    let server = TestServer::start().await;
    let (account, key) = server.account("free", 3).await;
    let key = key.as_str();
    initialize(&server, key).await;
    let unknown = uuid::Uuid::new_v4();
    let cases = [
        ("get_market", json!({ "id": unknown }), 404, "NOT_FOUND"),
        ("get_event", json!({ "id": "not a uuid" }), 404, "NOT_FOUND"),
        ("search_markets", json!({ "limit": 1000 }), 400, "INVALID_PARAMETER"),
        ("search_markets", json!({ "color": "red" }), 400, "INVALID_PARAMETER"),
        ("explain", json!({ "query": "  " }), 400, "MISSING_QUERY"),
        ("explain", json!({ "query": "bitcoin" }), 402, "INSUFFICIENT_CREDITS"),
    ];
    for (name, arguments, status, code) in cases {
        let result = call_tool(&server, key, name, arguments).await;
        assert_eq!(result["isError"], true, "{name}: {result}");
        assert_error(status, &result["structuredContent"], status, code);
        assert!(result.get("_meta").is_none(), "{result}");
    }
    assert_eq!(server.remaining_credits(account.id).await, 3);
    // A call with no arguments where a path argument is required is the client's mistake.
    let response = post(
        &server,
        Some(key),
        &json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": { "name": "get_market", "arguments": {} } }),
    )
    .await;
    let (status, body) = json_of(response).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["error"]["code"], -32602, "{body}");
}

#[tokio::test]
async fn a_tool_calls_ledger_line_carries_the_mcp_requests_id() {
    let server = TestServer::start().await;
    let (account, key) = server.account("free", 10).await;
    initialize(&server, key.as_str()).await;
    let message = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "search_markets", "arguments": { "limit": 1 } } });
    let response = post(&server, Some(key.as_str()), &message).await;
    let request_id = response.headers()["x-server-request-id"].to_str().unwrap().to_owned();
    assert_eq!(response.status(), 200);
    let ledger = server.store.ledger(account.id, None, 10).await.unwrap();
    let charges: Vec<_> = ledger.iter().filter(|entry| entry.kind == LedgerKind::Charge).collect();
    assert_eq!(charges.len(), 1);
    assert_eq!(charges[0].request_id.as_deref(), Some(request_id.as_str()));
}

#[tokio::test]
async fn mcp_transport_refusals_have_the_apis_error_shape() {
    let server = TestServer::start().await;
    let key = server.key().await;
    // Stateless: there is no event stream to GET.
    let response = server
        .request(Method::GET, "/mcp", Some(&key))
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(response).await;
    assert_error(status, &body, 405, "METHOD_NOT_ALLOWED");
    let too_large = json!({ "jsonrpc": "2.0", "id": 1, "method": "ping", "params": { "padding": "x".repeat(20_000) } });
    let (status, body) = json_of(post(&server, Some(key.as_str()), &too_large).await).await;
    assert_error(status, &body, 413, "PAYLOAD_TOO_LARGE");
}
