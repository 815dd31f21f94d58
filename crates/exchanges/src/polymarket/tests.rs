//! One test per mapping rule, on small hand-written Gamma payloads.

use marketlens_domain::market::Rules;
use marketlens_domain::time::to_iso8601;
use marketlens_domain::{Category, Exchange, Market, MarketStatus, Outcome};
use serde_json::{Value, json};

use crate::{Normalized, PayloadKind, normalize};

fn run(payload: Value) -> Normalized {
    normalize(Exchange::Polymarket, payload.to_string().as_bytes())
        .unwrap()
        .1
}

/// A minimal open binary market; `changes` are merged over it.
fn gamma_market(changes: Value) -> Value {
    let mut market = json!({
        "id": "1",
        "question": "Will it rain?",
        "slug": "will-it-rain",
        "outcomes": "[\"Yes\", \"No\"]",
        "outcomePrices": "[\"0.25\", \"0.75\"]",
        "active": true,
        "closed": false,
    });
    merge(&mut market, changes);
    market
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

fn only_market(payload: Value) -> Market {
    let normalized = run(payload);
    assert_eq!(normalized.skipped, [], "unexpected skips");
    assert_eq!(normalized.markets.len(), 1);
    normalized.markets.into_iter().next().unwrap()
}

fn reasons(normalized: &Normalized) -> Vec<&str> {
    normalized
        .skipped
        .iter()
        .map(|skipped| skipped.reason.as_str())
        .collect()
}

fn quote(outcome: &Outcome) -> (Option<f64>, Option<f64>) {
    (outcome.best_bid_price, outcome.best_ask_price)
}

#[test]
fn outcomes_pair_names_with_prices_from_encoded_or_real_lists() {
    let market = only_market(json!([gamma_market(json!({}))]));
    let names: Vec<&str> = market.outcomes.iter().map(|outcome| outcome.name.as_str()).collect();
    assert_eq!(names, ["Yes", "No"]);
    assert_eq!((market.outcomes[0].price, market.outcomes[1].price), (0.25, 0.75));
    let real_lists = only_market(json!([gamma_market(
        json!({"outcomes": ["Up", "Down"], "outcomePrices": [0.5, "0.5"]})
    )]));
    assert_eq!(real_lists.outcomes[0].name, "Up");
    assert_eq!(real_lists.outcomes[1].price, 0.5);
    let forty_digits = only_market(json!([gamma_market(json!({
        "outcomePrices": "[\"0.0000004113679809846114013590098187297978\", \"0.9999995886320190153885986409901813\"]"
    }))]));
    assert_eq!(forty_digits.outcomes[0].price, 4.113679809846114e-7);
}

#[test]
fn mismatched_or_unreadable_prices_skip_the_market() {
    let normalized = run(json!([
        gamma_market(json!({"id": "12345", "outcomePrices": "[\"0.1\", \"0.2\", \"0.7\"]"})),
        gamma_market(json!({"id": "2", "outcomePrices": "[\"0.5\", \"NaN\"]"})),
        gamma_market(json!({"id": "3", "outcomePrices": "[\"0.5\", \"1.5\"]"})),
        gamma_market(json!({"id": "4", "outcomePrices": "not json"})),
        gamma_market(json!({"id": "5"})),
    ]));
    assert_eq!(normalized.markets.len(), 1);
    let reasons = reasons(&normalized);
    assert_eq!(reasons[0], "market 12345: outcomePrices has 3 prices for 2 outcomes");
    assert!(
        reasons[1].starts_with("market 2: unreadable outcomePrices (the string \"[\\\"0.5\\\", \\\"NaN\\\"]\")"),
        "{}",
        reasons[1]
    );
    assert!(reasons[1].contains("not a finite number"), "{}", reasons[1]);
    assert_eq!(reasons[2], "market 3: price is 1.5, outside [0, 1]");
    assert!(
        reasons[3].starts_with("market 4: unreadable outcomePrices"),
        "{}",
        reasons[3]
    );
    assert_eq!(normalized.skipped[0].external_id.as_deref(), Some("12345"));
}

#[test]
fn markets_without_prices_are_placeholders_only_when_neither_active_nor_closed() {
    let normalized = run(json!([
        gamma_market(json!({"id": "1", "outcomePrices": null, "active": false, "closed": false})),
        gamma_market(json!({"id": "2", "outcomePrices": null, "active": true})),
        gamma_market(json!({"id": "3", "outcomePrices": null, "active": false, "closed": true})),
    ]));
    assert_eq!(normalized.markets, []);
    assert_eq!(
        reasons(&normalized),
        [
            "market 1: placeholder market, not listed yet",
            "market 2: no outcomePrices",
            "market 3: no outcomePrices"
        ]
    );
}

#[test]
fn best_bid_and_ask_quote_the_first_outcome_and_mirror_onto_the_second() {
    let market = only_market(json!([gamma_market(json!({"bestBid": 0.02, "bestAsk": 0.038}))]));
    assert_eq!(quote(&market.outcomes[0]), (Some(0.02), Some(0.038)));
    assert_eq!(quote(&market.outcomes[1]), (Some(0.962), Some(0.98)));
    let empty_book = only_market(json!([gamma_market(json!({"bestBid": 0, "bestAsk": 1}))]));
    assert_eq!(quote(&empty_book.outcomes[0]), (None, None));
    assert_eq!(quote(&empty_book.outcomes[1]), (None, None));
    let no_quotes = only_market(json!([gamma_market(json!({}))]));
    assert_eq!(quote(&no_quotes.outcomes[0]), (None, None));
    let three_way = only_market(json!([gamma_market(json!({
        "outcomes": "[\"A\", \"B\", \"C\"]",
        "outcomePrices": "[\"0.2\", \"0.3\", \"0.5\"]",
        "bestBid": "0.19",
        "bestAsk": 0.21,
    }))]));
    assert_eq!(quote(&three_way.outcomes[0]), (Some(0.19), Some(0.21)));
    assert_eq!(quote(&three_way.outcomes[1]), (None, None));
    assert_eq!(quote(&three_way.outcomes[2]), (None, None));
}

#[test]
fn status_follows_closed_then_archived_then_active() {
    let status = |changes: Value| only_market(json!([gamma_market(changes)])).status;
    let closed = |prices: &str| json!({"closed": true, "outcomePrices": prices});
    assert_eq!(status(json!({})), MarketStatus::Open);
    assert_eq!(status(closed("[\"0.995\", \"0.005\"]")), MarketStatus::Resolved);
    assert_eq!(status(closed("[\"0\", \"0\"]")), MarketStatus::Resolved);
    assert_eq!(status(closed("[\"0.6\", \"0.4\"]")), MarketStatus::Closed);
    assert_eq!(
        status(json!({"closed": true, "outcomePrices": "[\"0.6\", \"0.4\"]", "umaResolutionStatus": "resolved"})),
        MarketStatus::Resolved
    );
    assert_eq!(
        status(json!({"closed": true, "outcomePrices": "[\"0.6\", \"0.4\"]", "umaResolutionStatus": "disputed"})),
        MarketStatus::Closed
    );
    assert_eq!(status(json!({"archived": true})), MarketStatus::Closed);
    assert_eq!(status(json!({"active": false})), MarketStatus::Closed);
    assert_eq!(status(json!({"active": "true", "closed": "false"})), MarketStatus::Open);
}

#[test]
fn a_resolved_market_has_the_outcome_at_the_winning_price_and_its_closing_time() {
    let resolution = |prices: &str, closed_time: Value| {
        only_market(json!([gamma_market(
            json!({"closed": true, "outcomePrices": prices, "umaResolutionStatus": "resolved", "closedTime": closed_time})
        )]))
        .resolution
        .map(|resolution| (resolution.outcome, resolution.resolved_at.map(to_iso8601)))
    };
    assert_eq!(
        resolution("[\"0\", \"1\"]", json!("2025-04-01 08:21:16+00")),
        Some((Some("No".to_owned()), Some("2025-04-01T08:21:16.000Z".to_owned())))
    );
    assert_eq!(
        resolution("[\"0.995\", \"0.005\"]", Value::Null),
        Some((Some("Yes".to_owned()), None))
    );
    // Resolved, but no outcome at the winning price: no winner is made up.
    assert_eq!(resolution("[\"0.5\", \"0.5\"]", Value::Null), Some((None, None)));
    assert_eq!(resolution("[\"0\", \"0\"]", Value::Null), Some((None, None)));
    assert_eq!(only_market(json!([gamma_market(json!({}))])).resolution, None, "open");
    let closed = only_market(json!([gamma_market(
        json!({"closed": true, "outcomePrices": "[\"0.6\", \"0.4\"]"})
    )]));
    assert_eq!((closed.status, closed.resolution), (MarketStatus::Closed, None));
}

#[test]
fn rules_are_the_description_and_the_resolution_source() {
    let market = only_market(json!([gamma_market(json!({
        "description": "Resolves Yes if it rains.", "resolutionSource": " https://weather.gov "
    }))]));
    assert_eq!(
        market.rules,
        Rules {
            primary: Some("Resolves Yes if it rains.".to_owned()),
            secondary: None,
            source: Some("https://weather.gov".to_owned())
        }
    );
    let without = only_market(json!([gamma_market(
        json!({"description": "", "resolutionSource": ""})
    )]));
    assert_eq!(without.rules, Rules::default());
}

#[test]
fn amounts_prefer_the_numeric_fields_and_default_to_zero() {
    let numeric = only_market(json!([gamma_market(json!({
        "liquidityNum": 10.5, "liquidity": "99", "volumeNum": 20, "volume": "99", "volume24hr": 3.25
    }))]));
    assert_eq!(
        (numeric.liquidity, numeric.volume, numeric.volume_24h),
        (10.5, 20.0, 3.25)
    );
    let strings = only_market(json!([gamma_market(
        json!({"liquidity": "54502.0171", "volume": "1015033.948621"})
    )]));
    assert_eq!(
        (strings.liquidity, strings.volume, strings.volume_24h),
        (54502.0171, 1015033.948621, 0.0)
    );
    let absent = only_market(json!([gamma_market(json!({}))]));
    assert_eq!((absent.liquidity, absent.volume, absent.volume_24h), (0.0, 0.0, 0.0));
    let negative = run(json!([gamma_market(json!({"volumeNum": -1}))]));
    assert_eq!(
        reasons(&negative),
        ["market 1: volume is -1, not a finite amount of at least 0"]
    );
}

#[test]
fn dates_fall_back_to_the_iso_date_fields_and_bad_dates_skip() {
    let market = only_market(json!([gamma_market(json!({
        "startDateIso": "2024-11-07",
        "endDate": "2025-06-30T12:00:00Z",
        "endDateIso": "2025-06-30",
        "createdAt": "2024-11-07T18:07:21.840001Z",
        "updatedAt": "2025-02-28 04:58:46+00",
    }))]));
    assert_eq!(
        market.start_date.map(to_iso8601).as_deref(),
        Some("2024-11-07T00:00:00.000Z")
    );
    assert_eq!(
        market.end_date.map(to_iso8601).as_deref(),
        Some("2025-06-30T12:00:00.000Z")
    );
    assert_eq!(
        market.created_at.map(to_iso8601).as_deref(),
        Some("2024-11-07T18:07:21.840Z")
    );
    assert_eq!(
        market.source_updated_at.map(to_iso8601).as_deref(),
        Some("2025-02-28T04:58:46.000Z")
    );
    let bad = run(json!([gamma_market(json!({"endDate": "soon"}))]));
    assert_eq!(reasons(&bad), ["market 1: endDate \"soon\" is not a date"]);
}

fn gamma_event(changes: Value) -> Value {
    let mut event = json!({
        "id": "77",
        "title": "Weather in 2025",
        "slug": "weather-2025",
        "image": "https://example.test/event.png",
        "volume": 123.5,
        "createdAt": "2025-01-01T00:00:00Z",
        "updatedAt": "2025-01-02T00:00:00Z",
        "series": [{"slug": ""}, {"slug": "daily-weather"}],
    });
    merge(&mut event, changes);
    event
}

#[test]
fn markets_endpoint_emits_each_embedded_event_once_and_links_to_it() {
    let normalized = run(json!([
        gamma_market(json!({"id": "1", "events": [gamma_event(json!({}))]})),
        gamma_market(
            json!({"id": "2", "slug": "will-it-snow", "question": "Will it snow?", "events": [gamma_event(json!({}))]})
        ),
        gamma_market(json!({"id": "3", "slug": "orphan"})),
    ]));
    assert_eq!(normalized.skipped, []);
    assert_eq!(normalized.events.len(), 1);
    let event = &normalized.events[0];
    assert_eq!(
        (event.external_id.as_str(), event.title.as_str()),
        ("77", "Weather in 2025")
    );
    assert_eq!(event.reported_volume, Some(123.5));
    assert_eq!(event.series_slug.as_deref(), Some("daily-weather"));
    assert_eq!(event.category, Category::ClimateAndWeather, "inferred from the title");
    let first = &normalized.markets[0];
    assert_eq!(first.event_external_id.as_deref(), Some("77"));
    assert_eq!(first.url, "https://polymarket.com/event/weather-2025/will-it-rain");
    assert_eq!(first.url_keys.event.as_deref(), Some("weather-2025"));
    assert_eq!(first.url_keys.series.as_deref(), Some("daily-weather"));
    assert_eq!(
        first.image_url, "https://example.test/event.png",
        "falls back to the event's image"
    );
    let orphan = &normalized.markets[2];
    assert_eq!(orphan.event_external_id, None);
    assert_eq!(orphan.url, "https://polymarket.com/market/orphan");
    assert_eq!(orphan.image_url, "");
}

#[test]
fn an_unreadable_embedded_event_skips_its_market() {
    let normalized = run(json!([
        gamma_market(json!({"id": "1", "events": [gamma_event(json!({"title": ""}))]})),
        gamma_market(json!({"id": "2", "events": [gamma_event(json!({"id": "78", "createdAt": "yesterday"}))]})),
        gamma_market(json!({"id": "3", "events": "77"})),
        gamma_market(json!({"id": "4", "events": [gamma_event(json!({"id": null}))]})),
    ]));
    assert_eq!(normalized.markets, []);
    assert_eq!(normalized.events, []);
    let reasons = reasons(&normalized);
    assert_eq!(reasons[0], "market 1: its embedded event 77: no title");
    assert_eq!(
        reasons[1],
        "market 2: its embedded event 78: createdAt \"yesterday\" is not a date"
    );
    assert!(
        reasons[2].starts_with("market 3: unreadable events (the string \"77\")"),
        "{}",
        reasons[2]
    );
    assert_eq!(reasons[3], "market 4: its embedded event: no id");
}

#[test]
fn category_takes_the_first_label_that_maps_then_infers() {
    let category = |market_changes: Value, event_changes: Value| {
        let mut changes = market_changes;
        merge(&mut changes, json!({"events": [gamma_event(event_changes)]}));
        only_market(json!([gamma_market(changes)])).category
    };
    let tags = json!({"tags": [{"label": "2025 Predictions"}, {"label": "Crypto"}, {"label": "Politics"}]});
    assert_eq!(
        category(json!({"category": "Pop-Culture "}), json!({"category": "Sports"})),
        Category::Culture
    );
    assert_eq!(
        category(json!({"category": "Unknown label"}), json!({"category": "Sports"})),
        Category::Sports
    );
    assert_eq!(category(json!({}), tags), Category::Crypto);
    assert_eq!(
        category(json!({}), json!({})),
        Category::ClimateAndWeather,
        "inferred from question and event title"
    );
    assert_eq!(
        category(
            json!({"question": "Will Bitcoin hit $1m?"}),
            json!({"title": "Bitcoin"})
        ),
        Category::Crypto
    );
}

#[test]
fn events_endpoint_parents_its_nested_markets() {
    let event = {
        let mut event = gamma_event(json!({
            "creationDate": "2024-12-31T00:00:00Z",
            "createdAt": null,
            "seriesSlug": "Rain-Series",
            "tags": [{"label": "Weather"}],
            "description": "About the weather.",
        }));
        merge(
            &mut event,
            json!({"markets": [gamma_market(json!({})), gamma_market(json!({"id": "2", "outcomePrices": null, "active": false}))]}),
        );
        event
    };
    let (kind, normalized) = normalize(Exchange::Polymarket, json!([event]).to_string().as_bytes()).unwrap();
    assert_eq!(kind, PayloadKind::PolymarketEvents);
    assert_eq!(normalized.events.len(), 1);
    let event = &normalized.events[0];
    assert_eq!(
        event.created_at.map(to_iso8601).as_deref(),
        Some("2024-12-31T00:00:00.000Z")
    );
    assert_eq!(
        event.series_slug.as_deref(),
        Some("rain-series"),
        "seriesSlug first, lower-cased"
    );
    assert_eq!(event.description, "About the weather.");
    assert_eq!(normalized.markets.len(), 1);
    assert_eq!(normalized.markets[0].event_external_id.as_deref(), Some("77"));
    assert_eq!(normalized.markets[0].url_keys.series.as_deref(), Some("rain-series"));
    assert_eq!(reasons(&normalized), ["market 2: placeholder market, not listed yet"]);
}

#[test]
fn a_skipped_event_takes_its_nested_markets_with_it() {
    let mut broken = gamma_event(json!({"title": null}));
    merge(
        &mut broken,
        json!({"markets": [gamma_market(json!({})), json!("junk")]}),
    );
    let mut not_a_list = gamma_event(json!({"id": "79"}));
    merge(&mut not_a_list, json!({"markets": 5}));
    let normalized = run(json!([broken, not_a_list]));
    assert_eq!((normalized.events.len(), normalized.markets.len()), (0, 0));
    assert_eq!(
        reasons(&normalized),
        [
            "event 77: no title",
            "market 1: not imported because event 77 was skipped",
            "market at index 1 of event 77: not imported because event 77 was skipped",
            "event 79: markets is the number 5, not a list",
        ]
    );
}

#[test]
fn single_event_and_single_market_objects_are_lists_of_one() {
    let (kind, normalized) = normalize(Exchange::Polymarket, gamma_market(json!({})).to_string().as_bytes()).unwrap();
    assert_eq!((kind, normalized.markets.len()), (PayloadKind::PolymarketMarket, 1));
    let mut event = gamma_event(json!({}));
    merge(&mut event, json!({"markets": [gamma_market(json!({}))]}));
    let (kind, normalized) = normalize(Exchange::Polymarket, event.to_string().as_bytes()).unwrap();
    assert_eq!(
        (kind, normalized.events.len(), normalized.markets.len()),
        (PayloadKind::PolymarketEvent, 1, 1)
    );
}

#[test]
fn ids_may_be_numbers_and_repeats_are_skipped() {
    let normalized = run(json!([
        gamma_market(json!({"id": 512272})),
        gamma_market(json!({"id": "512272"})),
        gamma_market(json!({"id": null}))
    ]));
    assert_eq!(normalized.markets.len(), 1);
    assert_eq!(normalized.markets[0].external_id, "512272");
    assert_eq!(
        reasons(&normalized),
        [
            "market 512272: repeats an earlier market of this payload",
            "market at index 2: no id"
        ]
    );
    assert_eq!(normalized.skipped[1].external_id, None);
}

#[test]
fn question_is_trimmed_and_required() {
    assert_eq!(
        only_market(json!([gamma_market(json!({"question": "  Will it rain?\n"}))])).question,
        "Will it rain?"
    );
    let normalized = run(json!([
        gamma_market(json!({"question": "   "})),
        gamma_market(json!({"id": "2", "question": 5}))
    ]));
    let reasons = reasons(&normalized);
    assert_eq!(reasons[0], "market 1: no question");
    assert!(
        reasons[1].starts_with("market 2: unreadable question (the number 5): invalid type"),
        "{}",
        reasons[1]
    );
}

#[test]
fn each_embedded_event_is_taken_from_its_first_copy_that_normalizes() {
    let normalized = run(json!([
        gamma_market(json!({"id": "1", "events": [gamma_event(json!({"updatedAt": "never"}))]})),
        gamma_market(json!({"id": "2", "events": [gamma_event(json!({}))]})),
        gamma_market(json!({"id": "3", "events": [gamma_event(json!({"title": "Renamed"}))]})),
    ]));
    let ids: Vec<&str> = normalized
        .markets
        .iter()
        .map(|market| market.external_id.as_str())
        .collect();
    assert_eq!(ids, ["2", "3"]);
    assert_eq!(
        reasons(&normalized),
        ["market 1: its embedded event 77: updatedAt \"never\" is not a date"]
    );
    assert_eq!(normalized.events.len(), 1);
    assert_eq!(normalized.events[0].title, "Weather in 2025");
}
