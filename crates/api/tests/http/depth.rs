//! Order books and trades over HTTP: from the exchanges' REST endpoints (the replay server
//! playing the recordings of `demo-data/depth/`), from the recordings themselves (the demo),
//! and from no source at all; orientation, paging, the shared cache, errors and credits.

use chrono::Utc;
use marketlens_api::ApiSettings;
use marketlens_domain::Exchange;
use marketlens_domain::depth::DepthSource;
use marketlens_domain::ids::market_id;
use marketlens_replay::{Fault, ReplayData, ReplayServer};
use marketlens_sync::SyncSettings;
use marketlens_sync::depth::{DepthSettings, RecordedDepth, RestDepth};
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

use crate::{TestServer, assert_error};

pub(crate) const ELON: &str = "KXELONMARS-99";
pub(crate) const DUKE: &str = "KXMARMAD-26-DUKE";
pub(crate) const ARIZ: &str = "KXMARMAD-26-ARIZ";
const FLA: &str = "KXMARMAD-26-FLA";
pub(crate) const OPRAH: &str = "559687";

fn demo_data(file: &str) -> Vec<u8> {
    let path = format!("{}/../../demo-data/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// Stores the markets of the demo that have depth recordings, as `demo` stores them (only
/// those records of their files, to stay fast).
pub(crate) async fn store_depth_markets(server: &TestServer) {
    let keep = |records: Vec<Value>, key: &str, ids: &[&str]| -> Vec<Value> {
        records
            .into_iter()
            .filter(|record| ids.contains(&record[key].as_str().unwrap_or_default()))
            .collect()
    };
    let polymarket: Vec<Value> = serde_json::from_slice(&demo_data("polymarket/gamma-markets-1.json")).unwrap();
    let polymarket = keep(polymarket, "id", &[OPRAH, "559684", "559688", "553874"]);
    let mut kalshi: Value = serde_json::from_slice(&demo_data("kalshi/markets-1.json")).unwrap();
    let kalshi_markets = keep(
        serde_json::from_value(kalshi["markets"].take()).unwrap(),
        "ticker",
        &[DUKE, ARIZ, FLA],
    );
    let payloads = [
        (Exchange::Polymarket, serde_json::to_vec(&polymarket).unwrap()),
        (
            Exchange::Kalshi,
            serde_json::to_vec(&json!({"cursor": "", "markets": kalshi_markets})).unwrap(),
        ),
        (Exchange::Kalshi, demo_data("kalshi/event-single-1.json")),
    ];
    for (exchange, bytes) in payloads {
        let (_, normalized) = marketlens_exchanges::normalize(exchange, &bytes).unwrap();
        server
            .store
            .upsert(&normalized.markets, &normalized.events, Utc::now())
            .await
            .unwrap();
    }
    server.refresh_catalog().await;
}

/// Depth from the replay server's exchange endpoints, shared for `cache`.
pub(crate) fn rest_source(replay: &ReplayServer, cache: Duration) -> Arc<dyn DepthSource> {
    let sync = SyncSettings {
        polymarket: marketlens_sync::ExchangeSettings {
            base_url: replay.polymarket_url(),
            ..SyncSettings::default().polymarket
        },
        kalshi: marketlens_sync::ExchangeSettings {
            base_url: replay.kalshi_url(),
            ..SyncSettings::default().kalshi
        },
        ..SyncSettings::default()
    };
    let depth = DepthSettings {
        polymarket_clob_url: replay.polymarket_clob_url(),
        polymarket_data_url: replay.polymarket_data_url(),
        cache_ttl: cache,
        request_timeout: Duration::from_secs(5),
        requests_per_second: 1000,
    };
    Arc::new(RestDepth::new(&sync, &depth).unwrap())
}

/// A server whose depth comes from the replay server's exchange endpoints.
async fn rest_server(replay: &ReplayServer, cache: Duration) -> TestServer {
    let server = TestServer::start_with_depth(ApiSettings::default(), rest_source(replay, cache)).await;
    store_depth_markets(&server).await;
    server
}

/// A server serving the demo's recordings, as `marketlens demo` does.
async fn recording_server() -> TestServer {
    let files = |name: &str| Some(&*Box::leak(demo_data(&format!("depth/{name}")).into_boxed_slice()));
    let source = RecordedDepth::new(&demo_data("depth/recordings.json"), files).unwrap();
    let server = TestServer::start_with_depth(ApiSettings::default(), Arc::new(source)).await;
    store_depth_markets(&server).await;
    server
}

pub(crate) fn id(exchange: Exchange, external_id: &str) -> uuid::Uuid {
    market_id(exchange, external_id)
}

async fn book(server: &TestServer, exchange: Exchange, external_id: &str) -> Value {
    let key = server.key().await;
    let path = format!("/api/v1/markets/{}/orderbook", id(exchange, external_id));
    let (status, body) = server.get(&path, &key).await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

fn prices(levels: &Value) -> Vec<f64> {
    levels
        .as_array()
        .unwrap()
        .iter()
        .map(|level| level["price"].as_f64().unwrap())
        .collect()
}

/// Each outcome's bids fall and asks rise, its best bid is below its best ask, and a binary
/// market's second outcome is its first seen from the other side.
fn assert_oriented(book: &Value) {
    let outcomes = book["outcomes"].as_array().unwrap();
    for outcome in outcomes {
        let (bids, asks) = (prices(&outcome["bids"]), prices(&outcome["asks"]));
        assert!(bids.windows(2).all(|pair| pair[0] > pair[1]), "bids fall: {outcome}");
        assert!(asks.windows(2).all(|pair| pair[0] < pair[1]), "asks rise: {outcome}");
        if let (Some(bid), Some(ask)) = (bids.first(), asks.first()) {
            assert!(bid < ask, "not crossed: {outcome}");
        }
    }
    if let [first, second] = outcomes.as_slice() {
        let flipped = |levels: &Value| -> Vec<f64> {
            prices(levels)
                .iter()
                .map(|price| ((1.0 - price) * 1e6).round() / 1e6)
                .collect()
        };
        assert_eq!(prices(&second["bids"]), flipped(&first["asks"]), "{book}");
        assert_eq!(prices(&second["asks"]), flipped(&first["bids"]), "{book}");
    }
}

#[tokio::test]
async fn kalshi_books_from_the_exchange_are_oriented_in_every_recorded_form() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let server = rest_server(&replay, Duration::from_secs(2)).await;

    // orderbook-2 (`orderbook_fp` only): YES bids 0.37 × 8368 best; the best NO bid, 0.61 × 79,
    // is the best YES ask at 0.39.
    let elon = book(&server, Exchange::Kalshi, ELON).await;
    assert_oriented(&elon);
    assert_eq!(elon["source"], "rest");
    assert_eq!(elon["stale"], false, "{elon}");
    assert!(elon["ageMs"].as_i64().unwrap() < 5_000);
    assert_eq!(elon["exchange"], "KALSHI");
    assert!(elon.get("recordedFrom").is_none());
    let (yes, no) = (&elon["outcomes"][0], &elon["outcomes"][1]);
    assert_eq!(
        (yes["outcome"].as_str(), no["outcome"].as_str()),
        (Some("Yes"), Some("No"))
    );
    assert_eq!(yes["bids"][0], json!({"price": 0.37, "size": 8368.0}));
    assert_eq!(yes["asks"][0], json!({"price": 0.39, "size": 79.0}));
    assert_eq!(no["bids"][0], json!({"price": 0.61, "size": 79.0}));
    assert_eq!(no["asks"][0], json!({"price": 0.63, "size": 8368.0}));

    // orderbook-1 (cents, `_dollars` and `orderbook_fp` side by side): YES 0.70 / 0.72.
    let duke = book(&server, Exchange::Kalshi, DUKE).await;
    assert_oriented(&duke);
    assert_eq!(duke["outcomes"][0]["bids"][0]["price"], 0.7);
    assert_eq!(duke["outcomes"][0]["asks"][0]["price"], 0.72);

    // orderbook-3: no YES bids at all, so no NO asks.
    let ariz = book(&server, Exchange::Kalshi, ARIZ).await;
    assert_oriented(&ariz);
    assert_eq!(ariz["outcomes"][0]["bids"], json!([]));
    assert_eq!(ariz["outcomes"][1]["asks"], json!([]));
    assert_eq!(ariz["outcomes"][0]["asks"][0], json!({"price": 0.01, "size": 73469.0}));

    // orderbook-4: every array null, an empty book.
    let fla = book(&server, Exchange::Kalshi, FLA).await;
    for outcome in fla["outcomes"].as_array().unwrap() {
        assert_eq!((&outcome["bids"], &outcome["asks"]), (&json!([]), &json!([])), "{fla}");
    }
}

#[tokio::test]
async fn the_three_kalshi_generations_of_one_book_answer_the_same() {
    let recorded: Value = serde_json::from_slice(&demo_data("depth/kalshi/orderbook-1.json")).unwrap();
    let cents = json!({"orderbook": {"yes": recorded["orderbook"]["yes"], "no": recorded["orderbook"]["no"]}});
    let dollars = json!({"orderbook": {
        "yes_dollars": recorded["orderbook"]["yes_dollars"], "no_dollars": recorded["orderbook"]["no_dollars"]}});
    let fp = json!({"orderbook_fp": recorded["orderbook_fp"]});
    let entry = |market: &str, file: &str| {
        json!({"exchange": "KALSHI", "market": market, "file": file, "pointer": "", "recordedFrom": null,
               "recordedAt": "2026-03-11T00:00:00Z"})
    };
    let manifest = json!({"books": [entry(DUKE, "cents"), entry(ARIZ, "dollars"), entry(ELON, "fp")], "trades": []});
    let bodies: Vec<(&str, Vec<u8>)> = vec![
        ("cents", cents.to_string().into_bytes()),
        ("dollars", dollars.to_string().into_bytes()),
        ("fp", fp.to_string().into_bytes()),
    ];
    let bodies: &'static [(&str, Vec<u8>)] = Box::leak(bodies.into_boxed_slice());
    let file = |name: &str| {
        bodies
            .iter()
            .find(|(file, _)| *file == name)
            .map(|(_, bytes)| bytes.as_slice())
    };
    let source = RecordedDepth::new(manifest.to_string().as_bytes(), file).unwrap();
    let server = TestServer::start_with_depth(ApiSettings::default(), Arc::new(source)).await;
    store_depth_markets(&server).await;

    let in_cents = book(&server, Exchange::Kalshi, DUKE).await;
    assert_oriented(&in_cents);
    assert_eq!(in_cents["outcomes"][0]["asks"][0]["price"], 0.72);
    for other in [ARIZ, ELON] {
        let other = book(&server, Exchange::Kalshi, other).await;
        assert_eq!(other["outcomes"], in_cents["outcomes"]);
    }
}

#[tokio::test]
async fn a_polymarket_book_is_turned_best_first_and_says_how_old_it_is() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let server = rest_server(&replay, Duration::from_secs(2)).await;
    let oprah = book(&server, Exchange::Polymarket, OPRAH).await;
    assert_oriented(&oprah);
    assert_eq!(oprah["source"], "rest");
    // book-3's own time, 2026-01-04: far older than the bound, and said so.
    assert_eq!(oprah["timestamp"], "2026-01-04T19:24:16.215Z");
    assert_eq!(oprah["stale"], true);
    assert!(oprah["ageMs"].as_i64().unwrap() > 10_000);
    let yes = &oprah["outcomes"][0];
    assert_eq!(yes["outcome"], "Yes");
    assert_eq!(
        (yes["bids"][0]["price"].as_f64(), yes["asks"][0]["price"].as_f64()),
        (Some(0.49), Some(0.51))
    );
    assert_eq!(yes["bids"].as_array().unwrap().len(), 20);
    // The CLOB was asked for the market's first token, found on Gamma by its id.
    let requests = replay.requests();
    assert!(
        requests
            .iter()
            .any(|(path, query)| path.ends_with("/markets/keyset") && query.contains("id=559687"))
    );
    assert!(
        requests
            .iter()
            .any(|(path, query)| path.ends_with("/book") && query.starts_with("token_id="))
    );
}

/// Every page of a market's trades, following `nextCursor`.
async fn all_trades(server: &TestServer, exchange: Exchange, external_id: &str, limit: u32) -> (Vec<Value>, usize) {
    let key = server.key().await;
    let base = format!("/api/v1/markets/{}/trades?limit={limit}", id(exchange, external_id));
    let (mut trades, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
    loop {
        let path = match &cursor {
            Some(cursor) => format!("{base}&cursor={cursor}"),
            None => base.clone(),
        };
        let (status, body) = server.get(&path, &key).await;
        assert_eq!(status, 200, "{body}");
        pages += 1;
        let page = body["data"]["trades"].as_array().unwrap().clone();
        assert!(page.len() <= limit as usize);
        trades.extend(page);
        let pagination = &body["pagination"];
        assert_eq!(pagination["limit"], limit);
        match pagination["nextCursor"].as_str() {
            Some(next) => {
                assert_eq!(pagination["hasMore"], true);
                cursor = Some(next.to_owned());
            }
            None => {
                assert_eq!(pagination["hasMore"], false);
                return (trades, pages);
            }
        }
    }
}

#[tokio::test]
async fn trades_page_through_every_trade_once_in_order() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let server = rest_server(&replay, Duration::from_secs(2)).await;

    // trades-1: 5 Kalshi trades of KXELONMARS-99, newest first, through Kalshi's cursors.
    let (elon, pages) = all_trades(&server, Exchange::Kalshi, ELON, 2).await;
    assert_eq!(pages, 3);
    let recorded: Value = serde_json::from_slice(&demo_data("depth/kalshi/trades-1.json")).unwrap();
    let recorded_ids: Vec<&str> = recorded["response"]["trades"]
        .as_array()
        .unwrap()
        .iter()
        .map(|trade| trade["trade_id"].as_str().unwrap())
        .collect();
    let served_ids: Vec<&str> = elon.iter().map(|trade| trade["id"].as_str().unwrap()).collect();
    assert_eq!(served_ids, recorded_ids);
    let times: Vec<&str> = elon.iter().map(|trade| trade["time"].as_str().unwrap()).collect();
    assert!(
        times.windows(2).all(|pair| pair[0] >= pair[1]),
        "newest first: {times:?}"
    );
    for trade in &elon {
        assert_eq!(trade["takerSide"], "BUY");
        assert!(["Yes", "No"].contains(&trade["outcome"].as_str().unwrap()));
        assert!((0.0..=1.0).contains(&trade["price"].as_f64().unwrap()));
    }
    assert!(
        replay
            .requests()
            .iter()
            .filter(|(path, _)| path.ends_with("/markets/trades"))
            .all(|(_, query)| query.contains("ticker=KXELONMARS-99"))
    );

    // data-trades-1: 3 Polymarket trades, through the Data API's offsets.
    let (oprah, _) = all_trades(&server, Exchange::Polymarket, OPRAH, 2).await;
    assert_eq!(oprah.len(), 3);
    let unique: std::collections::HashSet<&str> = oprah.iter().map(|trade| trade["id"].as_str().unwrap()).collect();
    assert_eq!(unique.len(), 3, "{oprah:?}");
    assert_eq!(
        oprah[0]["outcome"], "No",
        "outcomeIndex 1 is the market's second outcome"
    );
    assert_eq!(oprah[0]["price"], 0.9);

    let key = server.key().await;
    let path = format!("/api/v1/markets/{}/trades?cursor=zz", id(Exchange::Kalshi, ELON));
    let (status, body) = server.get(&path, &key).await;
    assert_eq!(
        assert_error(status, &body, 400, "INVALID_PARAMETER")["details"]["parameter"],
        "cursor"
    );
}

#[tokio::test]
async fn concurrent_callers_of_one_book_share_one_upstream_fetch() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let server = rest_server(&replay, Duration::from_millis(300)).await;
    let key = server.key().await;
    let path = format!("/api/v1/markets/{}/orderbook", id(Exchange::Kalshi, ELON));
    // A slow exchange: every caller arrives while the first fetch is still out.
    replay.inject_on("/orderbook", Fault::Slow(Duration::from_millis(300)));
    let calls = (0..24).map(|_| server.get(&path, &key));
    let answers = futures::future::join_all(calls).await;
    assert!(answers.iter().all(|(status, _)| *status == 200));
    let fetches = || {
        replay
            .requests()
            .iter()
            .filter(|(path, _)| path.ends_with("/orderbook"))
            .count()
    };
    assert_eq!(fetches(), 1, "24 concurrent callers, one upstream fetch");
    // Within the cache's life the book is served again without a fetch; after it, fetched anew.
    server.get(&path, &key).await;
    assert_eq!(fetches(), 1);
    tokio::time::sleep(Duration::from_millis(400)).await;
    server.get(&path, &key).await;
    assert_eq!(fetches(), 2);
}

#[tokio::test]
async fn without_a_depth_source_depth_is_503_and_free() {
    let server = TestServer::start().await;
    store_depth_markets(&server).await;
    let (account, key) = server.account("pro", 100).await;
    let elon = id(Exchange::Kalshi, ELON);
    for path in [
        format!("/api/v1/markets/{elon}/orderbook"),
        format!("/api/v1/orderbooks?ids={elon}"),
        format!("/api/v1/markets/{elon}/trades"),
    ] {
        let (status, body) = server.get(&path, &key).await;
        assert_error(status, &body, 503, "DEPTH_UNAVAILABLE");
    }
    assert_eq!(server.remaining_credits(account.id).await, 100);
}

#[tokio::test]
async fn an_exchange_that_fails_is_502_and_free() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let server = rest_server(&replay, Duration::from_secs(2)).await;
    let (account, key) = server.account("pro", 100).await;
    let path = format!("/api/v1/markets/{}/orderbook", id(Exchange::Kalshi, ELON));
    // Two attempts, two 500s.
    replay.inject_on("/orderbook", Fault::ServerError);
    replay.inject_on("/orderbook", Fault::ServerError);
    let (status, body) = server.get(&path, &key).await;
    assert_error(status, &body, 502, "EXCHANGE_UNAVAILABLE");
    // HTML where JSON should be, twice.
    replay.inject_on("/orderbook", Fault::Malformed);
    replay.inject_on("/orderbook", Fault::Malformed);
    let (status, body) = server.get(&path, &key).await;
    assert_error(status, &body, 502, "EXCHANGE_UNAVAILABLE");
    assert_eq!(server.remaining_credits(account.id).await, 100);
    // The exchange is back: the failure was not kept.
    let (status, _) = server.get(&path, &key).await;
    assert_eq!(status, 200);
    assert_eq!(server.remaining_credits(account.id).await, 99);
}

#[tokio::test]
async fn several_books_in_one_call_cost_one_credit_each() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let server = rest_server(&replay, Duration::from_secs(2)).await;
    let (account, key) = server.account("pro", 100).await;
    let ids = [
        id(Exchange::Kalshi, ELON),
        id(Exchange::Polymarket, OPRAH),
        id(Exchange::Kalshi, DUKE),
        id(Exchange::Kalshi, ELON),
    ];
    // The repeat of the first, written in upper case, is the same book: served and charged once.
    let list = format!(
        "{},{}",
        ids.map(|id| id.to_string()).join(","),
        ids[0].to_string().to_uppercase()
    );
    let response = server
        .request(Method::GET, &format!("/api/v1/orderbooks?ids={list}"), Some(&key))
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-credits-used"], "3");
    assert_eq!(response.headers()["x-credits-remaining"], "97");
    let (status, body) = crate::json_of(response).await;
    assert_eq!(status, 200, "{body}");
    let served: Vec<&str> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|book| book["marketId"].as_str().unwrap())
        .collect();
    assert_eq!(
        served,
        [ids[0], ids[1], ids[2]].map(|id| id.to_string()),
        "in order, each once"
    );
    body["data"].as_array().unwrap().iter().for_each(assert_oriented);
    assert_eq!(server.remaining_credits(account.id).await, 97);

    // An unknown id: 404 naming it, nothing charged.
    let unknown = uuid::Uuid::new_v4();
    let (status, body) = server
        .get(&format!("/api/v1/orderbooks?ids={},{unknown}", ids[0]), &key)
        .await;
    let error = assert_error(status, &body, 404, "NOT_FOUND");
    assert!(error["message"].as_str().unwrap().contains(&unknown.to_string()));
    // 51 ids: refused before any work.
    let many: Vec<String> = (0..51).map(|_| uuid::Uuid::new_v4().to_string()).collect();
    let (status, body) = server
        .get(&format!("/api/v1/orderbooks?ids={}", many.join(",")), &key)
        .await;
    let error = assert_error(status, &body, 400, "INVALID_PARAMETER");
    assert_eq!(error["details"]["maximum"], 50);
    let (status, body) = server.get("/api/v1/orderbooks", &key).await;
    assert_error(status, &body, 400, "INVALID_PARAMETER");
    assert_eq!(server.remaining_credits(account.id).await, 97);
}

#[tokio::test]
async fn the_demo_serves_its_recordings_as_recordings() {
    let server = recording_server().await;
    let elon = book(&server, Exchange::Kalshi, ELON).await;
    assert_oriented(&elon);
    assert_eq!(elon["source"], "recording");
    assert_eq!(elon["stale"], true);
    assert_eq!(elon["timestamp"], "2026-03-16T00:00:00.000Z");
    assert_eq!(elon["recordedFrom"], "KXEPLGAME-26MAR22TOTNFO-TOT");
    assert_eq!(elon["outcomes"][0]["asks"][0], json!({"price": 0.39, "size": 79.0}));
    let resolved = book(&server, Exchange::Polymarket, "553874").await;
    assert_eq!(
        resolved["outcomes"][0]["bids"],
        json!([]),
        "book-1 was read after the close"
    );
    assert_oriented(&resolved);

    // KXELONMARS-99's own trades, recorded on it: no `recordedFrom`.
    let (trades, pages) = all_trades(&server, Exchange::Kalshi, ELON, 2).await;
    assert_eq!((trades.len(), pages), (5, 3));
    let key = server.key().await;
    let (status, body) = server
        .get(&format!("/api/v1/markets/{}/trades", id(Exchange::Kalshi, ELON)), &key)
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["source"], "recording");
    assert!(body["data"].get("recordedFrom").is_none(), "{body}");

    // A market without a recording has no depth in the demo: 404, uncharged.
    let (account, key) = server.account("pro", 10).await;
    let other = id(Exchange::Polymarket, "559679");
    let (status, body) = server.get(&format!("/api/v1/markets/{other}/orderbook"), &key).await;
    assert_eq!(status, 404, "not stored in this test: {body}");
    let (status, body) = server
        .get(
            &format!("/api/v1/markets/{}/trades", id(Exchange::Polymarket, "559684")),
            &key,
        )
        .await;
    assert_error(status, &body, 404, "NOT_FOUND");
    // A market of the seeded catalogue: stored, never recorded.
    let without = crate::seed::market(&crate::seed::SPECS[0]).id();
    let (status, body) = server
        .get(
            &format!("/api/v1/orderbooks?ids={},{without}", id(Exchange::Kalshi, ELON)),
            &key,
        )
        .await;
    let error = assert_error(status, &body, 404, "NOT_FOUND");
    assert!(
        error["message"].as_str().unwrap().contains(&without.to_string()),
        "{error}"
    );
    assert_eq!(server.remaining_credits(account.id).await, 10);
}
