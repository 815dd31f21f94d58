//! One test per mapping rule, on small hand-written Kalshi payloads.

use marketlens_domain::market::{Resolution, Rules};
use marketlens_domain::time::to_iso8601;
use marketlens_domain::{Category, Exchange, Market, MarketStatus, Outcome};
use serde_json::{Value, json};

use crate::{Normalized, PayloadKind, normalize};

fn run(payload: Value) -> Normalized {
    normalize(Exchange::Kalshi, payload.to_string().as_bytes()).unwrap().1
}

/// A minimal active market in the 2026 schema; `changes` are merged over it (`null` removes).
fn kalshi_market(changes: Value) -> Value {
    let mut market = json!({
        "ticker": "KXRAIN-26-NYC",
        "event_ticker": "KXRAIN-26",
        "title": "Will it rain in NYC?",
        "yes_sub_title": "NYC",
        "status": "active",
        "result": "",
        "last_price_dollars": "0.4000",
        "yes_bid_dollars": "0.3900",
        "yes_ask_dollars": "0.4100",
        "no_bid_dollars": "0.5900",
        "no_ask_dollars": "0.6100",
        "volume_fp": "100.00",
        "volume_24h_fp": "5.00",
        "liquidity_dollars": "0.0000",
        "rules_primary": "If it rains, Yes.",
        "rules_secondary": "",
        "open_time": "2026-01-01T00:00:00Z",
        "close_time": "2026-12-31T00:00:00Z",
        "created_time": "2025-12-31T12:00:00.123456Z",
        "updated_time": "2026-01-02T00:00:00Z",
    });
    merge(&mut market, changes);
    market
}

fn kalshi_event(changes: Value) -> Value {
    let mut event = json!({
        "event_ticker": "KXRAIN-26",
        "series_ticker": "KXRAIN",
        "title": "Rain in 2026",
        "sub_title": "In 2026",
        "category": "Climate and Weather",
        "last_updated_ts": "2026-05-10T00:33:53.337123Z",
    });
    merge(&mut event, changes);
    event
}

fn merge(target: &mut Value, changes: Value) {
    if let (Some(target), Value::Object(changes)) = (target.as_object_mut(), changes) {
        for (key, value) in changes {
            if value.is_null() {
                target.remove(&key);
            } else {
                target.insert(key, value);
            }
        }
    }
}

fn markets(markets: Vec<Value>) -> Value {
    json!({"cursor": "", "markets": markets})
}

fn only_market(payload: Value) -> Market {
    let normalized = run(payload);
    assert_eq!(normalized.skipped, [], "unexpected skips");
    assert_eq!(normalized.markets.len(), 1);
    normalized.markets.into_iter().next().unwrap()
}

fn one(changes: Value) -> Market {
    only_market(markets(vec![kalshi_market(changes)]))
}

fn reasons(normalized: &Normalized) -> Vec<&str> {
    normalized
        .skipped
        .iter()
        .map(|skipped| skipped.reason.as_str())
        .collect()
}

fn outcome(name: &str, price: f64, bid: Option<f64>, ask: Option<f64>) -> Outcome {
    Outcome {
        name: name.to_owned(),
        price,
        best_bid_price: bid,
        best_ask_price: ask,
    }
}

#[test]
fn a_binary_market_becomes_yes_and_no() {
    let market = one(json!({}));
    assert_eq!(
        market.outcomes,
        [
            outcome("Yes", 0.4, Some(0.39), Some(0.41)),
            outcome("No", 0.6, Some(0.59), Some(0.61))
        ]
    );
    assert_eq!(market.status, MarketStatus::Open);
    assert_eq!((market.volume, market.volume_24h, market.liquidity), (100.0, 5.0, 0.0));
    assert_eq!(market.description, "If it rains, Yes.");
    assert_eq!(market.image_url, "");
}

#[test]
fn cents_are_read_when_dollars_are_absent_and_dollars_win_when_both_are_there() {
    let cents_only = one(json!({
        "last_price_dollars": null, "yes_bid_dollars": null, "yes_ask_dollars": null,
        "no_bid_dollars": null, "no_ask_dollars": null, "liquidity_dollars": null,
        "volume_fp": null, "volume_24h_fp": null,
        "last_price": 6, "yes_bid": 6, "yes_ask": 7, "no_bid": 93, "no_ask": 94,
        "liquidity": 6814806, "volume": 35001, "volume_24h": 10,
    }));
    assert_eq!(
        cents_only.outcomes,
        [
            outcome("Yes", 0.06, Some(0.06), Some(0.07)),
            outcome("No", 0.94, Some(0.93), Some(0.94))
        ]
    );
    assert_eq!(
        (cents_only.liquidity, cents_only.volume, cents_only.volume_24h),
        (68148.06, 35001.0, 10.0)
    );
    let both = one(json!({"last_price": 99, "volume": 1, "liquidity": 500, "liquidity_dollars": "12.5000"}));
    assert_eq!(both.outcomes[0].price, 0.4);
    assert_eq!((both.volume, both.liquidity), (100.0, 12.5));
}

#[test]
fn yes_price_is_the_settlement_then_last_trade_then_midpoint_then_zero() {
    let price = |changes: Value| one(changes).outcomes[0].price;
    assert_eq!(price(json!({"status": "finalized", "result": "yes"})), 1.0);
    assert_eq!(price(json!({"status": "settled", "result": "no"})), 0.0);
    assert_eq!(
        price(json!({"status": "determined", "result": "yes", "settlement_value_dollars": "0.5000"})),
        0.5
    );
    assert_eq!(
        price(json!({"status": "finalized", "result": "yes", "settlement_value": 100})),
        1.0
    );
    // A settled result on a market still marked active is not a settlement.
    assert_eq!(price(json!({"status": "active", "result": "yes"})), 0.4);
    assert_eq!(price(json!({"last_price_dollars": "0.0000"})), 0.4);
    assert_eq!(
        price(json!({"last_price_dollars": null, "yes_bid_dollars": "0.0310", "yes_ask_dollars": "0.0700"})),
        0.0505
    );
    assert_eq!(price(json!({"last_price_dollars": null, "yes_bid_dollars": null})), 0.0);
    assert_eq!(price(json!({"last_price_dollars": "0", "yes_ask_dollars": "0"})), 0.0);
    // An empty book has no middle: never an invented 0.5.
    assert_eq!(
        price(json!({"last_price_dollars": "0", "yes_bid_dollars": "0.0000", "yes_ask_dollars": "1.0000"})),
        0.0
    );
    assert_eq!(
        price(json!({"last_price_dollars": "0", "yes_bid_dollars": "0.0000", "yes_ask_dollars": "0.0700"})),
        0.0
    );
    let settled = one(json!({"status": "finalized", "result": "no", "last_price_dollars": "0.0100"}));
    assert_eq!((settled.outcomes[0].price, settled.outcomes[1].price), (0.0, 1.0));
}

#[test]
fn no_price_is_the_rounded_complement_and_empty_quotes_drop() {
    let market = one(json!({
        "last_price_dollars": "0.0320",
        "yes_bid_dollars": "0.0000", "yes_ask_dollars": "1.0000",
        "no_bid_dollars": "1.0000", "no_ask_dollars": "0.0000",
    }));
    assert_eq!(market.outcomes[1].price, 0.968);
    assert_eq!(
        (market.outcomes[0].best_bid_price, market.outcomes[0].best_ask_price),
        (None, None)
    );
    assert_eq!(
        (market.outcomes[1].best_bid_price, market.outcomes[1].best_ask_price),
        (None, None),
        "a bid of 1 is no real order"
    );
}

#[test]
fn status_maps_every_known_value() {
    let status = |status: &str, result: &str| one(json!({"status": status, "result": result})).status;
    for open in ["active", "open", "initialized", "Active"] {
        assert_eq!(status(open, ""), MarketStatus::Open, "{open}");
    }
    for settled in ["finalized", "settled", "determined", "amended"] {
        assert_eq!(status(settled, "yes"), MarketStatus::Resolved, "{settled}");
        assert_eq!(status(settled, "other"), MarketStatus::Resolved, "{settled}");
        assert_eq!(status(settled, ""), MarketStatus::Closed, "{settled}");
    }
    for closed in ["closed", "inactive", "disputed", "paused", "something new"] {
        assert_eq!(status(closed, "yes"), MarketStatus::Closed, "{closed}");
    }
    assert_eq!(
        one(json!({"status": null, "result": null})).status,
        MarketStatus::Closed
    );
}

#[test]
fn shared_titles_are_told_apart_by_the_choice() {
    let normalized = run(markets(vec![
        kalshi_market(json!({"ticker": "A-1", "event_ticker": "A", "title": "Best pie?", "yes_sub_title": "Apple"})),
        kalshi_market(json!({"ticker": "A-2", "event_ticker": "A", "title": "Best pie?", "yes_sub_title": "Cherry"})),
        kalshi_market(json!({"ticker": "B-1", "event_ticker": "B", "title": "Best pie?", "yes_sub_title": "Pecan"})),
        kalshi_market(
            json!({"ticker": "C-1", "event_ticker": "C", "title": "Dayton at Bradley Winner?", "yes_sub_title": "Dayton"}),
        ),
        kalshi_market(json!({"ticker": "D-1", "event_ticker": "D", "title": "Who will win?", "yes_sub_title": ""})),
        kalshi_market(
            json!({"ticker": "E-1", "event_ticker": "E", "title": "Which city?", "yes_sub_title": "Which city?"}),
        ),
        kalshi_market(
            json!({"ticker": "F-1", "event_ticker": "F", "title": "Who will the next Pope be?", "yes_sub_title": " Pietro Parolin "}),
        ),
    ]));
    let questions: Vec<&str> = normalized
        .markets
        .iter()
        .map(|market| market.question.as_str())
        .collect();
    assert_eq!(
        questions,
        [
            "Best pie? — Apple",
            "Best pie? — Cherry",
            "Best pie?",
            "Dayton at Bradley Winner? — Dayton",
            "Who will win?",
            "Which city?",
            "Who will the next Pope be? — Pietro Parolin",
        ]
    );
}

#[test]
fn a_resolved_market_has_the_side_its_result_names_and_its_settlement_time() {
    let settled = |result: &str, settlement_ts: Value| {
        one(json!({"status": "finalized", "result": result, "settlement_ts": settlement_ts})).resolution
    };
    let resolution = |outcome: Option<&str>, resolved_at: Option<&str>| {
        Some(Resolution {
            outcome: outcome.map(str::to_owned),
            resolved_at: resolved_at.map(|at| at.parse().unwrap()),
        })
    };
    assert_eq!(
        settled("yes", json!("2026-03-15T23:28:19.638903Z")),
        resolution(Some("Yes"), Some("2026-03-15T23:28:19.638Z"))
    );
    assert_eq!(settled("No", Value::Null), resolution(Some("No"), None));
    // A scalar settlement pays both sides a part: no single winner.
    assert_eq!(settled("scalar", Value::Null), resolution(None, None));
    assert_eq!(one(json!({})).resolution, None, "open");
    assert_eq!(
        one(json!({"status": "finalized", "result": ""})).resolution,
        None,
        "closed without a result"
    );
    let normalized = run(markets(vec![kalshi_market(
        json!({"status": "finalized", "result": "yes", "settlement_ts": "soon"}),
    )]));
    assert_eq!(
        reasons(&normalized),
        ["market KXRAIN-26-NYC: settlement_ts \"soon\" is not a date"]
    );
}

#[test]
fn rules_are_the_primary_and_secondary_rules() {
    let rules = one(json!({"rules_secondary": " Details. "})).rules;
    assert_eq!(
        rules,
        Rules {
            primary: Some("If it rains, Yes.".to_owned()),
            secondary: Some("Details.".to_owned()),
            source: None
        }
    );
    assert_eq!(one(json!({"rules_primary": null})).rules, Rules::default());
}

#[test]
fn description_joins_the_rules() {
    assert_eq!(
        one(json!({"rules_secondary": "Details."})).description,
        "If it rains, Yes.\n\nDetails."
    );
    assert_eq!(
        one(json!({"rules_primary": "", "rules_secondary": "Details."})).description,
        "Details."
    );
    assert_eq!(one(json!({"rules_primary": null})).description, "");
}

#[test]
fn dates_map_and_a_zero_creation_time_falls_back_to_the_opening() {
    let market = one(json!({}));
    assert_eq!(
        market.start_date.map(to_iso8601).as_deref(),
        Some("2026-01-01T00:00:00.000Z")
    );
    assert_eq!(
        market.end_date.map(to_iso8601).as_deref(),
        Some("2026-12-31T00:00:00.000Z")
    );
    assert_eq!(
        market.created_at.map(to_iso8601).as_deref(),
        Some("2025-12-31T12:00:00.123Z")
    );
    assert_eq!(
        market.source_updated_at.map(to_iso8601).as_deref(),
        Some("2026-01-02T00:00:00.000Z")
    );
    let zero = one(json!({"created_time": "0001-01-01T00:00:00Z", "updated_time": null}));
    assert_eq!(zero.created_at, zero.start_date);
    assert_eq!(zero.source_updated_at, None);
    let bad = run(markets(vec![kalshi_market(
        json!({"close_time": "2026-02-30T00:00:00Z"}),
    )]));
    assert_eq!(
        reasons(&bad),
        ["market KXRAIN-26-NYC: close_time \"2026-02-30T00:00:00Z\" is not a date"]
    );
}

#[test]
fn a_flat_market_list_knows_no_series_and_infers_its_category() {
    let market = one(json!({}));
    assert_eq!(market.event_external_id.as_deref(), Some("KXRAIN-26"));
    assert_eq!(market.url_keys.market.as_deref(), Some("kxrain-26-nyc"));
    assert_eq!(market.url_keys.event.as_deref(), Some("kxrain-26"));
    assert_eq!(market.url_keys.series, None);
    assert_eq!(market.url, "https://kalshi.com/markets/kxrain-26");
    assert_eq!(market.category, Category::ClimateAndWeather, "inferred from \"rain\"");
    assert_eq!(one(json!({"category": "Companies"})).category, Category::Finance);
    let no_event = one(json!({"event_ticker": null}));
    assert_eq!(
        (no_event.event_external_id, no_event.url.as_str()),
        (None, "https://kalshi.com/markets/kxrain-26-nyc")
    );
}

#[test]
fn nested_markets_take_series_title_and_category_from_their_event() {
    let mut event = kalshi_event(json!({"category": "Companies"}));
    merge(
        &mut event,
        json!({"markets": [kalshi_market(json!({"category": "Sports"}))]}),
    );
    let normalized = run(json!({"cursor": "", "events": [event, kalshi_event(json!({"event_ticker": "KXEMPTY-1"}))]}));
    assert_eq!(normalized.skipped, []);
    assert_eq!((normalized.events.len(), normalized.markets.len()), (2, 1));
    let market = &normalized.markets[0];
    assert_eq!(market.category, Category::Finance, "the event's label wins");
    assert_eq!(market.url_keys.series.as_deref(), Some("kxrain"));
    assert_eq!(market.url, "https://kalshi.com/markets/kxrain/rain-in-2026/kxrain-26");
    let unlabelled = {
        let mut event = kalshi_event(json!({"category": "Novelty"}));
        merge(
            &mut event,
            json!({"markets": [kalshi_market(json!({"title": "Will Bitcoin or Ethereum close above $100k?"}))]}),
        );
        run(json!({"events": [event]}))
    };
    assert_eq!(
        unlabelled.markets[0].category,
        Category::Crypto,
        "inferred from the question"
    );
    assert_eq!(
        unlabelled.events[0].category,
        Category::ClimateAndWeather,
        "inferred from the title"
    );
}

#[test]
fn a_nested_market_of_another_event_ignores_the_parent() {
    let mut event = kalshi_event(json!({}));
    merge(
        &mut event,
        json!({"markets": [kalshi_market(json!({"event_ticker": "KXOTHER-1", "title": "Will it snow?"}))]}),
    );
    let market = &run(json!({"events": [event]})).markets[0];
    assert_eq!(market.event_external_id.as_deref(), Some("KXOTHER-1"));
    assert_eq!(market.url_keys.series, None);
}

#[test]
fn events_map_their_own_fields() {
    let normalized = run(json!({"cursor": "", "events": [kalshi_event(json!({}))]}));
    let event = &normalized.events[0];
    assert_eq!(event.exchange, Exchange::Kalshi);
    assert_eq!(
        (event.external_id.as_str(), event.title.as_str()),
        ("KXRAIN-26", "Rain in 2026")
    );
    assert_eq!(event.description, "In 2026");
    assert_eq!(event.category, Category::ClimateAndWeather);
    assert_eq!(
        (event.reported_volume, event.created_at, event.image_url.as_str()),
        (None, None, "")
    );
    assert_eq!(
        event.source_updated_at.map(to_iso8601).as_deref(),
        Some("2026-05-10T00:33:53.337Z")
    );
    assert_eq!(event.slug.as_deref(), Some("kxrain-26"));
    assert_eq!(event.series_slug.as_deref(), Some("kxrain"));
}

#[test]
fn the_single_event_response_reads_markets_beside_and_inside_the_event() {
    let mut event = kalshi_event(json!({}));
    merge(
        &mut event,
        json!({"markets": [kalshi_market(json!({"ticker": "KXRAIN-26-LA"}))]}),
    );
    let payload = json!({"event": event, "markets": [kalshi_market(json!({}))]});
    let (kind, normalized) = normalize(Exchange::Kalshi, payload.to_string().as_bytes()).unwrap();
    assert_eq!(kind, PayloadKind::KalshiEvent);
    assert_eq!(
        (
            normalized.events.len(),
            normalized.markets.len(),
            normalized.skipped.len()
        ),
        (1, 2, 0)
    );
    assert!(
        normalized
            .markets
            .iter()
            .all(|market| market.url_keys.series.as_deref() == Some("kxrain"))
    );
}

#[test]
fn a_skipped_event_takes_its_markets_with_it() {
    let payload = json!({"event": kalshi_event(json!({"title": " "})), "markets": [kalshi_market(json!({}))]});
    let normalized = run(payload);
    assert_eq!((normalized.events.len(), normalized.markets.len()), (0, 0));
    assert_eq!(
        reasons(&normalized),
        [
            "event KXRAIN-26: no title",
            "market KXRAIN-26-NYC: not imported because event KXRAIN-26 was skipped"
        ]
    );
}

#[test]
fn the_single_market_response_is_a_list_of_one() {
    let (kind, normalized) = normalize(
        Exchange::Kalshi,
        json!({"market": kalshi_market(json!({}))}).to_string().as_bytes(),
    )
    .unwrap();
    assert_eq!((kind, normalized.markets.len()), (PayloadKind::KalshiMarket, 1));
}

#[test]
fn bad_records_are_skipped_with_a_reason_and_the_rest_carry_on() {
    let normalized = run(markets(vec![
        kalshi_market(json!({"ticker": "A", "last_price_dollars": "NaN"})),
        kalshi_market(json!({"ticker": "B", "volume_fp": "lots"})),
        kalshi_market(json!({"ticker": "C", "last_price_dollars": "1.5000"})),
        kalshi_market(json!({"ticker": null})),
        kalshi_market(json!({"ticker": "E", "title": ""})),
        json!(["not", "a", "market"]),
        kalshi_market(json!({"ticker": "G"})),
        kalshi_market(json!({"ticker": "G"})),
        kalshi_market(json!({"ticker": "H"})),
    ]));
    let tickers: Vec<&str> = normalized
        .markets
        .iter()
        .map(|market| market.external_id.as_str())
        .collect();
    assert_eq!(tickers, ["G", "H"]);
    let reasons = reasons(&normalized);
    assert!(
        reasons[0].starts_with("market A: unreadable last_price_dollars (the string \"NaN\")"),
        "{}",
        reasons[0]
    );
    assert!(
        reasons[1].starts_with("market B: unreadable volume_fp (the string \"lots\")"),
        "{}",
        reasons[1]
    );
    assert_eq!(reasons[2], "market C: price is 1.5, outside [0, 1]");
    assert_eq!(reasons[3], "market at index 3: no ticker");
    assert_eq!(reasons[4], "market E: no title");
    assert_eq!(reasons[5], "market at index 5: not a JSON object but a list of 3 items");
    assert_eq!(reasons[6], "market G: repeats an earlier market of this payload");
}

#[test]
fn the_rules_decide_the_category_only_when_the_question_names_no_subject() {
    let rules = "If Georgia qualifies for the Final of the Men's College Basketball tournament, Yes.";
    let category = |title: &str| one(json!({"title": title, "rules_primary": rules})).category;
    assert_eq!(category("Will Georgia qualify for Final?"), Category::Sports);
    assert_eq!(category("Will Bitcoin reach $100k?"), Category::Crypto);
    assert_eq!(
        one(json!({"title": "Will it happen?", "rules_primary": "If it happens, Yes."})).category,
        Category::Other
    );
}
