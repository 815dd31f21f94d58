use marketlens_connectors::Connector;
use marketlens_domain::Exchange;
use marketlens_domain::depth::TakerSide;
use marketlens_domain::stream::{BookSide, FeedState, LiveFeed, MarketChange, MarketUpdate, StreamMarket};
use marketlens_replay::{ReplayData, ReplayServer, StreamFault};
use serde_json::Value;
use tokio::sync::mpsc;

use super::*;

/// The market of `polymarket/ws-book-2.jsonl` line 4, whose two tokens trade in
/// `ws-last-trade-price-1.jsonl` and change in the written price changes.
const FIRST_TOKEN: &str = "1627500284739545390204314775735988068784669364445492030335161034375823784781";
const SECOND_TOKEN: &str = "7849332184617640056758089974170387917558941201674921732369975950049491747956";

fn up_down() -> StreamMarket {
    market(
        Exchange::Polymarket,
        "0x14002070",
        ["Up", "Down"],
        vec![FIRST_TOKEN.to_owned(), SECOND_TOKEN.to_owned()],
    )
}

fn start() -> (ReplayServer, Connector, mpsc::Receiver<MarketUpdate>) {
    let server = ReplayServer::start(ReplayData::default());
    server.set_stream_speed(f64::INFINITY);
    let (sender, updates) = mpsc::channel(4096);
    let connector = Connector::polymarket(&server.polymarket_ws_url(), sender, settings());
    (server, connector, updates)
}

fn price(level: &Value) -> f64 {
    level["price"].as_str().unwrap().parse().unwrap()
}

#[tokio::test]
async fn every_recorded_book_is_the_first_outcomes_and_the_second_is_its_complement() {
    let (_server, connector, mut updates) = start();
    let mut books: Vec<Value> = vec![serde_json::from_str(&recorded("polymarket/ws-book-1.json")).unwrap()];
    books.extend(recorded_lines("polymarket/ws-book-2.jsonl"));
    assert_eq!(books.len(), 11);
    for (index, book) in books.iter().enumerate() {
        let token = book["asset_id"].as_str().unwrap().to_owned();
        let followed = market(
            Exchange::Polymarket,
            &token,
            ["Yes", "No"],
            vec![token.clone(), format!("other-{index}")],
        );
        connector.follow(&followed);
        let update = until(&mut updates, |update| is_book(update) && update.market == followed.id)
            .await
            .pop()
            .unwrap();
        let MarketChange::Book { outcomes } = update.change else {
            unreachable!()
        };
        let bids: Vec<f64> = book["bids"].as_array().unwrap().iter().map(price).collect();
        let asks: Vec<f64> = book["asks"].as_array().unwrap().iter().map(price).collect();
        let yes = &outcomes[0].ladder;
        assert_eq!((yes.bids.len(), yes.asks.len()), (bids.len(), asks.len()), "{token}");
        // Recorded best level last; served best first.
        assert_eq!(yes.best_bid(), bids.last().copied(), "{token}");
        assert_eq!(yes.best_ask(), asks.last().copied(), "{token}");
        assert!(yes.bids.windows(2).all(|pair| pair[0].price > pair[1].price));
        assert!(yes.asks.windows(2).all(|pair| pair[0].price < pair[1].price));
        assert_eq!(outcomes[1].ladder, yes.complement());
        // The exchange's time of the book.
        let millis: i64 = book["timestamp"].as_str().unwrap().parse().unwrap();
        assert_eq!(update.time.timestamp_millis(), millis);
    }
}

#[tokio::test]
async fn a_subscriber_receives_the_books_trades_and_price_changes_in_recorded_order() {
    let (server, connector, mut updates) = start();
    connector.follow(&up_down());
    let seen = until(&mut updates, is_book).await;
    assert_eq!(kinds(&seen), ["live", "book"]);
    let MarketChange::Book { outcomes } = &seen[1].change else {
        unreachable!()
    };
    assert_eq!(
        (outcomes[0].ladder.bids[0], outcomes[0].ladder.asks[0]),
        (level(0.46, 38.13), level(0.47, 1401.82))
    );
    assert_eq!(
        (outcomes[1].ladder.bids[0], outcomes[1].ladder.asks[0]),
        (level(0.53, 1401.82), level(0.54, 38.13))
    );

    // Nine recorded trades of the market's two tokens, in order, each named by its token's outcome.
    let expected_trades: Vec<(String, f64, f64, TakerSide)> = recorded_lines("polymarket/ws-last-trade-price-1.jsonl")
        .into_iter()
        .filter(|trade| trade["market"] == "0x14002070e74acaf96f70c8dfb881586b156c814fac0c1ac417b84c6c76687d00")
        .map(|trade| {
            let outcome = if trade["asset_id"] == FIRST_TOKEN { "Up" } else { "Down" };
            let side = if trade["side"] == "BUY" {
                TakerSide::Buy
            } else {
                TakerSide::Sell
            };
            (
                outcome.to_owned(),
                price(&trade),
                trade["size"].as_str().unwrap().parse().unwrap(),
                side,
            )
        })
        .collect();
    assert_eq!(expected_trades.len(), 9);
    let mut trades = Vec::new();
    let mut levels = Vec::new();
    while trades.len() < expected_trades.len() || levels.len() < 3 {
        let update = until(&mut updates, |update| {
            matches!(update.change, MarketChange::Trade(_) | MarketChange::Levels { .. })
        })
        .await
        .pop()
        .unwrap();
        match update.change {
            MarketChange::Trade(trade) => trades.push((trade.outcome, trade.price, trade.size, trade.taker_side)),
            MarketChange::Levels { changes } => levels.push(changes),
            _ => unreachable!(),
        }
    }
    assert_eq!(trades, expected_trades);
    // The written price changes: only the first token's levels count, each on both outcomes.
    let levels: Vec<Vec<(&str, BookSide, f64, f64)>> = levels
        .iter()
        .map(|changes| {
            changes
                .iter()
                .map(|change| (change.outcome.as_str(), change.side, change.price, change.size))
                .collect()
        })
        .collect();
    assert_eq!(
        levels,
        [
            vec![("Up", BookSide::Bid, 0.46, 37.93), ("Down", BookSide::Ask, 0.54, 37.93)],
            vec![
                ("Up", BookSide::Ask, 0.47, 1400.82),
                ("Down", BookSide::Bid, 0.53, 1400.82)
            ],
            vec![
                ("Up", BookSide::Bid, 0.46, 0.0),
                ("Down", BookSide::Ask, 0.54, 0.0),
                ("Up", BookSide::Bid, 0.45, 82.93),
                ("Down", BookSide::Ask, 0.55, 82.93),
            ],
        ]
    );
    // One subscription message for both tokens, then heartbeats.
    let sent = server.stream_messages(Exchange::Polymarket);
    let first: Value = serde_json::from_str(&sent[0]).unwrap();
    assert_eq!(
        first,
        serde_json::json!({"assets_ids": [FIRST_TOKEN, SECOND_TOKEN], "type": "market"})
    );
    eventually("a PING", || {
        server
            .stream_messages(Exchange::Polymarket)
            .iter()
            .any(|text| text == "PING")
    })
    .await;
}

#[tokio::test]
async fn the_older_price_change_form_changes_levels_too() {
    let (_server, connector, mut updates) = start();
    let token = "71478852790279095447182996049071040792010759617668969799049179229104800573786";
    connector.follow(&market(
        Exchange::Polymarket,
        token,
        ["Yes", "No"],
        vec![token.to_owned(), "other".into()],
    ));
    let seen = until(&mut updates, |update| {
        matches!(update.change, MarketChange::Levels { .. })
    })
    .await;
    let MarketChange::Levels { changes } = &seen.last().unwrap().change else {
        unreachable!()
    };
    assert_eq!(
        (
            changes[0].side,
            changes[0].price,
            changes[0].size,
            changes[1].outcome.as_str(),
            changes[1].price
        ),
        (BookSide::Ask, 0.993, 0.0, "No", 0.007)
    );
    assert_eq!((changes[2].price, changes[2].size), (0.994, 700_000.0));
}

#[tokio::test]
async fn a_dropped_connection_is_made_again_and_both_tokens_subscribed_again() {
    let (server, connector, mut updates) = start();
    // After the first token's book (the second's is not recorded: the replay sends none).
    server.inject_stream(Exchange::Polymarket, 1, StreamFault::DropConnection);
    connector.follow(&up_down());
    let seen = until(&mut updates, is_state(FeedState::Interrupted)).await;
    // The book's best prices price both outcomes.
    assert_eq!(kinds(&seen), ["live", "book", "price", "price", "interrupted"]);
    let again = until(&mut updates, is_book).await;
    assert_eq!(kinds(&again), ["live", "book"]);
    assert_eq!(server.stream_connections(Exchange::Polymarket), 2);
    let subscriptions = server
        .stream_messages(Exchange::Polymarket)
        .iter()
        .filter(|text| text.contains(r#""type":"market""#) && text.contains(SECOND_TOKEN))
        .count();
    assert_eq!(subscriptions, 2);
}

#[tokio::test]
async fn a_malformed_frame_is_skipped_and_counted() {
    let (server, connector, mut updates) = start();
    server.inject_stream(Exchange::Polymarket, 1, StreamFault::Malformed);
    connector.follow(&up_down());
    let seen = until(&mut updates, |update| matches!(update.change, MarketChange::Trade(_))).await;
    assert!(!kinds(&seen).contains(&"interrupted"));
    assert_eq!(connector.malformed_frames(), 1);
}

#[tokio::test]
async fn the_last_unfollow_unsubscribes_the_tokens() {
    let (server, connector, mut updates) = start();
    connector.follow(&up_down());
    until(&mut updates, is_book).await;
    connector.unfollow(up_down().id);
    eventually("an unsubscribe", || {
        server.stream_messages(Exchange::Polymarket).iter().any(|text| {
            serde_json::from_str::<Value>(text).is_ok_and(|message| {
                message == serde_json::json!({"assets_ids": [FIRST_TOKEN, SECOND_TOKEN], "operation": "unsubscribe"})
            })
        })
    })
    .await;
    assert_eq!(connector.malformed_frames(), 0);
}

#[tokio::test]
async fn a_wss_url_is_tried_over_tls_and_a_failed_connection_interrupts_the_market() {
    // A server that takes the TCP connection and closes it mid-handshake: the client must have
    // built its TLS configuration (a crypto provider is chosen) and report the market
    // interrupted instead of panicking.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((connection, _)) = listener.accept().await {
            drop(connection);
        }
    });
    let (sender, mut updates) = mpsc::channel(16);
    let connector = Connector::polymarket(&format!("wss://{address}/ws/market"), sender, settings());
    connector.follow(&up_down());
    let seen = until(&mut updates, is_state(FeedState::Interrupted)).await;
    assert_eq!(kinds(&seen), ["interrupted"]);
}

#[tokio::test]
async fn markets_beyond_a_connections_bound_get_another_connection() {
    let server = ReplayServer::start(ReplayData::default());
    server.set_stream_speed(f64::INFINITY);
    let (sender, mut updates) = mpsc::channel(4096);
    let settings = ConnectionSettings {
        polymarket_tokens_per_connection: 2,
        ..settings()
    };
    let connector = Connector::polymarket(&server.polymarket_ws_url(), sender, settings);
    // Markets of recorded books (the replay, like the exchange, says nothing of unknown tokens).
    let recorded_token = |line: usize| -> String {
        recorded_lines("polymarket/ws-book-2.jsonl")[line]["asset_id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (other_token, third_token) = (recorded_token(0), recorded_token(1));
    let other = market(
        Exchange::Polymarket,
        "other",
        ["Yes", "No"],
        vec![other_token, "444".into()],
    );
    for followed in [&up_down(), &other] {
        connector.follow(followed);
        until(&mut updates, |update| is_book(update) && update.market == followed.id).await;
    }
    assert_eq!(server.stream_connections(Exchange::Polymarket), 2);
    // The first connection's room, freed, is used again.
    connector.unfollow(up_down().id);
    let third = market(
        Exchange::Polymarket,
        "third",
        ["Yes", "No"],
        vec![third_token.clone(), "666".into()],
    );
    connector.follow(&third);
    until(&mut updates, |update| is_book(update) && update.market == third.id).await;
    // No third connection: the third market was added to an open one (the second is full, so
    // the first) by a subscribe operation, which only an open connection gets.
    assert_eq!(server.stream_connections(Exchange::Polymarket), 2);
    let sent = server.stream_messages(Exchange::Polymarket);
    let added = format!(r#""assets_ids":["{third_token}","666"],"operation":"subscribe""#);
    assert!(sent.iter().any(|text| text.contains(&added)), "{sent:?}");
}

#[tokio::test]
async fn follow_may_be_called_from_a_thread_outside_the_runtime() {
    let (_server, connector, mut updates) = start();
    let connector = std::sync::Arc::new(connector);
    let caller = connector.clone();
    std::thread::spawn(move || caller.follow(&up_down())).join().unwrap();
    until(&mut updates, is_book).await;
}

#[tokio::test]
async fn a_server_that_closes_after_one_frame_is_retried_with_growing_waits() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let accepted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = accepted.clone();
    tokio::spawn(async move {
        while let Ok((connection, _)) = listener.accept().await {
            counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tokio::spawn(async move {
                use futures::SinkExt;
                if let Ok(mut socket) = tokio_tungstenite::accept_async(connection).await {
                    socket
                        .send(tokio_tungstenite::tungstenite::Message::text("PONG"))
                        .await
                        .ok();
                    socket.close(None).await.ok();
                }
            });
        }
    });
    let (sender, _updates) = mpsc::channel(16);
    let connector = Connector::polymarket(&format!("ws://{address}/ws/market"), sender, settings());
    connector.follow(&up_down());
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // Waits of 10-20, 20-40, 40-80, 80-160 ms and then 100-200 ms: about ten attempts. Were
    // the backoff reset by the one frame, every wait would be 10-20 ms: fifty and more.
    let attempts = accepted.load(std::sync::atomic::Ordering::Relaxed);
    assert!((3..=20).contains(&attempts), "{attempts} connections in 1.5 s");
}
