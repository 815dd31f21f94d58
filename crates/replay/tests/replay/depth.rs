//! The recorded order books and trades, served for the markets `demo-data/depth/recordings.json`
//! names, as each exchange serves them, faults included.

use marketlens_replay::{Fault, ReplayServer};
use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::{get, get_ok, recorded};

fn depth_file(file: &str) -> Value {
    let path = format!("{}/../../demo-data/depth/{file}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
}

#[tokio::test]
async fn kalshi_books_and_trades_are_served_as_recorded_and_paged() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    let kalshi = server.kalshi_url();
    let book = get_ok(&client, &format!("{kalshi}/markets/KXELONMARS-99/orderbook")).await;
    assert_eq!(book, depth_file("kalshi/orderbook-2.json"));
    // A market of the catalogue without a recording has an empty book; an unknown one none.
    let empty = get_ok(&client, &format!("{kalshi}/markets/KXMARMAD-26-CONN/orderbook")).await;
    assert_eq!(empty["orderbook_fp"]["yes_dollars"], serde_json::json!([]));
    let (status, _) = get(&client, &format!("{kalshi}/markets/NOPE/orderbook")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let recorded_trades = depth_file("kalshi/trades-1.json")["response"]["trades"].clone();
    let (mut served, mut cursor) = (Vec::new(), String::new());
    loop {
        let page = get_ok(
            &client,
            &format!("{kalshi}/markets/trades?ticker=KXELONMARS-99&limit=2&cursor={cursor}"),
        )
        .await;
        served.extend(page["trades"].as_array().unwrap().iter().cloned());
        cursor = page["cursor"].as_str().unwrap().to_owned();
        if cursor.is_empty() {
            break;
        }
    }
    assert_eq!(Value::Array(served), recorded_trades);
    let none = get_ok(&client, &format!("{kalshi}/markets/trades?ticker=KXMARMAD-26-CONN")).await;
    assert_eq!(
        (none["trades"].as_array().unwrap().len(), &none["cursor"]),
        (0, &Value::from(""))
    );
}

#[tokio::test]
async fn polymarket_books_and_trades_are_found_by_token_and_condition() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    let lookup = get_ok(
        &client,
        &format!("{}/markets/keyset?id=559687", server.polymarket_url()),
    )
    .await;
    let market = &lookup["markets"][0];
    let tokens: Vec<String> = serde_json::from_str(market["clobTokenIds"].as_str().unwrap()).unwrap();
    let condition = market["conditionId"].as_str().unwrap();

    let clob = server.polymarket_clob_url();
    let book = get_ok(&client, &format!("{clob}/book?token_id={}", tokens[0])).await;
    assert_eq!(book, depth_file("polymarket/book-3.json"));
    let (status, body) = get(&client, &format!("{clob}/book?token_id={}", tokens[1])).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");

    let data = server.polymarket_data_url();
    let first = get_ok(&client, &format!("{data}/trades?market={condition}&limit=2")).await;
    let rest = get_ok(&client, &format!("{data}/trades?market={condition}&limit=2&offset=2")).await;
    assert_eq!(
        (first.as_array().unwrap().len(), rest.as_array().unwrap().len()),
        (2, 1)
    );
    let other = get_ok(&client, &format!("{data}/trades?market=0x00")).await;
    assert_eq!(other, serde_json::json!([]));
}

#[tokio::test]
async fn faults_apply_to_the_depth_endpoints() {
    let server = ReplayServer::start(recorded());
    let client = Client::new();
    let url = format!("{}/markets/KXELONMARS-99/orderbook", server.kalshi_url());
    server.inject_on("/orderbook", Fault::ServerError);
    let (status, _) = get(&client, &url).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    server.inject_on("/orderbook", Fault::Truncated);
    let response = client.get(&url).send().await.unwrap();
    assert!(serde_json::from_slice::<Value>(&response.bytes().await.unwrap()).is_err());
    assert_eq!(get_ok(&client, &url).await, depth_file("kalshi/orderbook-2.json"));
}
