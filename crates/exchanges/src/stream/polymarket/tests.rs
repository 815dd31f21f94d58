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

fn followed() -> PolymarketSession {
    let mut session = PolymarketSession::new();
    session.follow(&market());
    session.connected(now());
    session
}

fn book(asset: &str) -> String {
    json!({"event_type": "book", "asset_id": asset, "market": "0x14", "timestamp": "1770921000000",
        "bids": [{"price": "0.01", "size": "100"}, {"price": "0.45", "size": "20"}],
        "asks": [{"price": "0.99", "size": "5"}, {"price": "0.47", "size": "30"}]})
    .to_string()
}

#[test]
fn the_first_message_subscribes_every_token_and_later_ones_change_the_set() {
    let mut session = PolymarketSession::new();
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
    let sent: Vec<Value> = session
        .flush(now())
        .messages
        .iter()
        .map(|text| serde_json::from_str(text).unwrap())
        .collect();
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
fn a_price_change_of_the_first_token_changes_both_outcomes() {
    let mut session = followed();
    session.frame(&book("111"), now()).unwrap();
    let change = json!({"event_type": "price_change", "market": "0x14", "timestamp": "1770921571400",
    "price_changes": [
        {"asset_id": "111", "price": "0.45", "size": "0", "side": "BUY", "hash": "a", "best_bid": "0.44", "best_ask": "0.47"},
        {"asset_id": "222", "price": "0.55", "size": "0", "side": "SELL", "hash": "b", "best_bid": "0.53", "best_ask": "0.56"}
    ]});
    let reaction = session.frame(&change.to_string(), now()).unwrap();
    let kinds: Vec<&MarketChange> = reaction.updates.iter().map(|update| &update.change).collect();
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    let MarketChange::Price(up) = kinds[0] else {
        panic!("not a price")
    };
    assert_eq!(
        (up.outcome.as_str(), up.best_bid, up.best_ask),
        ("Up", Some(0.44), Some(0.47))
    );
    let MarketChange::Price(down) = kinds[1] else {
        panic!("not a price")
    };
    assert_eq!(
        (down.outcome.as_str(), down.best_bid, down.best_ask),
        ("Down", Some(0.53), Some(0.56))
    );
    assert_eq!(
        kinds[2],
        &MarketChange::Levels {
            changes: vec![
                LevelChange {
                    outcome: "Up".into(),
                    side: BookSide::Bid,
                    price: 0.45,
                    size: 0.0
                },
                LevelChange {
                    outcome: "Down".into(),
                    side: BookSide::Ask,
                    price: 0.55,
                    size: 0.0
                },
            ]
        }
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
