use std::collections::HashMap;

use marketlens_domain::depth::{Ladder, Level, OutcomeBook};
use marketlens_domain::stream::{FeedState, PriceTick};
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
    let mut session = KalshiSession::default();
    session.follow(&market());
    let sent = session.connected(now()).sent();
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
    let sent = gap.sent();
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
    let mut session = KalshiSession::default();
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

/// A book side as the test keeps it, independently of the code under test: hundredths of a
/// contract by price in cents, with no empty level.
type Cents = HashMap<(BookSide, i64), i64>;

/// Each outcome's book a client holds after applying `updates` as the stream contract says: a
/// `Book` replaces them, a level change sets one level.
fn client_books(updates: &[MarketUpdate]) -> HashMap<String, Cents> {
    let cents = |price: f64| (price * 100.0).round() as i64;
    let hundredths = |size: f64| (size * 100.0).round() as i64;
    let mut books: HashMap<String, Cents> = HashMap::new();
    for update in updates {
        match &update.change {
            MarketChange::Book { outcomes } => {
                for outcome in outcomes {
                    let book = books.entry(outcome.outcome.clone()).or_default();
                    book.clear();
                    for (side, levels) in [
                        (BookSide::Bid, &outcome.ladder.bids),
                        (BookSide::Ask, &outcome.ladder.asks),
                    ] {
                        for level in levels {
                            book.insert((side, cents(level.price)), hundredths(level.size));
                        }
                    }
                }
            }
            MarketChange::Levels { changes } => {
                for change in changes {
                    let book = books.entry(change.outcome.clone()).or_default();
                    let key = (change.side, cents(change.price));
                    match hundredths(change.size) {
                        0 => book.remove(&key),
                        size => book.insert(key, size),
                    };
                }
            }
            _ => {}
        }
    }
    books
}

/// Both outcomes' books from YES and NO bids kept by the test: YES bids at `p` are YES bids
/// and NO asks at `100 - p`; NO bids likewise the other way round.
fn reference_books(yes_bids: &HashMap<i64, i64>, no_bids: &HashMap<i64, i64>) -> HashMap<String, Cents> {
    let mut yes = Cents::default();
    let mut no = Cents::default();
    for (&price, &size) in yes_bids.iter().filter(|(_, size)| **size > 0) {
        yes.insert((BookSide::Bid, price), size);
        no.insert((BookSide::Ask, 100 - price), size);
    }
    for (&price, &size) in no_bids.iter().filter(|(_, size)| **size > 0) {
        no.insert((BookSide::Bid, price), size);
        yes.insert((BookSide::Ask, 100 - price), size);
    }
    HashMap::from([("Yes".to_owned(), yes), ("No".to_owned(), no)])
}

fn cents_level() -> impl Strategy<Value = (i64, i64)> {
    (1i64..100, 1i64..500).prop_map(|(cents, contracts)| (cents, contracts * 100))
}

fn bids_of(levels: &[(i64, i64)]) -> HashMap<i64, i64> {
    let mut bids = HashMap::new();
    for &(cents, hundredths) in levels {
        *bids.entry(cents).or_default() += hundredths;
    }
    bids
}

fn as_dollars(levels: &[(i64, i64)]) -> Vec<(f64, f64)> {
    levels
        .iter()
        .map(|&(cents, hundredths)| (cents as f64 / 100.0, hundredths as f64 / 100.0))
        .collect()
}

proptest! {
    #[test]
    fn random_deltas_keep_both_books_equal_to_an_independent_reference(
        yes in prop::collection::vec(cents_level(), 0..8),
        no in prop::collection::vec(cents_level(), 0..8),
        deltas in prop::collection::vec((any::<bool>(), 1i64..100, -30_000i64..30_000), 0..40),
    ) {
        let (mut session, _) = subscribed();
        let mut updates = session.frame(&snapshot(1, &as_dollars(&yes), &as_dollars(&no)), now()).unwrap().updates;
        let mut yes_bids = bids_of(&yes);
        let mut no_bids = bids_of(&no);
        for (seq, (is_yes, cents, change)) in deltas.into_iter().enumerate() {
            let side = if is_yes { &mut yes_bids } else { &mut no_bids };
            let frame = delta(seq as u64 + 2, if is_yes { "yes" } else { "no" }, cents as f64 / 100.0, change as f64 / 100.0);
            let reaction = session.frame(&frame, now()).unwrap();
            let size = side.entry(cents).or_default();
            if *size + change < 0 {
                // Kalshi never takes a level below zero: the book is out of step and is
                // resynchronised; nothing of this delta reaches a client.
                prop_assert_eq!(changes(&reaction), vec![MarketChange::State { state: FeedState::Interrupted }]);
                prop_assert_eq!(reaction.problems.len(), 1);
                prop_assert!(reaction.messages.iter().any(|text| text.contains(r#""cmd":"subscribe""#)));
                break;
            }
            *size += change;
            prop_assert!(reaction.problems.is_empty());
            updates.extend(reaction.updates);
        }
        prop_assert_eq!(client_books(&updates), reference_books(&yes_bids, &no_bids));
    }
}

#[test]
fn a_market_without_outcomes_changes_nothing_and_does_not_panic() {
    let mut session = KalshiSession::default();
    session.follow(&StreamMarket {
        outcomes: Vec::new(),
        ..market()
    });
    let sent: Value = serde_json::from_str(&session.connected(now()).messages[0]).unwrap();
    let reply = json!({"type": "subscribed", "id": sent["id"], "msg": {"channel": "orderbook_delta", "sid": 1}});
    session.frame(&reply.to_string(), now()).unwrap();
    session.frame(&snapshot(1, &[(0.70, 10.0)], &[]), now()).unwrap();
    let reaction = session.frame(&delta(2, "yes", 0.70, 1.0), now()).unwrap();
    assert!(reaction.updates.is_empty(), "{reaction:?}");
}

#[test]
fn a_ticker_changes_only_the_prices_it_states() {
    let (mut session, _) = subscribed();
    let full = json!({"type": "ticker", "sid": 2, "msg": {"market_ticker": TICKER, "price_dollars": "0.1400",
        "yes_bid_dollars": "0.0400", "yes_ask_dollars": "0.9500", "ts": 1_770_897_976}});
    session.frame(&full.to_string(), now()).unwrap();
    let last_only = json!({"type": "ticker", "sid": 2, "msg": {"market_ticker": TICKER, "price_dollars": "0.1500",
        "ts": 1_770_897_977}});
    let reaction = session.frame(&last_only.to_string(), now()).unwrap();
    let price = |outcome: &str, last, best_bid, best_ask| {
        MarketChange::Price(PriceTick {
            outcome: outcome.to_owned(),
            // Kalshi displays the last trade.
            price: Some(last),
            last: Some(last),
            best_bid: Some(best_bid),
            best_ask: Some(best_ask),
        })
    };
    assert_eq!(
        changes(&reaction),
        [price("Yes", 0.15, 0.04, 0.95), price("No", 0.85, 0.05, 0.96)]
    );
}

fn kalshi_market(n: u128, ticker: &str) -> StreamMarket {
    StreamMarket {
        id: Uuid::from_u128(n),
        external_id: ticker.into(),
        ..market()
    }
}

/// Answers every channel of subscribe command `command`, numbering sids from `first_sid`.
fn answer(session: &mut KalshiSession, command: &Value, first_sid: u64) {
    let channels = command["params"]["channels"].as_array().unwrap();
    for (sid, channel) in (first_sid..).zip(channels) {
        let reply = json!({"type": "subscribed", "id": command["id"], "msg": {"channel": channel, "sid": sid}});
        session.frame(&reply.to_string(), now()).unwrap();
    }
}

#[test]
fn each_trimmed_subscription_is_told_only_the_tickers_it_held() {
    let mut session = KalshiSession::default();
    let [a, b, c, d] = [(11, "A"), (12, "B"), (13, "C"), (14, "D")].map(|(n, ticker)| kalshi_market(n, ticker));
    session.follow(&a);
    session.follow(&b);
    let first = session.connected(now()).sent();
    answer(&mut session, &first[0], 1);
    session.follow(&c);
    session.follow(&d);
    let second = session.flush(now()).sent();
    answer(&mut session, &second[0], 4);
    session.unfollow(a.id);
    session.unfollow(c.id);
    let left = session.flush(now()).sent();
    let trims: Vec<(u64, Value)> = left
        .iter()
        .map(|command| {
            assert_eq!(command["cmd"], "update_subscription");
            (
                command["params"]["sids"][0].as_u64().unwrap(),
                command["params"]["market_tickers"].clone(),
            )
        })
        .collect();
    let expected: Vec<(u64, Value)> = (1..=6)
        .map(|sid| (sid, if sid <= 3 { json!(["A"]) } else { json!(["C"]) }))
        .collect();
    assert_eq!(trims, expected);
}

#[test]
fn a_delta_below_zero_resynchronises_that_market_alone() {
    let (mut session, _) = subscribed();
    let other = kalshi_market(2, "KXOTHER-1");
    session.follow(&other);
    let added = session.flush(now()).sent();
    answer(&mut session, &added[0], 4);
    session.frame(&snapshot(1, &[(0.70, 10.0)], &[]), now()).unwrap();
    let negative = session.frame(&delta(2, "yes", 0.70, -10.5), now()).unwrap();
    assert_eq!(
        changes(&negative),
        vec![MarketChange::State {
            state: FeedState::Interrupted
        }]
    );
    assert_eq!(negative.problems.len(), 1, "{:?}", negative.problems);
    let commands = negative.sent();
    assert_eq!(commands.len(), 2, "{commands:?}");
    // Out of the book subscription it shares with no one; then a fresh book subscription.
    assert_eq!(
        (commands[0]["cmd"].as_str(), &commands[0]["params"]["sids"]),
        (Some("unsubscribe"), &json!([1]))
    );
    assert_eq!(
        (
            &commands[1]["params"]["channels"],
            &commands[1]["params"]["market_tickers"]
        ),
        (&json!(["orderbook_delta"]), &json!([TICKER]))
    );
    assert!(!session.books.contains_key(&market().id));
}

#[test]
fn a_failed_channel_keeps_the_others_sids_and_is_retried_market_by_market() {
    let mut session = KalshiSession::default();
    let [a, b] = [(11, "A"), (12, "B")].map(|(n, ticker)| kalshi_market(n, ticker));
    session.follow(&a);
    session.follow(&b);
    let command = session.connected(now()).sent().remove(0);
    let error = json!({"id": command["id"], "type": "error", "msg": {"code": 17, "msg": "orderbook_delta refused"}});
    let failed = session.frame(&error.to_string(), now()).unwrap();
    assert_eq!(failed.updates.len(), 2, "both markets interrupted: {failed:?}");
    // The other channels answer after the error: their sids are recorded all the same.
    for (sid, channel) in [(2, "ticker"), (3, "trade")] {
        let reply = json!({"type": "subscribed", "id": command["id"], "msg": {"channel": channel, "sid": sid}});
        session.frame(&reply.to_string(), now()).unwrap();
    }
    assert_eq!(session.subscriptions.len(), 2);
    // Not before the wait is over; then the book channel alone, one market at a time.
    assert!(session.tick(now()).messages.is_empty());
    let retried = session.tick(now() + chrono::TimeDelta::seconds(2)).sent();
    let asked: Vec<(Value, Value)> = retried
        .iter()
        .map(|command| {
            (
                command["params"]["channels"].clone(),
                command["params"]["market_tickers"].clone(),
            )
        })
        .collect();
    assert_eq!(
        asked,
        [
            (json!(["orderbook_delta"]), json!(["A"])),
            (json!(["orderbook_delta"]), json!(["B"]))
        ]
    );
    // A second failure of one waits longer: not retried after 1 s, retried after 2.
    let error = json!({"id": retried[0]["id"], "type": "error", "msg": {"code": 17, "msg": "again"}});
    let later = now() + chrono::TimeDelta::seconds(2);
    session.frame(&error.to_string(), later).unwrap();
    assert!(
        session
            .tick(later + chrono::TimeDelta::milliseconds(1500))
            .messages
            .is_empty()
    );
    assert_eq!(session.tick(later + chrono::TimeDelta::seconds(3)).messages.len(), 1);
    // Unfollowing leaves the sids that answered.
    session.unfollow(a.id);
    session.unfollow(b.id);
    let left = session.flush(later).sent();
    assert_eq!(
        (left[0]["cmd"].as_str(), &left[0]["params"]["sids"]),
        (Some("unsubscribe"), &json!([2, 3]))
    );
}

#[test]
fn a_market_without_a_snapshot_in_time_is_interrupted_and_asked_for_again() {
    let mut session = KalshiSession::new(std::time::Duration::from_secs(5));
    session.follow(&market());
    let command = session.connected(now()).sent().remove(0);
    answer(&mut session, &command, 1);
    assert!(session.tick(now() + chrono::TimeDelta::seconds(4)).updates.is_empty());
    let overdue = session.tick(now() + chrono::TimeDelta::seconds(5));
    assert_eq!(
        changes(&overdue),
        vec![MarketChange::State {
            state: FeedState::Interrupted
        }]
    );
    let commands = overdue.sent();
    assert_eq!(commands[0]["cmd"], "unsubscribe");
    assert_eq!(commands[1]["params"]["channels"], json!(["orderbook_delta"]));
    // The next wait is twice as long; the unanswered command is given up for a new one.
    let again = now() + chrono::TimeDelta::seconds(5);
    assert!(session.tick(again + chrono::TimeDelta::seconds(9)).messages.is_empty());
    let third = session.tick(again + chrono::TimeDelta::seconds(10)).sent();
    assert_eq!(third.len(), 1, "{third:?}");
    assert_eq!(third[0]["params"]["market_tickers"], json!([TICKER]));
    // Should the given-up command be answered after all, its subscription is left.
    let late = json!({"type": "subscribed", "id": commands[1]["id"], "msg": {"channel": "orderbook_delta", "sid": 8}});
    let left = session.frame(&late.to_string(), now()).unwrap().sent();
    assert_eq!(
        (left[0]["cmd"].as_str(), &left[0]["params"]["sids"]),
        (Some("unsubscribe"), &json!([8]))
    );
    // A snapshot ends the waiting.
    let answered = json!({"type": "subscribed", "id": third[0]["id"], "msg": {"channel": "orderbook_delta", "sid": 9}});
    session.frame(&answered.to_string(), now()).unwrap();
    let fresh = snapshot(1, &[(0.5, 1.0)], &[]).replace("\"sid\":1", "\"sid\":9");
    session.frame(&fresh, now()).unwrap();
    assert!(session.tick(again + chrono::TimeDelta::days(1)).messages.is_empty());
}

#[test]
fn a_resync_interrupts_even_an_interrupted_market_and_asks_for_its_book() {
    let (mut session, _) = subscribed();
    for _ in 0..2 {
        let reaction = session.resync(&[market().id], now());
        assert_eq!(
            changes(&reaction),
            vec![MarketChange::State {
                state: FeedState::Interrupted
            }]
        );
        assert_eq!(
            reaction.sent().last().unwrap()["params"]["channels"],
            json!(["orderbook_delta"])
        );
    }
}

#[test]
fn recorded_tickers_price_yes_at_the_last_trade_else_the_middle_of_the_book() {
    // demo-data/depth/kalshi/ws-ticker-1.jsonl, a copy of the shared fixture.
    let path = format!(
        "{}/../../demo-data/depth/kalshi/ws-ticker-1.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let frames: Vec<Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let mut session = KalshiSession::default();
    for (n, frame) in frames.iter().enumerate() {
        session.follow(&kalshi_market(
            n as u128,
            frame["msg"]["market_ticker"].as_str().unwrap(),
        ));
    }
    session.connected(now());
    let mut yes_price = |frame: &Value| {
        let reaction = session.frame(&frame.to_string(), now()).unwrap();
        changes(&reaction).into_iter().find_map(|change| match change {
            MarketChange::Price(tick) if tick.outcome == "Yes" => Some(tick.price),
            _ => None,
        })
    };
    // Line 1: last 0.14, bid 0.04, ask 0.95: Kalshi shows the last trade.
    assert_eq!(yes_price(&frames[0]), Some(Some(0.14)));
    // Line 10: never traded (last 0), bid 0.02, ask 0.07: the middle of the book.
    assert_eq!(yes_price(&frames[9]), Some(Some(0.045)));
    // Line 3: never traded, bid 0.97 and no ask (1.0000): no price to show.
    assert_eq!(yes_price(&frames[2]), Some(None));
}
