use marketlens_domain::depth::{Ladder, Level, OutcomeBook};
use marketlens_domain::stream::FeedState;
use marketlens_domain::time::from_epoch_millis;
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

const TICKER: &str = "KXTEST-1";

fn market() -> StreamMarket {
    StreamMarket {
        id: Uuid::from_u128(1),
        exchange: Exchange::Kalshi,
        external_id: TICKER.into(),
        outcomes: vec!["Yes".into(), "No".into()],
        tokens: Vec::new(),
    }
}

fn now() -> Timestamp {
    from_epoch_millis(1_786_085_188_416)
}

/// A session following the market, connected, its subscription answered with sid 1.
fn subscribed() -> (KalshiSession, Vec<Value>) {
    let mut session = KalshiSession::new();
    session.follow(&market());
    let reaction = session.connected(now());
    let sent: Vec<Value> = reaction
        .messages
        .iter()
        .map(|text| serde_json::from_str(text).unwrap())
        .collect();
    for (sid, channel) in [(1, "orderbook_delta"), (2, "ticker"), (3, "trade")] {
        let reply = json!({"type": "subscribed", "id": sent[0]["id"], "msg": {"channel": channel, "sid": sid}});
        session.frame(&reply.to_string(), now()).unwrap();
    }
    (session, sent)
}

fn snapshot(seq: u64, yes: &[(f64, f64)], no: &[(f64, f64)]) -> String {
    let levels = |side: &[(f64, f64)]| -> Vec<[String; 2]> {
        side.iter()
            .map(|(price, size)| [format!("{price:.4}"), format!("{size:.2}")])
            .collect()
    };
    json!({"type": "orderbook_snapshot", "sid": 1, "seq": seq, "msg": {"market_ticker": TICKER,
        "market_id": "x", "yes_dollars_fp": levels(yes), "no_dollars_fp": levels(no)}})
    .to_string()
}

fn delta(seq: u64, side: &str, price: f64, change: f64) -> String {
    json!({"type": "orderbook_delta", "sid": 1, "seq": seq, "msg": {"market_ticker": TICKER,
        "price_dollars": format!("{price:.4}"), "delta_fp": format!("{change:.2}"), "side": side,
        "ts": "2026-08-07T06:46:29.5Z", "ts_ms": 1_786_085_189_500_u64}})
    .to_string()
}

fn changes(reaction: &Reaction) -> Vec<MarketChange> {
    reaction.updates.iter().map(|update| update.change.clone()).collect()
}

fn level(price: f64, size: f64) -> Level {
    Level { price, size }
}

#[test]
fn one_subscribe_command_asks_for_books_tickers_and_trades() {
    let (_, sent) = subscribed();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["cmd"], "subscribe");
    assert_eq!(
        sent[0]["params"]["channels"],
        json!(["orderbook_delta", "ticker", "trade"])
    );
    assert_eq!(sent[0]["params"]["market_tickers"], json!([TICKER]));
}

#[test]
fn a_snapshot_is_a_whole_book_with_no_bids_as_yes_asks() {
    // docs/API.md's worked example: YES bids 0.70, NO bids 0.28, so YES asks 0.72.
    let (mut session, _) = subscribed();
    let reaction = session
        .frame(&snapshot(1, &[(0.69, 5.0), (0.70, 10.0)], &[(0.28, 7.0)]), now())
        .unwrap();
    assert_eq!(
        changes(&reaction),
        vec![
            MarketChange::State { state: FeedState::Live },
            MarketChange::Book {
                outcomes: vec![
                    OutcomeBook {
                        outcome: "Yes".into(),
                        ladder: Ladder::new([level(0.70, 10.0), level(0.69, 5.0)], [level(0.72, 7.0)]),
                    },
                    OutcomeBook {
                        outcome: "No".into(),
                        ladder: Ladder::new([level(0.28, 7.0)], [level(0.30, 10.0), level(0.31, 5.0)]),
                    },
                ],
            },
        ]
    );
}

#[test]
fn deltas_are_applied_and_sent_as_sizes_on_both_outcomes() {
    let (mut session, _) = subscribed();
    session
        .frame(&snapshot(1, &[(0.70, 10.0)], &[(0.28, 7.0)]), now())
        .unwrap();
    let yes = session.frame(&delta(2, "yes", 0.70, -4.5), now()).unwrap();
    assert_eq!(yes.updates[0].time, from_epoch_millis(1_786_085_189_500));
    let no = session.frame(&delta(3, "no", 0.28, -7.0), now()).unwrap();
    let sent: Vec<Vec<(String, BookSide, f64, f64)>> = [yes, no]
        .iter()
        .flat_map(|reaction| &reaction.updates)
        .map(|update| match &update.change {
            MarketChange::Levels { changes } => changes
                .iter()
                .map(|change| (change.outcome.clone(), change.side, change.price, change.size))
                .collect(),
            other => panic!("not levels: {other:?}"),
        })
        .collect();
    let level = |outcome: &str, side, price, size| (outcome.to_owned(), side, price, size);
    assert_eq!(
        sent,
        [
            [
                level("Yes", BookSide::Bid, 0.70, 5.5),
                level("No", BookSide::Ask, 0.30, 5.5)
            ],
            [
                level("Yes", BookSide::Ask, 0.72, 0.0),
                level("No", BookSide::Bid, 0.28, 0.0)
            ],
        ]
    );
}

#[test]
fn a_sequence_gap_interrupts_and_asks_for_a_fresh_snapshot() {
    let (mut session, _) = subscribed();
    session.frame(&snapshot(1, &[(0.70, 10.0)], &[]), now()).unwrap();
    let gap = session.frame(&delta(3, "yes", 0.70, 1.0), now()).unwrap();
    assert_eq!(
        changes(&gap),
        vec![MarketChange::State {
            state: FeedState::Interrupted
        }]
    );
    assert_eq!(gap.problems.len(), 1);
    let sent: Vec<Value> = gap
        .messages
        .iter()
        .map(|text| serde_json::from_str(text).unwrap())
        .collect();
    assert_eq!(
        (sent[0]["cmd"].as_str(), &sent[0]["params"]["sids"]),
        (Some("unsubscribe"), &json!([1]))
    );
    assert_eq!(sent[1]["cmd"], "subscribe");
    assert_eq!(sent[1]["params"]["channels"], json!(["orderbook_delta"]));
    // Deltas of the old subscription are ignored; the new one's snapshot makes it live.
    assert!(
        session
            .frame(&delta(4, "yes", 0.70, 1.0), now())
            .unwrap()
            .updates
            .is_empty()
    );
    let answer = json!({"type": "subscribed", "id": sent[1]["id"], "msg": {"channel": "orderbook_delta", "sid": 4}});
    session.frame(&answer.to_string(), now()).unwrap();
    let fresh = snapshot(1, &[(0.71, 3.0)], &[]).replace("\"sid\":1", "\"sid\":4");
    let fresh = session.frame(&fresh, now()).unwrap();
    assert_eq!(fresh.updates[0].change, MarketChange::State { state: FeedState::Live });
    assert!(matches!(fresh.updates[1].change, MarketChange::Book { .. }));
}

#[test]
fn ok_replies_use_up_a_sequence_number() {
    let (mut session, _) = subscribed();
    session.frame(&snapshot(1, &[(0.70, 10.0)], &[]), now()).unwrap();
    let ok = json!({"type": "ok", "id": 4, "sid": 1, "seq": 2, "msg": {"market_tickers": [TICKER]}});
    session.frame(&ok.to_string(), now()).unwrap();
    let next = session.frame(&delta(3, "yes", 0.70, 1.0), now()).unwrap();
    assert!(next.problems.is_empty());
    assert_eq!(next.updates.len(), 1);
}

#[test]
fn unfollowing_leaves_the_subscriptions() {
    let (mut session, _) = subscribed();
    let other = StreamMarket {
        id: Uuid::from_u128(2),
        external_id: "KXOTHER-1".into(),
        ..market()
    };
    session.follow(&other);
    let added = session.flush(now());
    let sent: Value = serde_json::from_str(&added.messages[0]).unwrap();
    assert_eq!(sent["params"]["market_tickers"], json!(["KXOTHER-1"]));
    session.unfollow(market().id);
    let left = session.flush(now());
    let sent: Value = serde_json::from_str(&left.messages[0]).unwrap();
    assert_eq!(sent["cmd"], "unsubscribe");
    assert_eq!(sent["params"]["sids"], json!([1, 2, 3]));
    // Frames of a market no longer followed are ignored.
    assert!(
        session
            .frame(&snapshot(9, &[(0.5, 1.0)], &[]), now())
            .unwrap()
            .updates
            .is_empty()
    );
}

#[test]
fn tickers_and_trades_name_both_outcomes() {
    let (mut session, _) = subscribed();
    let ticker = json!({"type": "ticker", "sid": 2, "msg": {"market_ticker": TICKER, "price": 14,
        "yes_bid": 4, "yes_ask": 95, "price_dollars": "0.1400", "yes_bid_dollars": "0.0400",
        "yes_ask_dollars": "0.9500", "ts": 1_770_897_976, "Clock": 13_281_241_747_u64}});
    let reaction = session.frame(&ticker.to_string(), now()).unwrap();
    let MarketChange::Price(no) = &reaction.updates[1].change else {
        panic!("not a price")
    };
    assert_eq!(
        (no.outcome.as_str(), no.last, no.best_bid, no.best_ask),
        ("No", Some(0.86), Some(0.05), Some(0.96))
    );
    let trade = json!({"type": "trade", "sid": 3, "seq": 1, "msg": {"trade_id": "t-1", "market_ticker": TICKER,
        "yes_price": 77, "no_price": 23, "yes_price_dollars": "0.7700", "no_price_dollars": "0.2300",
        "count": 75, "count_fp": "75.00", "taker_side": "no", "ts": 1_770_897_981}});
    let reaction = session.frame(&trade.to_string(), now()).unwrap();
    let MarketChange::Trade(trade) = &reaction.updates[0].change else {
        panic!("not a trade")
    };
    assert_eq!((trade.outcome.as_str(), trade.price, trade.size), ("No", 0.23, 75.0));
}

#[test]
fn a_subscribe_error_interrupts_its_markets() {
    let mut session = KalshiSession::new();
    session.follow(&market());
    session.connected(now());
    let error = json!({"id": 1, "type": "error", "msg": {"code": 9, "msg": "Authentication required"}});
    let reaction = session.frame(&error.to_string(), now()).unwrap();
    assert_eq!(
        changes(&reaction),
        vec![MarketChange::State {
            state: FeedState::Interrupted
        }]
    );
    assert_eq!(reaction.problems, vec!["error 9: Authentication required".to_owned()]);
}

/// The first outcome's book a client holds after applying `updates` as the stream contract
/// says: a `Book` replaces it, a level change sets one level.
fn client_book(updates: &[MarketUpdate]) -> Ladder {
    let mut bids = LevelMap::default();
    let mut asks = LevelMap::default();
    for update in updates {
        match &update.change {
            MarketChange::Book { outcomes } => {
                bids = LevelMap::from_levels(outcomes[0].ladder.bids.iter().copied());
                asks = LevelMap::from_levels(outcomes[0].ladder.asks.iter().copied());
            }
            MarketChange::Levels { changes } => {
                for change in changes.iter().filter(|change| change.outcome == "Yes") {
                    match change.side {
                        BookSide::Bid => bids.set(change.price, change.size),
                        BookSide::Ask => asks.set(change.price, change.size),
                    };
                }
            }
            _ => {}
        }
    }
    Ladder::new(bids.levels(), asks.levels())
}

fn cents_level() -> impl Strategy<Value = (f64, f64)> {
    (1u32..100, 1u32..500).prop_map(|(cents, size)| (f64::from(cents) / 100.0, f64::from(size)))
}

proptest! {
    #[test]
    fn random_deltas_keep_the_book_equal_to_one_recomputed(
        yes in prop::collection::vec(cents_level(), 0..8),
        no in prop::collection::vec(cents_level(), 0..8),
        deltas in prop::collection::vec((any::<bool>(), 1u32..100, -300i32..300, 0u32..100), 0..40),
    ) {
        let (mut session, _) = subscribed();
        let mut updates = session.frame(&snapshot(1, &yes, &no), now()).unwrap().updates;
        let mut yes_bids = LevelMap::from_levels(yes.iter().map(|&(price, size)| level(price, size)));
        let mut no_bids = LevelMap::from_levels(no.iter().map(|&(price, size)| level(price, size)));
        for (seq, (is_yes, cents, change, hundredths)) in deltas.into_iter().enumerate() {
            let price = f64::from(cents) / 100.0;
            let side = if is_yes { &mut yes_bids } else { &mut no_bids };
            // Kalshi never takes a level below zero; a delta that would is clamped to the size.
            let change = (f64::from(change) + f64::from(hundredths) / 100.0).max(-side.size_at(price));
            // As sent: two decimals.
            let change: f64 = format!("{change:.2}").parse().unwrap();
            side.add(price, change);
            let frame = delta(seq as u64 + 2, if is_yes { "yes" } else { "no" }, price, change);
            let reaction = session.frame(&frame, now()).unwrap();
            prop_assert!(reaction.problems.is_empty());
            updates.extend(reaction.updates);
        }
        let recomputed = BidBook { yes: yes_bids, no: no_bids }.ladder();
        prop_assert_eq!(client_book(&updates), recomputed.clone());
        prop_assert_eq!(&session.books[&market().id].ladder(), &recomputed);
    }
}
