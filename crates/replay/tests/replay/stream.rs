//! The WebSocket streams spoken to with a bare client: the replies each exchange gives, as the
//! connectors (tested in `crates/connectors/tests/live/`) rely on them.

use futures::{SinkExt, StreamExt};
use marketlens_domain::Exchange;
use marketlens_replay::{ReplayData, ReplayServer};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn kalshi(server: &ReplayServer) -> Socket {
    let mut request = server.kalshi_ws_url().into_client_request().unwrap();
    for name in [
        "KALSHI-ACCESS-KEY",
        "KALSHI-ACCESS-SIGNATURE",
        "KALSHI-ACCESS-TIMESTAMP",
    ] {
        request.headers_mut().insert(name, "x".parse().unwrap());
    }
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

/// The next text frame, read as JSON unless it is plain text.
async fn next(socket: &mut Socket) -> Value {
    loop {
        match socket.next().await.unwrap().unwrap() {
            Message::Text(text) => {
                return serde_json::from_str(&text).unwrap_or_else(|_| Value::String(text.to_string()));
            }
            _ => continue,
        }
    }
}

#[tokio::test]
async fn kalshi_refuses_an_unsigned_handshake() {
    let server = ReplayServer::start(ReplayData::default());
    let refused = tokio_tungstenite::connect_async(server.kalshi_ws_url())
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("401"), "{refused}");
    assert_eq!(server.stream_connections(Exchange::Kalshi), 0);
}

#[tokio::test]
async fn kalshi_answers_a_subscription_with_sids_a_snapshot_and_numbered_deltas() {
    let server = ReplayServer::start(ReplayData::default());
    server.set_stream_speed(f64::INFINITY);
    let mut socket = kalshi(&server).await;
    let ticker = "KXMLBGAME-26AUG071940MINMIL-MIN";
    let subscribe =
        json!({"id": 1, "cmd": "subscribe", "params": {"channels": ["orderbook_delta"], "market_tickers": [ticker]}});
    socket.send(Message::text(subscribe.to_string())).await.unwrap();
    assert_eq!(
        next(&mut socket).await,
        json!({"id": 1, "type": "subscribed", "msg": {"channel": "orderbook_delta", "sid": 1}})
    );
    let snapshot = next(&mut socket).await;
    assert_eq!(
        (
            snapshot["type"].as_str(),
            snapshot["sid"].as_u64(),
            snapshot["seq"].as_u64()
        ),
        (Some("orderbook_snapshot"), Some(1), Some(1))
    );
    assert_eq!(snapshot["msg"]["yes_dollars_fp"].as_array().unwrap().len(), 37);
    // The market's one recorded delta.
    let delta = next(&mut socket).await;
    assert_eq!(
        (delta["type"].as_str(), delta["seq"].as_u64()),
        (Some("orderbook_delta"), Some(2))
    );
    assert_eq!(delta["msg"]["market_ticker"], ticker);

    let update = json!({"id": 2, "cmd": "update_subscription", "params": {"sids": [1], "market_tickers": [ticker], "action": "delete_markets"}});
    socket.send(Message::text(update.to_string())).await.unwrap();
    assert_eq!(
        next(&mut socket).await,
        json!({"id": 2, "sid": 1, "seq": 3, "type": "ok", "msg": {"market_tickers": []}})
    );
    socket
        .send(Message::text(
            json!({"id": 3, "cmd": "unsubscribe", "params": {"sids": [1]}}).to_string(),
        ))
        .await
        .unwrap();
    assert_eq!(
        next(&mut socket).await,
        json!({"id": 3, "sid": 1, "seq": 4, "type": "unsubscribed"})
    );
    socket
        .send(Message::text(json!({"id": 4, "cmd": "list_everything"}).to_string()))
        .await
        .unwrap();
    assert_eq!(
        next(&mut socket).await,
        json!({"id": 4, "type": "error", "msg": {"code": 5, "msg": "Unknown command"}})
    );
    assert_eq!(server.stream_messages(Exchange::Kalshi).len(), 4);
}

#[tokio::test]
async fn polymarket_answers_a_subscription_with_a_book_per_token_and_ping_with_pong() {
    let server = ReplayServer::start(ReplayData::default());
    let (mut socket, _) = tokio_tungstenite::connect_async(server.polymarket_ws_url())
        .await
        .unwrap();
    let token = "71478852790279095447182996049071040792010759617668969799049179229104800573786";
    let subscribe = json!({"assets_ids": [token, "unknown-token"], "type": "market"});
    socket.send(Message::text(subscribe.to_string())).await.unwrap();
    let recorded = next(&mut socket).await;
    assert_eq!(
        (recorded["event_type"].as_str(), recorded["asset_id"].as_str()),
        (Some("book"), Some(token))
    );
    assert_eq!(recorded["bids"].as_array().unwrap().len(), 77);
    // The unknown token gets no book at all: the next frames are the token's events and PONG.
    socket.send(Message::text("PING")).await.unwrap();
    // The written legacy price change of the token may come first (speed 1: 66 ms after its book).
    let mut replies = [next(&mut socket).await, next(&mut socket).await];
    replies.sort_by_key(Value::is_string);
    assert_eq!(replies[0]["event_type"], "price_change");
    assert_eq!(replies[1], "PONG");
}

#[tokio::test]
async fn a_server_told_to_stop_recording_keeps_no_record_of_its_clients() {
    let server = ReplayServer::start(ReplayData::default());
    let unknown = |id: u64| Message::text(json!({"id": id, "cmd": "list_everything"}).to_string());
    let mut recorded = kalshi(&server).await;
    recorded.send(unknown(1)).await.unwrap();
    assert_eq!(next(&mut recorded).await["type"], "error");
    server.stop_recording_clients();
    recorded.send(unknown(2)).await.unwrap();
    assert_eq!(next(&mut recorded).await["type"], "error");
    let mut unrecorded = kalshi(&server).await;
    unrecorded.send(unknown(1)).await.unwrap();
    assert_eq!(next(&mut unrecorded).await["type"], "error");
    // Only what came before: one handshake (its upgrade request, its connection), one message.
    assert_eq!(server.stream_messages(Exchange::Kalshi).len(), 1);
    assert_eq!(server.kalshi_handshakes().len(), 1);
    assert_eq!(server.stream_connections(Exchange::Kalshi), 1);
    assert_eq!(server.requests().len(), 1);
}
