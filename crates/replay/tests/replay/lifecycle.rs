//! The server lives as long as its handle.

use marketlens_replay::{ReplayData, ReplayServer};
use reqwest::Client;
use std::time::Duration;

use crate::{Endpoint, get_ok};

#[tokio::test]
async fn dropping_the_server_stops_it() {
    let server = ReplayServer::start(ReplayData::default());
    let client = Client::new();
    let url = Endpoint::KalshiEvents.url(&server);
    let page = get_ok(&client, &url).await;
    assert_eq!(page, serde_json::json!({"cursor": "", "events": [], "milestones": []}));

    drop(server);
    for _ in 0..100 {
        if client.get(&url).send().await.is_err() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the server still answers a second after it was dropped");
}
