use marketlens_domain::depth::{Ladder, Level, TakerSide};
use marketlens_domain::stream::{BookSide, FeedState, LevelChange};
use marketlens_domain::time::from_epoch_millis;
use serde_json::{Value, json};

use super::*;

fn market() -> StreamMarket {
    StreamMarket {
        id: Uuid::from_u128(1),
        exchange: Exchange::Polymarket,
        external_id: "512272".into(),
        outcomes: vec!["Up".into(), "Down".into()],
        tokens: vec!["111".into(), "222".into()],
    }
}

fn now() -> Timestamp {
    from_epoch_millis(1_770_921_571_394)
}

fn level(price: f64, size: f64) -> Level {
    Level { price, size }
}

/// A connected session following `market`.
fn following(market: &StreamMarket) -> PolymarketSession {
    let mut session = PolymarketSession::default();
    session.follow(market);
    session.connected(now());
    session
}

fn followed() -> PolymarketSession {
    following(&market())
}

fn book(asset: &str) -> String {
    json!({"event_type": "book", "asset_id": asset, "market": "0x14", "timestamp": "1770921000000",
        "bids": [{"price": "0.01", "size": "100"}, {"price": "0.45", "size": "20"}],
        "asks": [{"price": "0.99", "size": "5"}, {"price": "0.47", "size": "30"}]})
    .to_string()
}

#[test]
fn the_first_message_subscribes_every_token_and_later_ones_change_the_set() {
    let mut session = PolymarketSession::default();
    session.follow(&market());
    let first: Value = serde_json::from_str(&session.connected(now()).messages[0]).unwrap();
    assert_eq!(first, json!({"assets_ids": ["111", "222"], "type": "market"}));
    let other = StreamMarket {
        id: Uuid::from_u128(2),
        tokens: vec!["333".into(), "444".into()],
        ..market()
    };
    session.follow(&other);
    session.unfollow(market().id);
    let sent = session.flush(now()).sent();
    assert_eq!(
        sent,
        vec![
            json!({"assets_ids": ["333", "444"], "operation": "subscribe"}),
            json!({"assets_ids": ["111", "222"], "operation": "unsubscribe"})
        ]
    );
    assert_eq!(session.heartbeat(), Some("PING"));
    assert!(session.frame("PONG", now()).unwrap().updates.is_empty());
}

#[test]
fn the_first_tokens_book_is_both_outcomes_books_and_the_second_tokens_is_not_used() {
    let mut session = followed();
    let reaction = session.frame(&book("111"), now()).unwrap();
    assert_eq!(
        reaction.updates[0].change,
        MarketChange::State { state: FeedState::Live }
    );
    assert_eq!(reaction.updates[1].time, from_epoch_millis(1_770_921_000_000));
    let MarketChange::Book { outcomes } = &reaction.updates[1].change else {
        panic!("not a book")
    };
    assert_eq!(
        outcomes[0].ladder,
        Ladder::new(
            [level(0.45, 20.0), level(0.01, 100.0)],
            [level(0.47, 30.0), level(0.99, 5.0)]
        )
    );
    assert_eq!(outcomes[1].outcome, "Down");
    assert_eq!(outcomes[1].ladder.bids, vec![level(0.53, 30.0), level(0.01, 5.0)]);
    assert_eq!(outcomes[1].ladder.asks, vec![level(0.55, 20.0), level(0.99, 100.0)]);
    assert!(session.frame(&book("222"), now()).unwrap().updates.is_empty());
}

#[test]
fn a_price_change_of_the_first_token_changes_both_outcomes_and_their_prices() {
    let mut session = followed();
    session.frame(&book("111"), now()).unwrap();
    let change = json!({"event_type": "price_change", "market": "0x14", "timestamp": "1770921571400",
    "price_changes": [
        {"asset_id": "111", "price": "0.45", "size": "0", "side": "BUY", "hash": "a", "best_bid": "0.01", "best_ask": "0.47"},
        {"asset_id": "111", "price": "0.44", "size": "15", "side": "BUY", "hash": "b", "best_bid": "0.44", "best_ask": "0.47"},
        {"asset_id": "222", "price": "0.55", "size": "0", "side": "SELL", "hash": "c", "best_bid": "0.53", "best_ask": "0.56"}
    ]});
    let reaction = session.frame(&change.to_string(), now()).unwrap();
    let kinds: Vec<&MarketChange> = reaction.updates.iter().map(|update| &update.change).collect();
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    let change = |outcome: &str, side, price, size| LevelChange {
        outcome: outcome.into(),
        side,
        price,
        size,
    };
    assert_eq!(
        kinds[0],
        &MarketChange::Levels {
            changes: vec![
                change("Up", BookSide::Bid, 0.45, 0.0),
                change("Down", BookSide::Ask, 0.55, 0.0),
                change("Up", BookSide::Bid, 0.44, 15.0),
                change("Down", BookSide::Ask, 0.56, 15.0),
            ]
        }
    );
    // Then the book's best prices as the frame left them, each outcome's displayed price the
    // middle of its book (spread 0.03).
    let MarketChange::Price(up) = kinds[1] else {
        panic!("not a price")
    };
    assert_eq!(
        (up.outcome.as_str(), up.best_bid, up.best_ask, up.price),
        ("Up", Some(0.44), Some(0.47), Some(0.455))
    );
    let MarketChange::Price(down) = kinds[2] else {
        panic!("not a price")
    };
    assert_eq!(
        (down.outcome.as_str(), down.best_bid, down.best_ask, down.price),
        ("Down", Some(0.53), Some(0.56), Some(0.545))
    );
}

#[test]
fn trades_of_the_second_token_are_the_second_outcomes() {
    let mut session = followed();
    let trade = json!({"asset_id": "222", "event_type": "last_trade_price", "fee_rate_bps": "0",
        "market": "0x14", "price": "0.53", "side": "SELL", "size": "1", "timestamp": "1770921574972",
        "transaction_hash": "0x82ac"});
    let reaction = session.frame(&trade.to_string(), now()).unwrap();
    let MarketChange::Trade(trade) = &reaction.updates[0].change else {
        panic!("not a trade")
    };
    assert_eq!(
        (trade.outcome.as_str(), trade.price, trade.taker_side, trade.id.as_str()),
        ("Down", 0.53, TakerSide::Sell, "0x82ac-222")
    );
    let MarketChange::Price(price) = &reaction.updates[1].change else {
        panic!("not a price")
    };
    assert_eq!((price.outcome.as_str(), price.last), ("Down", Some(0.53)));
    // One rule with Kalshi and the catalogue: the other outcome's last is the complement.
    let MarketChange::Price(other) = &reaction.updates[2].change else {
        panic!("not a price")
    };
    assert_eq!((other.outcome.as_str(), other.last), ("Up", Some(0.47)));
}

#[test]
fn a_drop_interrupts_every_market_once_and_a_market_without_tokens_at_once() {
    let mut session = followed();
    session.frame(&book("111"), now()).unwrap();
    let dropped = session.disconnected(now());
    assert_eq!(dropped.updates.len(), 1);
    assert_eq!(
        dropped.updates[0].change,
        MarketChange::State {
            state: FeedState::Interrupted
        }
    );
    assert!(session.disconnected(now()).updates.is_empty());
    // Level changes before the next book have nothing to apply to.
    let reconnected = session.connected(now());
    assert_eq!(reconnected.messages.len(), 1);
    let change = json!({"event_type": "price_change", "market": "0x14", "price_changes": [
        {"asset_id": "111", "price": "0.45", "size": "3", "side": "BUY"}]});
    assert!(session.frame(&change.to_string(), now()).unwrap().updates.is_empty());
    let tokenless = StreamMarket {
        id: Uuid::from_u128(3),
        tokens: Vec::new(),
        ..market()
    };
    session.follow(&tokenless);
    let reaction = session.flush(now());
    assert_eq!(reaction.updates[0].market, tokenless.id);
    assert_eq!(
        reaction.updates[0].change,
        MarketChange::State {
            state: FeedState::Interrupted
        }
    );
    assert!(reaction.messages.is_empty());
}

#[test]
fn before_the_first_book_a_frame_states_each_tokens_best_prices_as_its_last_entry_left_them() {
    let mut session = followed();
    let change = json!({"event_type": "price_change", "market": "0x14", "price_changes": [
        {"asset_id": "111", "price": "0.40", "size": "5", "side": "BUY", "best_bid": "0.40", "best_ask": "0.60"},
        {"asset_id": "111", "price": "0.41", "size": "5", "side": "BUY", "best_bid": "0.41", "best_ask": "0.43"}
    ]});
    let reaction = session.frame(&change.to_string(), now()).unwrap();
    assert_eq!(
        prices(&reaction),
        [priced("Up", Some(0.42), None), priced("Down", Some(0.58), None)]
    );
}

#[test]
fn a_market_without_outcomes_changes_nothing_and_does_not_panic() {
    let nameless = StreamMarket {
        outcomes: Vec::new(),
        ..market()
    };
    let mut session = following(&nameless);
    session.frame(&book("111"), now()).unwrap();
    let change = json!({"event_type": "price_change", "market": "0x14", "price_changes": [
        {"asset_id": "111", "price": "0.45", "size": "3", "side": "BUY"}]});
    let reaction = session.frame(&change.to_string(), now()).unwrap();
    assert!(
        reaction
            .updates
            .iter()
            .all(|update| !matches!(update.change, MarketChange::Levels { .. })),
        "{reaction:?}"
    );
}

#[test]
fn a_token_without_a_book_in_time_is_interrupted_and_subscribed_again() {
    let mut session = PolymarketSession::new(std::time::Duration::from_secs(5));
    session.follow(&market());
    session.connected(now());
    assert!(session.tick(now() + chrono::TimeDelta::seconds(4)).updates.is_empty());
    let overdue = session.tick(now() + chrono::TimeDelta::seconds(5));
    assert_eq!(
        overdue.updates[0].change,
        MarketChange::State {
            state: FeedState::Interrupted
        }
    );
    let sent = overdue.sent();
    assert_eq!(
        sent,
        vec![
            json!({"assets_ids": ["111", "222"], "operation": "unsubscribe"}),
            json!({"assets_ids": ["111", "222"], "operation": "subscribe"})
        ]
    );
    // A book ends the waiting.
    session.frame(&book("111"), now()).unwrap();
    assert!(session.tick(now() + chrono::TimeDelta::days(1)).messages.is_empty());
    // A lagging reader's resync interrupts the live market and asks for a fresh book.
    let resync = session.resync(&[market().id], now());
    assert_eq!(
        resync.updates[0].change,
        MarketChange::State {
            state: FeedState::Interrupted
        }
    );
    assert_eq!(resync.messages.len(), 2);
}

/// The frames of a recording of `demo-data/depth/polymarket/` (copies of the shared fixtures,
/// `demo-data/depth/SOURCES.md`), one a line.
fn recorded(file: &str) -> Vec<Value> {
    let path = format!("{}/../../demo-data/depth/polymarket/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// Each price tick of `reaction`: its outcome, displayed price and last trade.
fn prices(reaction: &Reaction) -> Vec<(String, Option<f64>, Option<f64>)> {
    reaction
        .updates
        .iter()
        .filter_map(|update| match &update.change {
            MarketChange::Price(tick) => Some((tick.outcome.clone(), tick.price, tick.last)),
            _ => None,
        })
        .collect()
}

fn priced(outcome: &str, price: Option<f64>, last: Option<f64>) -> (String, Option<f64>, Option<f64>) {
    (outcome.to_owned(), price, last)
}

#[test]
fn a_recorded_tight_book_prices_its_outcomes_at_the_middle_whatever_the_trades() {
    // Line 4 of ws-book-2.jsonl: market 0x14002070, best bid 0.46 and ask 0.47 of its first
    // token, whose tokens trade in ws-last-trade-price-1.jsonl.
    let recorded_book = &recorded("ws-book-2.jsonl")[3];
    let first_token = recorded_book["asset_id"].as_str().unwrap();
    let trades: Vec<Value> = recorded("ws-last-trade-price-1.jsonl")
        .into_iter()
        .filter(|trade| trade["market"] == recorded_book["market"])
        .collect();
    let second_token = trades
        .iter()
        .map(|trade| trade["asset_id"].as_str().unwrap())
        .find(|token| *token != first_token)
        .unwrap();
    let up_down = StreamMarket {
        tokens: vec![first_token.to_owned(), second_token.to_owned()],
        ..market()
    };
    let mut session = following(&up_down);
    let reaction = session.frame(&recorded_book.to_string(), now()).unwrap();
    assert_eq!(
        prices(&reaction),
        [priced("Up", Some(0.465), None), priced("Down", Some(0.535), None)]
    );
    // The first trade is at 0.46 of the first token: the last price moves, the displayed one
    // stays the middle of the book, as Polymarket shows it with a spread of 0.01.
    let reaction = session.frame(&trades[0].to_string(), now()).unwrap();
    assert_eq!(
        prices(&reaction),
        [
            priced("Up", Some(0.465), Some(0.46)),
            priced("Down", Some(0.535), Some(0.54))
        ]
    );
    for trade in &trades[1..] {
        let reaction = session.frame(&trade.to_string(), now()).unwrap();
        for (outcome, price, _) in prices(&reaction) {
            let middle = if outcome == "Up" { 0.465 } else { 0.535 };
            assert_eq!(price, Some(middle), "{outcome} after {trade}");
        }
    }
}

#[test]
fn a_recorded_one_sided_book_counts_its_empty_side_as_an_ask_of_one() {
    // Line 2 of ws-book-2.jsonl: 26 bids up to 0.999 and no ask. Polymarket counts the empty
    // side as an ask of 1 (a recorded `/midpoint` of a book without bids is half its best
    // ask): a spread of 0.001, so the middle of the book.
    let recorded_book = &recorded("ws-book-2.jsonl")[1];
    let first_token = recorded_book["asset_id"].as_str().unwrap();
    let market = StreamMarket {
        tokens: vec![first_token.to_owned(), "second".into()],
        ..market()
    };
    let mut session = following(&market);
    let reaction = session.frame(&recorded_book.to_string(), now()).unwrap();
    assert_eq!(
        prices(&reaction),
        [priced("Up", Some(0.9995), None), priced("Down", Some(0.0005), None)]
    );
    // The recording has no trade of this market: one at its best bid, in the recorded form,
    // changes the last trade, not the price.
    let trade = json!({"asset_id": first_token, "event_type": "last_trade_price", "fee_rate_bps": "0",
        "market": recorded_book["market"], "price": "0.999", "side": "SELL", "size": "10",
        "timestamp": "1770921600000", "transaction_hash": "0x01"});
    let reaction = session.frame(&trade.to_string(), now()).unwrap();
    assert_eq!(
        prices(&reaction),
        [
            priced("Up", Some(0.9995), Some(0.999)),
            priced("Down", Some(0.0005), Some(0.001))
        ]
    );
}
