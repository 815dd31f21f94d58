//! Every recorded depth body in `demo-data/depth/` (unmodified copies of the shared
//! fixtures, `demo-data/depth/SOURCES.md`) read into the one form: each Kalshi orderbook
//! generation, Polymarket books, both exchanges' trades, the manifest; and the orientation
//! properties on random books.

use std::fs;
use std::path::{Path, PathBuf};

use marketlens_domain::Exchange;
use marketlens_domain::depth::{Ladder, Level, TakerSide};
use marketlens_exchanges::depth::recordings::Recordings;
use marketlens_exchanges::depth::{BookReading, kalshi, polymarket};
use proptest::prelude::*;
use serde_json::{Value, json};

fn depth_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo-data/depth")
}

fn read(file: &str) -> Vec<u8> {
    let path = depth_data().join(file);
    fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn value(file: &str) -> Value {
    serde_json::from_slice(&read(file)).unwrap()
}

fn level(price: f64, size: f64) -> Level {
    Level { price, size }
}

/// Bids strictly falling, asks strictly rising, and the book not crossed.
fn assert_oriented(ladder: &Ladder, name: &str) {
    assert!(
        ladder.bids.windows(2).all(|pair| pair[0].price > pair[1].price),
        "{name}: bids fall"
    );
    assert!(
        ladder.asks.windows(2).all(|pair| pair[0].price < pair[1].price),
        "{name}: asks rise"
    );
    if let (Some(bid), Some(ask)) = (ladder.best_bid(), ladder.best_ask()) {
        assert!(bid < ask, "{name}: best bid {bid} below best ask {ask}");
    }
}

fn kalshi_book(body: &Value) -> BookReading {
    kalshi::orderbook(body.to_string().as_bytes()).unwrap()
}

#[test]
fn kalshis_three_generations_of_one_book_read_the_same() {
    let file = value("kalshi/orderbook-1.json");
    let newest = kalshi::orderbook(&read("kalshi/orderbook-1.json")).unwrap();
    let dollars = kalshi_book(&json!({"orderbook": {
        "yes_dollars": file["orderbook"]["yes_dollars"], "no_dollars": file["orderbook"]["no_dollars"]}}));
    let cents = kalshi_book(&json!({"orderbook": {"yes": file["orderbook"]["yes"], "no": file["orderbook"]["no"]}}));
    assert_eq!(newest, dollars);
    assert_eq!(newest, cents);
    assert_oriented(&newest.ladder, "orderbook-1");
    assert_eq!((newest.ladder.bids.len(), newest.ladder.asks.len()), (25, 23));
    // SOURCES.md: best YES bid 70, best NO bid 28, so the best YES ask is 72.
    assert_eq!(newest.ladder.best_bid(), Some(0.70));
    assert_eq!(newest.ladder.best_ask(), Some(0.72));
    assert_eq!(newest.timestamp, None, "Kalshi's orderbook carries no time");
}

#[test]
fn kalshis_newest_form_turns_no_bids_into_yes_asks() {
    let book = kalshi::orderbook(&read("kalshi/orderbook-2.json")).unwrap();
    assert_oriented(&book.ladder, "orderbook-2");
    // Best YES bid 0.37 × 8368 and best NO bid 0.61 × 79: a YES ask at 0.39 × 79.
    assert_eq!(book.ladder.bids[0], level(0.37, 8368.0));
    assert_eq!(book.ladder.asks[0], level(0.39, 79.0));
    assert_eq!((book.ladder.bids.len(), book.ladder.asks.len()), (18, 33));
    let no = book.ladder.complement();
    assert_eq!(no.bids[0], level(0.61, 79.0));
    assert_eq!(no.asks[0], level(0.63, 8368.0));
}

#[test]
fn kalshi_one_sided_null_and_combo_books() {
    let one_sided = kalshi::orderbook(&read("kalshi/orderbook-3.json")).unwrap();
    assert!(one_sided.ladder.bids.is_empty(), "no YES bids");
    assert_eq!(one_sided.ladder.asks.len(), 10);
    // The best NO bid, 0.99, is a YES ask at 0.01.
    assert_eq!(one_sided.ladder.asks[0], level(0.01, 73469.0));
    assert_oriented(&one_sided.ladder, "orderbook-3");

    let body = value("kalshi/orderbook-4-null.json")["response"].clone();
    assert_eq!(
        kalshi_book(&body).ladder,
        Ladder::default(),
        "null arrays are an empty book"
    );

    let combos = value("kalshi/orderbooks-combo-1.json");
    let books: Vec<_> = combos.as_array().unwrap().iter().map(kalshi_book).collect();
    assert_eq!(books.len(), 20);
    assert_eq!(books.iter().filter(|book| book.ladder == Ladder::default()).count(), 4);
    assert!(books.iter().all(|book| book.ladder.bids.is_empty()));
    books.iter().for_each(|book| assert_oriented(&book.ladder, "combo"));
}

#[test]
fn a_body_that_is_not_an_orderbook_is_an_error() {
    assert!(kalshi::orderbook(b"{\"markets\": []}").is_err());
    assert!(kalshi::orderbook(b"<html>").is_err());
    assert!(polymarket::book(b"[1, 2]").is_err());
}

#[test]
fn polymarket_books_are_turned_best_first() {
    for (file, bids, asks, best_ask) in [
        ("polymarket/book-1.json", 0, 104, 0.001),
        ("polymarket/book-2.json", 1, 62, 0.004),
        ("polymarket/book-3.json", 20, 20, 0.51),
        ("polymarket/book-4.json", 19, 41, 0.022),
    ] {
        let book = polymarket::book(&read(file)).unwrap();
        assert_oriented(&book.ladder, file);
        assert_eq!((book.ladder.bids.len(), book.ladder.asks.len()), (bids, asks), "{file}");
        // The recorded order is best LAST: the best ask is the file's last ask.
        let recorded_last = value(file)["asks"].as_array().unwrap().last().unwrap()["price"].clone();
        assert_eq!(
            book.ladder.best_ask(),
            recorded_last.as_str().unwrap().parse().ok(),
            "{file}"
        );
        assert_eq!(book.ladder.best_ask(), Some(best_ask), "{file}");
        assert!(book.timestamp.is_some(), "{file} has its time");
    }
    let book = polymarket::book(&read("polymarket/book-1.json")).unwrap();
    assert_eq!(
        marketlens_domain::time::to_iso8601(book.timestamp.unwrap()),
        "2026-03-22T07:56:41.606Z"
    );
}

#[test]
fn trades_of_both_exchanges() {
    let elon = kalshi::trades(value("kalshi/trades-1.json")["response"].to_string().as_bytes()).unwrap();
    assert_eq!(elon.trades.len(), 5);
    assert!(elon.cursor.is_some(), "a real cursor");
    assert!(
        elon.trades.windows(2).all(|pair| pair[0].time >= pair[1].time),
        "newest first"
    );
    assert!(elon.trades.iter().all(|trade| trade.taker_side == TakerSide::Buy));

    let newest = kalshi::trades(&read("kalshi/trades-3.json")).unwrap();
    assert_eq!(newest.trades.len(), 3);
    let first = &newest.trades[0];
    assert_eq!((first.outcome_index, first.price, first.size), (0, 0.38, 12.61));

    let bare = json!({"trades": value("kalshi/trades-2.json")});
    let soccer = kalshi::trades(bare.to_string().as_bytes()).unwrap();
    assert_eq!(soccer.trades.len(), 5, "two trades of one time are both kept");
    assert_eq!(soccer.cursor, None);

    let polymarket = polymarket::trades(&read("polymarket/data-trades-1.json")).unwrap();
    assert_eq!(polymarket.trades.len(), 3);
    let first = &polymarket.trades[0];
    assert_eq!(
        (first.outcome_index, first.taker_side, first.size),
        (1, TakerSide::Buy, 3.28888)
    );
    assert_eq!(first.price, 0.9);
}

#[test]
fn a_page_counts_the_records_the_exchange_sent_not_only_those_read() {
    // Paging goes on while pages are full: a record we cannot read still filled its place
    // (written here beside the recorded trades, which are all readable).
    let mut records = value("polymarket/data-trades-1.json").as_array().unwrap().clone();
    records.push(json!({"side": "BUY", "note": "no price, no time"}));
    let polymarket = polymarket::trades(Value::Array(records).to_string().as_bytes()).unwrap();
    assert_eq!((polymarket.trades.len(), polymarket.records), (3, 4));
    let mut kalshi_records = value("kalshi/trades-2.json").as_array().unwrap().clone();
    kalshi_records.push(json!({"trade_id": "unreadable"}));
    let kalshi = kalshi::trades(
        json!({"trades": kalshi_records, "cursor": "next"})
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    assert_eq!((kalshi.trades.len(), kalshi.records), (5, 6));
}

#[test]
fn a_gamma_record_names_its_tokens() {
    let page = json!({"markets": [{"id": "7", "conditionId": "0xabc", "clobTokenIds": "[\"11\", \"22\"]"}]});
    let tokens = polymarket::market_tokens(page.to_string().as_bytes(), "7")
        .unwrap()
        .unwrap();
    assert_eq!((tokens.condition_id.as_str(), tokens.token_ids.len()), ("0xabc", 2));
    assert_eq!(
        polymarket::market_tokens(page.to_string().as_bytes(), "8").unwrap(),
        None
    );
}

#[test]
fn every_recording_in_the_manifest_reads() {
    let recordings = Recordings::parse(&read("recordings.json")).unwrap();
    assert!(!recordings.books.is_empty() && !recordings.trades.is_empty());
    for recording in &recordings.books {
        let body = recording.body(&read(&recording.file)).unwrap().to_string();
        let book = match recording.exchange {
            Exchange::Kalshi => kalshi::orderbook(body.as_bytes()),
            Exchange::Polymarket => polymarket::book(body.as_bytes()),
        };
        book.unwrap_or_else(|error| panic!("{}: {error}", recording.file));
    }
    for recording in &recordings.trades {
        let body = recording.body(&read(&recording.file)).unwrap().to_string();
        let trades = match recording.exchange {
            Exchange::Kalshi => kalshi::trades(body.as_bytes()),
            Exchange::Polymarket => polymarket::trades(body.as_bytes()),
        };
        assert!(!trades.unwrap().trades.is_empty(), "{}", recording.file);
    }
}

/// Levels as (price in ten-thousandths, size).
type Levels = Vec<(u32, u32)>;

/// Levels on Kalshi's deci-cent grid, prices from 1 to `below - 1` ten-thousandths.
fn bids_below(below: u32) -> impl Strategy<Value = Levels> {
    prop::collection::vec((1u32..below, 1u32..100_000), 0..12)
}

fn bids() -> impl Strategy<Value = Levels> {
    bids_below(10_000)
}

/// YES and NO bids that do not cross: every YES bid plus every NO bid is below 1.
fn uncrossed() -> impl Strategy<Value = (Levels, Levels)> {
    (2u32..9_999).prop_flat_map(|split| (bids_below(split), bids_below(10_000 - split + 1)))
}

proptest! {
    /// Any Kalshi book whose best YES and NO bids do not cross (sum below 1) reads as a
    /// non-crossed YES ladder, and the NO ladder (its complement) is what reading the same book
    /// with the sides swapped gives; the complement is its own inverse.
    #[test]
    fn kalshi_orientation_is_consistent((yes, no) in uncrossed()) {
        let side = |levels: &[(u32, u32)]| levels
            .iter()
            .map(|(price, size)| json!([format!("{:.4}", f64::from(*price) / 10_000.0), format!("{size}.00")]))
            .collect::<Vec<_>>();
        let body = |first: &[(u32, u32)], second: &[(u32, u32)]| {
            json!({"orderbook_fp": {"yes_dollars": side(first), "no_dollars": side(second)}})
        };
        let yes_ladder = kalshi_book(&body(&yes, &no)).ladder;
        let no_ladder = kalshi_book(&body(&no, &yes)).ladder;
        if let (Some(bid), Some(ask)) = (yes_ladder.best_bid(), yes_ladder.best_ask()) {
            prop_assert!(bid < ask);
        }
        prop_assert_eq!(&yes_ladder.complement(), &no_ladder);
        prop_assert_eq!(&yes_ladder.complement().complement(), &yes_ladder);
    }

    /// A Polymarket book is sorted best first whatever order its levels arrive in.
    #[test]
    fn polymarket_books_sort_whatever_the_order(mut levels in bids(), split in 0usize..12) {
        levels.sort();
        levels.dedup_by_key(|level| level.0);
        let split = split.min(levels.len());
        let to_json = |levels: &[(u32, u32)]| levels
            .iter()
            .map(|(price, size)| json!({"price": format!("{}", f64::from(*price) / 10_000.0), "size": size.to_string()}))
            .collect::<Vec<_>>();
        let (bids, asks) = levels.split_at(split);
        let mut shuffled_asks = to_json(asks);
        shuffled_asks.reverse();
        let book = json!({"bids": to_json(bids), "asks": shuffled_asks, "timestamp": "1767554656215"});
        let ladder = polymarket::book(book.to_string().as_bytes()).unwrap().ladder;
        prop_assert_eq!(ladder.bids.len() + ladder.asks.len(), levels.len());
        assert_oriented(&ladder, "random");
    }
}

/// JSON values of the shapes the depth readers meet, with their field names, so that random
/// input reaches the readers' mapping and not only their "not this shape" refusal.
fn depth_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<f64>().prop_map(|number| json!(number)),
        any::<i64>().prop_map(Value::from),
        "[a-z0-9.\u{e9}-]{0,12}".prop_map(Value::from),
        Just(json!("0.5")),
        Just(json!("NaN")),
    ];
    let keys = prop::sample::select(vec![
        "orderbook",
        "orderbook_fp",
        "yes",
        "no",
        "yes_dollars",
        "no_dollars",
        "bids",
        "asks",
        "price",
        "size",
        "timestamp",
        "trades",
        "cursor",
        "trade_id",
        "created_time",
        "taker_side",
        "count",
        "count_fp",
        "yes_price",
        "yes_price_dollars",
        "no_price_dollars",
        "side",
        "outcomeIndex",
        "transactionHash",
        "asset",
        "markets",
        "id",
        "conditionId",
        "clobTokenIds",
    ]);
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..6).prop_map(|fields| Value::Object(
                fields.into_iter().map(|(key, value)| (key.to_owned(), value)).collect()
            )),
        ]
    })
}

proptest! {
    /// No body makes a depth reader panic (the crate's invariant): it reads or refuses.
    #[test]
    fn no_body_makes_a_depth_reader_panic(body in depth_json(), bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        for input in [body.to_string().into_bytes(), bytes] {
            let _ = kalshi::orderbook(&input);
            let _ = kalshi::trades(&input);
            let _ = polymarket::book(&input);
            let _ = polymarket::trades(&input);
            let _ = polymarket::market_tokens(&input, "1");
            // Whatever was read is best first (a random book may be crossed: no check of that).
            for ladder in [polymarket::book(&input), kalshi::orderbook(&input)]
                .into_iter()
                .flatten()
                .map(|reading| reading.ladder)
            {
                prop_assert!(ladder.bids.windows(2).all(|pair| pair[0].price > pair[1].price));
                prop_assert!(ladder.asks.windows(2).all(|pair| pair[0].price < pair[1].price));
            }
        }
    }
}
