use std::collections::HashMap;

use base64::Engine;
use marketlens_connectors::{Connector, ConnectorError, SIGNED_PATH};
use marketlens_domain::Exchange;
use marketlens_domain::depth::{Ladder, TakerSide};
use marketlens_domain::stream::{BookSide, FeedState, LevelChange, LiveFeed, MarketChange, MarketUpdate, StreamMarket};
use marketlens_replay::{ReplayData, ReplayServer, StreamFault};
use rsa::sha2::Sha256;
use serde_json::Value;
use tokio::sync::mpsc;

use super::*;

/// The recorded book frames of `kalshi/ws-orderbook-1.json`.
fn recorded_frames() -> Vec<Value> {
    let file: Value = serde_json::from_str(&recorded("kalshi/ws-orderbook-1.json")).unwrap();
    file["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["frame"].clone())
        .collect()
}

fn kalshi_market(ticker: &str) -> StreamMarket {
    market(Exchange::Kalshi, ticker, ["Yes", "No"], Vec::new())
}

fn start(server: &ReplayServer) -> (Connector, mpsc::Receiver<MarketUpdate>) {
    let (sender, updates) = mpsc::channel(4096);
    let connector = Connector::kalshi(&server.kalshi_ws_url(), Some(credentials()), sender, settings()).unwrap();
    (connector, updates)
}

/// A server playing its recordings at once and pinging often enough that an idle connection
/// never looks stalled.
fn fast_server() -> ReplayServer {
    let server = ReplayServer::start(ReplayData::default());
    server.set_stream_speed(f64::INFINITY);
    server.set_kalshi_heartbeat(Duration::from_millis(500));
    server
}

fn number(value: &Value) -> f64 {
    value.as_str().unwrap().parse().unwrap()
}

#[tokio::test]
async fn every_recorded_snapshot_is_a_book_of_yes_bids_and_no_bids_as_yes_asks() {
    let server = fast_server();
    let (connector, mut updates) = start(&server);
    let snapshots: Vec<Value> = recorded_frames()
        .into_iter()
        .filter(|frame| frame["type"] == "orderbook_snapshot")
        .map(|frame| frame["msg"].clone())
        .collect();
    assert_eq!(snapshots.len(), 12);
    let markets: Vec<StreamMarket> = snapshots
        .iter()
        .map(|snapshot| kalshi_market(snapshot["market_ticker"].as_str().unwrap()))
        .collect();
    for market in &markets {
        connector.follow(market);
    }
    let mut books = HashMap::new();
    while books.len() < markets.len() {
        let update = until(&mut updates, is_book).await.pop().unwrap();
        let MarketChange::Book { outcomes } = update.change else {
            unreachable!()
        };
        books.insert(update.market, outcomes);
    }
    for (market, snapshot) in markets.iter().zip(&snapshots) {
        let outcomes = &books[&market.id];
        let side = |name: &str| -> Vec<Level> {
            snapshot[name]
                .as_array()
                .unwrap()
                .iter()
                .map(|pair| level(number(&pair[0]), number(&pair[1])))
                .collect()
        };
        let yes_bids = side("yes_dollars_fp");
        let no_bids = side("no_dollars_fp");
        let yes = &outcomes[0].ladder;
        let no = &outcomes[1].ladder;
        assert_eq!(
            (outcomes[0].outcome.as_str(), outcomes[1].outcome.as_str()),
            ("Yes", "No")
        );
        assert_eq!(yes.bids.len(), yes_bids.len(), "{}", market.external_id);
        assert_eq!(yes.asks.len(), no_bids.len(), "{}", market.external_id);
        // Best first, and the best YES bid is below the best YES ask on every recorded book.
        assert_eq!(
            yes.best_bid(),
            yes_bids.iter().map(|level| level.price).reduce(f64::max)
        );
        let best_no_bid = no_bids.iter().map(|level| level.price).reduce(f64::max).unwrap();
        assert_eq!(
            yes.best_ask(),
            Some(marketlens_domain::depth::round_price(1.0 - best_no_bid))
        );
        assert!(yes.best_bid() < yes.best_ask(), "{}: crossed", market.external_id);
        assert_eq!(no, &yes.complement());
    }
    // docs/API.md's worked example, as recorded: YES bid 0.70, NO bid 0.28, so YES ask 0.72.
    let boston = &books[&kalshi_market("KXMLBGAME-26AUG071910ATHBOS-BOS").id];
    assert_eq!(boston[0].ladder.bids[0], level(0.70, 114_146.0));
    assert_eq!(boston[0].ladder.asks[0], level(0.72, 287_691.99));
    assert_eq!(boston[1].ladder.bids[0], level(0.28, 287_691.99));
    assert_eq!(boston[1].ladder.asks[0], level(0.30, 114_146.0));
}

#[tokio::test]
async fn a_subscriber_receives_the_recorded_deltas_in_order_as_sizes() {
    let server = fast_server();
    let (connector, mut updates) = start(&server);
    let ticker = "KXMLBGAME-26AUG071910ATHBOS-BOS";
    connector.follow(&kalshi_market(ticker));

    // What the recording says, applied by hand: each delta's YES or NO bid size after it.
    let frames = recorded_frames();
    let snapshot = frames
        .iter()
        .find(|frame| frame["type"] == "orderbook_snapshot" && frame["msg"]["market_ticker"] == ticker)
        .unwrap();
    let mut sizes: HashMap<(String, String), f64> = HashMap::new();
    for (side, field) in [("yes", "yes_dollars_fp"), ("no", "no_dollars_fp")] {
        for pair in snapshot["msg"][field].as_array().unwrap() {
            sizes.insert(
                (side.to_owned(), pair[0].as_str().unwrap().to_owned()),
                number(&pair[1]),
            );
        }
    }
    let mut expected = Vec::new();
    for frame in frames
        .iter()
        .filter(|frame| frame["type"] == "orderbook_delta" && frame["msg"]["market_ticker"] == ticker)
    {
        let message = &frame["msg"];
        let side = message["side"].as_str().unwrap().to_owned();
        let price = message["price_dollars"].as_str().unwrap().to_owned();
        let size = sizes.entry((side.clone(), price.clone())).or_default();
        *size = ((*size + number(&message["delta_fp"])) * 1e6).round() / 1e6;
        let price: f64 = price.parse().unwrap();
        let (yes_side, yes_price) = if side == "yes" {
            (BookSide::Bid, price)
        } else {
            (BookSide::Ask, 1.0 - price)
        };
        expected.push((
            yes_side,
            marketlens_domain::depth::round_price(yes_price),
            size.max(0.0),
        ));
    }
    assert_eq!(expected.len(), 120);

    let seen = until(&mut updates, is_book).await;
    assert_eq!(kinds(&seen), ["live", "book"]);
    let mut received = Vec::new();
    while received.len() < expected.len() {
        let update = until(&mut updates, |update| {
            matches!(update.change, MarketChange::Levels { .. })
        })
        .await
        .pop()
        .unwrap();
        let MarketChange::Levels { changes } = update.change else {
            unreachable!()
        };
        let [yes, no]: [LevelChange; 2] = changes.try_into().unwrap();
        assert_eq!((yes.outcome.as_str(), no.outcome.as_str()), ("Yes", "No"));
        // The NO outcome's change mirrors the YES one: the other side at 1 - p, same size.
        assert_ne!(yes.side, no.side);
        assert_eq!(no.price, marketlens_domain::depth::round_price(1.0 - yes.price));
        assert_eq!(no.size, yes.size);
        received.push((yes.side, yes.price, yes.size));
    }
    assert_eq!(received, expected);
}

#[tokio::test]
async fn recorded_trades_and_tickers_become_trades_and_prices_of_both_outcomes() {
    let server = fast_server();
    let (connector, mut updates) = start(&server);
    // Recorded with cents and dollars side by side (February 2026).
    connector.follow(&kalshi_market("KXSOLD-26FEB1217-T79.9999"));
    let seen = until(&mut updates, |update| matches!(update.change, MarketChange::Trade(_))).await;
    let MarketChange::Trade(trade) = &seen.last().unwrap().change else {
        unreachable!()
    };
    assert_eq!(
        (
            trade.outcome.as_str(),
            trade.price,
            trade.size,
            trade.taker_side,
            trade.id.as_str()
        ),
        (
            "Yes",
            0.77,
            75.0,
            TakerSide::Buy,
            "f851595a-6d92-424e-09f8-0d2669de70ae"
        )
    );
    assert_eq!(trade.time.timestamp(), 1_770_897_981);
    let prices = until(
        &mut updates,
        |update| matches!(&update.change, MarketChange::Price(tick) if tick.outcome == "No"),
    )
    .await;
    let MarketChange::Price(no) = &prices.last().unwrap().change else {
        unreachable!()
    };
    assert_eq!(no.last, Some(0.23));

    connector.follow(&kalshi_market("KXXRP-26FEB1317-B1.3899500"));
    let ticks = until(
        &mut updates,
        |update| matches!(&update.change, MarketChange::Price(tick) if tick.outcome == "No" && tick.best_bid.is_some()),
    )
    .await;
    let MarketChange::Price(no) = &ticks.last().unwrap().change else {
        unreachable!()
    };
    // YES: last 0.14, bid 0.04, ask 0.95; so NO: last 0.86, bid 0.05, ask 0.96.
    assert_eq!(
        (no.last, no.best_bid, no.best_ask),
        (Some(0.86), Some(0.05), Some(0.96))
    );
}

#[tokio::test]
async fn a_sequence_gap_interrupts_the_market_then_a_fresh_snapshot_makes_it_live() {
    let server = fast_server();
    // The snapshot and two deltas arrive; the third delta is lost.
    server.inject_stream(Exchange::Kalshi, 3, StreamFault::SequenceGap);
    let (connector, mut updates) = start(&server);
    let market = kalshi_market("KXMLBGAME-26AUG071905ATLNYY-NYY");
    connector.follow(&market);
    let seen = until(&mut updates, is_state(FeedState::Interrupted)).await;
    assert_eq!(kinds(&seen), ["live", "book", "levels", "levels", "interrupted"]);
    let again = until(&mut updates, is_book).await;
    assert_eq!(kinds(&again), ["live", "book"]);
    assert!(again.iter().all(|update| update.market == market.id));
    let sent: Vec<Value> = server
        .stream_messages(Exchange::Kalshi)
        .iter()
        .map(|text| serde_json::from_str(text).unwrap())
        .collect();
    let commands: Vec<&str> = sent.iter().map(|command| command["cmd"].as_str().unwrap()).collect();
    assert_eq!(commands, ["subscribe", "unsubscribe", "subscribe"]);
    assert_eq!(sent[1]["params"]["sids"], serde_json::json!([1]));
    assert_eq!(sent[2]["params"]["channels"], serde_json::json!(["orderbook_delta"]));
    assert_eq!(server.stream_connections(Exchange::Kalshi), 1);
}

#[tokio::test]
async fn a_dropped_connection_is_made_again_with_everything_resubscribed_and_fresh_books() {
    let server = fast_server();
    server.inject_stream(Exchange::Kalshi, 2, StreamFault::DropConnection);
    let (connector, mut updates) = start(&server);
    let market = kalshi_market("KXMLBGAME-26AUG071905ATLNYY-NYY");
    connector.follow(&market);
    let seen = until(&mut updates, is_state(FeedState::Interrupted)).await;
    assert_eq!(kinds(&seen), ["live", "book", "levels", "interrupted"]);
    let again = until(&mut updates, is_book).await;
    assert_eq!(kinds(&again), ["live", "book"]);
    assert_eq!(server.stream_connections(Exchange::Kalshi), 2);
    assert_eq!(connector.connections(), 2);
    let subscribes = server
        .stream_messages(Exchange::Kalshi)
        .iter()
        .filter(|text| text.contains(r#""cmd":"subscribe""#) && text.contains(&market.external_id))
        .count();
    assert_eq!(subscribes, 2);
    // Each connection is signed afresh.
    assert_eq!(server.kalshi_handshakes().len(), 2);
}

#[tokio::test]
async fn a_malformed_frame_is_skipped_and_counted_and_the_stream_goes_on() {
    let server = fast_server();
    server.inject_stream(Exchange::Kalshi, 1, StreamFault::Malformed);
    let (connector, mut updates) = start(&server);
    connector.follow(&kalshi_market("KXMLBGAME-26AUG071905ATLNYY-ATL"));
    let mut levels = 0;
    let mut seen = Vec::new();
    while levels < 18 {
        let update = until(&mut updates, |update| {
            matches!(update.change, MarketChange::Levels { .. })
        })
        .await;
        levels += 1;
        seen.extend(update);
    }
    assert!(!kinds(&seen).contains(&"interrupted"));
    assert_eq!(connector.malformed_frames(), 1);
    assert_eq!(server.stream_connections(Exchange::Kalshi), 1);
}

#[tokio::test]
async fn a_stalled_stream_is_given_up_and_made_again() {
    let server = fast_server();
    server.set_kalshi_heartbeat(Duration::from_millis(100));
    server.inject_stream(Exchange::Kalshi, 2, StreamFault::Stall);
    let (sender, mut updates) = mpsc::channel(4096);
    let settings = ConnectionSettings {
        stall_after: Duration::from_millis(800),
        ..settings()
    };
    let connector = Connector::kalshi(&server.kalshi_ws_url(), Some(credentials()), sender, settings).unwrap();
    connector.follow(&kalshi_market("KXMLBGAME-26AUG071905ATLNYY-NYY"));
    let seen = until(&mut updates, is_state(FeedState::Interrupted)).await;
    assert_eq!(kinds(&seen), ["live", "book", "levels", "interrupted"]);
    let again = until(&mut updates, is_book).await;
    assert_eq!(kinds(&again), ["live", "book"]);
    assert_eq!(server.stream_connections(Exchange::Kalshi), 2);
    // The second connection plays the whole recording and then idles, pinged: not stalled.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(server.stream_connections(Exchange::Kalshi), 2);
}

#[tokio::test]
async fn the_last_unfollow_leaves_the_subscriptions() {
    let server = fast_server();
    let (connector, mut updates) = start(&server);
    let market = kalshi_market("KXMLBGAME-26AUG071905ATLNYY-NYY");
    connector.follow(&market);
    connector.follow(&market);
    until(&mut updates, is_book).await;
    connector.unfollow(market.id);
    connector.follow(&kalshi_market("KXMLBGAME-26AUG071910LAAMIA-MIA"));
    until(&mut updates, |update| is_book(update) && update.market != market.id).await;
    assert!(
        !server
            .stream_messages(Exchange::Kalshi)
            .iter()
            .any(|text| text.contains("unsubscribe"))
    );
    connector.unfollow(market.id);
    eventually("an unsubscribe", || {
        server
            .stream_messages(Exchange::Kalshi)
            .iter()
            .any(|text| text.contains(r#""cmd":"unsubscribe""#) && text.contains(r#""sids":[1,2,3]"#))
    })
    .await;
}

#[tokio::test]
async fn each_handshake_is_signed_with_the_operators_key_and_none_is_made_without_one() {
    let server = fast_server();
    let (connector, mut updates) = start(&server);
    connector.follow(&kalshi_market("KXMLBGAME-26AUG071905ATLNYY-NYY"));
    until(&mut updates, is_book).await;
    let handshake: HashMap<String, String> = server.kalshi_handshakes().remove(0).into_iter().collect();
    assert_eq!(handshake["KALSHI-ACCESS-KEY"], "test-key-id");
    let signed = format!("{}GET{SIGNED_PATH}", handshake["KALSHI-ACCESS-TIMESTAMP"]);
    let signature = base64::engine::general_purpose::STANDARD
        .decode(&handshake["KALSHI-ACCESS-SIGNATURE"])
        .unwrap();
    key()
        .to_public_key()
        .pss_verify::<Sha256>(signed.as_bytes(), &signature)
        .unwrap();

    let (sender, _updates) = mpsc::channel(1);
    let refused = Connector::kalshi(&server.kalshi_ws_url(), None, sender, settings());
    let Err(error) = refused else {
        panic!("a Kalshi connector without credentials started")
    };
    assert!(matches!(error, ConnectorError::KalshiCredentialsMissing));
    assert!(error.to_string().contains("requires an API key"), "{error}");
}

#[tokio::test]
async fn an_empty_book_is_live_too() {
    // A market the recording does not hold: the replay answers an empty snapshot.
    let server = fast_server();
    let (connector, mut updates) = start(&server);
    connector.follow(&kalshi_market("KXNOTRECORDED-1"));
    let seen = until(&mut updates, is_book).await;
    let MarketChange::Book { outcomes } = &seen.last().unwrap().change else {
        unreachable!()
    };
    assert_eq!(outcomes[0].ladder, Ladder::default());
    assert_eq!(outcomes[1].ladder, Ladder::default());
}
