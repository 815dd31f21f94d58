//! Property tests of the crate's two invariants: no input makes it panic, and every record
//! of a payload ends up either in the output or in `skipped`, never in neither.

use std::collections::HashSet;
use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use marketlens_domain::Exchange;
use marketlens_exchanges::{Normalized, PayloadKind, detect, normalize};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Map, Value};

/// Field names the normalizers read, so that random objects reach the mapping code and not
/// only the "unknown shape" path.
const KNOWN_KEYS: &[&str] = &[
    "id",
    "question",
    "title",
    "slug",
    "outcomes",
    "outcomePrices",
    "bestBid",
    "bestAsk",
    "active",
    "closed",
    "archived",
    "umaResolutionStatus",
    "resolutionSource",
    "closedTime",
    "volume",
    "volumeNum",
    "liquidity",
    "liquidityNum",
    "volume24hr",
    "startDate",
    "endDateIso",
    "createdAt",
    "updatedAt",
    "image",
    "category",
    "tags",
    "label",
    "series",
    "seriesSlug",
    "events",
    "markets",
    "event",
    "market",
    "cursor",
    "ticker",
    "event_ticker",
    "series_ticker",
    "status",
    "result",
    "yes_sub_title",
    "last_price_dollars",
    "last_price",
    "yes_bid_dollars",
    "yes_ask",
    "no_bid",
    "settlement_value_dollars",
    "volume_fp",
    "liquidity_dollars",
    "open_time",
    "created_time",
    "rules_primary",
    "rules_secondary",
    "settlement_ts",
    "last_updated_ts",
];

/// Strings that are meaningful to some field: numbers, non-finite numbers, dates, encoded lists.
const INTERESTING_STRINGS: &[&str] = &[
    "",
    " ",
    "0",
    "1",
    "-1",
    "0.5",
    "1.5",
    "NaN",
    "inf",
    "-infinity",
    "1e308",
    "1e-320",
    "true",
    "yes",
    "no",
    "finalized",
    "active",
    "resolved",
    "2025-12-31",
    "2025-02-28 04:58:46+00",
    "0001-01-01T00:00:00Z",
    "2025-01-05T18:49:12.543209Z",
    "[\"Yes\", \"No\"]",
    "[\"0.5\", \"0.5\"]",
    "[\"0.5\", \"NaN\"]",
    "[1, 2, 3]",
    "[",
    "é—\u{0}",
];

fn json_string() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(INTERESTING_STRINGS).prop_map(str::to_owned),
        ".{0,12}",
    ]
}

fn json_key() -> impl Strategy<Value = String> {
    prop_oneof![3 => prop::sample::select(KNOWN_KEYS).prop_map(str::to_owned), 1 => ".{0,6}"]
}

fn json_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("JSON has no NaN or infinity", |number| {
            serde_json::Number::from_f64(number).map(Value::Number)
        }),
        prop::sample::select(&[0.0, 0.5, 0.99, 1.0, -0.0, -1.0, 1e300][..])
            .prop_map(|number| { serde_json::Number::from_f64(number).map_or(Value::Null, Value::Number) }),
    ]
}

/// Any JSON value, nested a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        json_number(),
        json_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((json_key(), inner), 0..8)
                .prop_map(|fields| Value::Object(fields.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// An object whose keys are mostly field names the normalizers read.
fn json_record() -> BoxedStrategy<Value> {
    prop::collection::vec((json_key(), json_value()), 0..10)
        .prop_map(|fields| Value::Object(fields.into_iter().collect::<Map<_, _>>()))
        .boxed()
}

/// Random records inside each of the envelopes the crate recognises.
fn enveloped_value() -> impl Strategy<Value = Value> {
    let records = || prop::collection::vec(json_record(), 0..4);
    prop_oneof![
        records().prop_map(Value::Array),
        json_record(),
        records().prop_map(|markets| serde_json::json!({"cursor": "", "markets": markets})),
        records().prop_map(|events| serde_json::json!({"cursor": "", "events": events})),
        (json_record(), records()).prop_map(|(event, markets)| serde_json::json!({"event": event, "markets": markets})),
        json_record().prop_map(|market| serde_json::json!({"market": market})),
    ]
}

fn nested_markets(record: &Value) -> usize {
    record.get("markets").and_then(Value::as_array).map_or(0, Vec::len)
}

/// The number of records a payload holds, counted independently of the crate: top-level
/// records, plus the markets nested in (or beside) events.
fn input_records(kind: PayloadKind, payload: &Value) -> usize {
    let list = |key: &str| payload.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
    // Gamma lists come bare, or inside the keyset envelope `{"events": [...], "next_cursor": ...}`.
    let gamma_list = |key: &str| payload.as_array().cloned().unwrap_or_else(|| list(key));
    match kind {
        PayloadKind::PolymarketEvents => gamma_list("events").iter().map(|event| 1 + nested_markets(event)).sum(),
        PayloadKind::PolymarketMarkets => gamma_list("markets").len(),
        PayloadKind::PolymarketEvent => 1 + nested_markets(payload),
        PayloadKind::PolymarketMarket | PayloadKind::KalshiMarket => 1,
        PayloadKind::KalshiEvents => list("events").iter().map(|event| 1 + nested_markets(event)).sum(),
        PayloadKind::KalshiMarkets => list("markets").len(),
        PayloadKind::KalshiEvent => 1 + nested_markets(&payload["event"]) + list("markets").len(),
        PayloadKind::KalshiSeries => 0,
    }
}

/// The output's records: markets and skips, plus events where events are records (on
/// Polymarket's `/markets`, events are extracted from the markets and are not counted).
fn output_records(kind: PayloadKind, normalized: &Normalized) -> usize {
    let events = if kind.lists_events() {
        normalized.events.len()
    } else {
        0
    };
    normalized.markets.len() + normalized.skipped.len() + events
}

fn check_output(kind: PayloadKind, payload: &Value, normalized: &Normalized) -> Result<(), TestCaseError> {
    for market in &normalized.markets {
        prop_assert!(market.validate().is_ok(), "invalid market {market:?}");
    }
    for skipped in &normalized.skipped {
        prop_assert!(!skipped.reason.contains('\n'), "multi-line reason {:?}", skipped.reason);
    }
    prop_assert_eq!(output_records(kind, normalized), input_records(kind, payload));
    Ok(())
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = detect(&bytes);
        for exchange in Exchange::ALL {
            let _ = normalize(exchange, &bytes);
        }
    }

    #[test]
    fn arbitrary_json_never_panics_and_accounts_for_every_record(
        payload in prop_oneof![json_value(), enveloped_value()]
    ) {
        let bytes = serde_json::to_vec(&payload).unwrap();
        let _ = detect(&bytes);
        for exchange in Exchange::ALL {
            if let Ok((kind, normalized)) = normalize(exchange, &bytes) {
                check_output(kind, &payload, &normalized)?;
            }
        }
    }
}

/// A recorded payload, parsed once per test run.
struct Fixture {
    name: String,
    exchange: Exchange,
    kind: PayloadKind,
    payload: Value,
}

fn fixtures() -> &'static [Fixture] {
    static FIXTURES: OnceLock<Vec<Fixture>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo-data");
        let mut fixtures = Vec::new();
        for exchange in Exchange::ALL {
            let mut paths: Vec<_> = fs::read_dir(root.join(exchange.platform()))
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
                .collect();
            paths.sort();
            for path in paths {
                let bytes = fs::read(&path).unwrap();
                let kind = detect(&bytes).unwrap();
                if kind == PayloadKind::KalshiSeries {
                    continue;
                }
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                fixtures.push(Fixture {
                    name,
                    exchange,
                    kind,
                    payload: serde_json::from_slice(&bytes).unwrap(),
                });
            }
        }
        fixtures
    })
}

/// A small payload cut from a fixture: the same envelope with a few consecutive top-level
/// records starting at `first(number of records)`, so that each case stays fast on
/// multi-megabyte files.
fn window(payload: &Value, first: &dyn Fn(usize) -> usize) -> Value {
    const RECORDS: usize = 3;
    let cut = |records: &Vec<Value>| -> Vec<Value> {
        if records.is_empty() {
            return Vec::new();
        }
        let first = first(records.len()).min(records.len() - 1);
        records[first..records.len().min(first + RECORDS)].to_vec()
    };
    match payload {
        Value::Array(records) => Value::Array(cut(records)),
        Value::Object(fields) if fields.contains_key("event") => payload.clone(),
        Value::Object(fields) => {
            let mut fields = fields.clone();
            for key in ["events", "markets"] {
                if let Some(Value::Array(records)) = fields.get(key) {
                    let records = cut(records);
                    fields.insert(key.to_owned(), Value::Array(records));
                }
            }
            Value::Object(fields)
        }
        other => other.clone(),
    }
}

/// JSON pointers to every record object in a payload: top-level records and nested markets.
fn record_pointers(payload: &Value) -> Vec<String> {
    let mut pointers = Vec::new();
    let mut add = |prefix: String, records: &Value| {
        for (index, record) in records.as_array().into_iter().flatten().enumerate() {
            let pointer = format!("{prefix}/{index}");
            for (nested, _market) in record
                .get("markets")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                pointers.push(format!("{pointer}/markets/{nested}"));
            }
            pointers.push(pointer);
        }
    };
    match payload {
        Value::Array(_) => add(String::new(), payload),
        Value::Object(fields) => {
            for key in ["events", "markets"] {
                if let Some(records) = fields.get(key) {
                    add(format!("/{key}"), records);
                }
            }
            if let Some(event) = fields.get("event") {
                for (nested, _market) in event
                    .get("markets")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    pointers.push(format!("/event/markets/{nested}"));
                }
                pointers.push("/event".to_owned());
            }
        }
        _ => {}
    }
    pointers
}

/// A record's own id as the normalizers read it: Polymarket `id` (string or number), Kalshi
/// `ticker` or `event_ticker`.
fn record_id(record: &Value) -> Option<String> {
    ["id", "ticker", "event_ticker"]
        .iter()
        .find_map(|key| match record.get(*key) {
            Some(Value::String(text)) => Some(text.trim().to_owned()),
            Some(Value::Number(number)) => Some(number.to_string()),
            _ => None,
        })
}

/// The ids a damaged record may take down with it: its own, its nested markets', its embedded
/// events', and (for Kalshi's single-event response) the markets listed beside the event.
fn ids_owned_by(payload: &Value, pointer: &str, record: &Value) -> HashSet<String> {
    let mut owned: HashSet<String> = record_id(record).into_iter().collect();
    for list in ["markets", "events"] {
        for child in record.get(list).and_then(Value::as_array).into_iter().flatten() {
            owned.extend(record_id(child));
        }
    }
    if pointer == "/event" {
        for beside in payload.get("markets").and_then(Value::as_array).into_iter().flatten() {
            owned.extend(record_id(beside));
        }
    }
    owned
}

fn emitted_ids(normalized: &Normalized) -> HashSet<String> {
    let markets = normalized.markets.iter().map(|market| market.external_id.clone());
    markets
        .chain(normalized.events.iter().map(|event| event.external_id.clone()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn damaging_one_field_of_a_real_record_skips_at_most_that_record(
        fixture in any::<Index>(),
        start in any::<Index>(),
        record in any::<Index>(),
        field in any::<Index>(),
        replacement in prop::option::weighted(0.85, json_value()),
    ) {
        let fixture = &fixtures()[fixture.index(fixtures().len())];
        let mut payload = window(&fixture.payload, &|records| start.index(records));
        let pointers = record_pointers(&payload);
        prop_assume!(!pointers.is_empty());
        let pointer = &pointers[record.index(pointers.len())];
        let undamaged_payload = payload.clone();
        let Some(Value::Object(fields)) = payload.pointer_mut(pointer) else {
            return Err(TestCaseError::fail(format!("{}: {pointer} is not an object", fixture.name)));
        };
        prop_assume!(!fields.is_empty());
        let key = fields.keys().nth(field.index(fields.len())).unwrap().clone();
        let owned = ids_owned_by(&undamaged_payload, pointer, &Value::Object(fields.clone()));
        match replacement {
            Some(value) => fields.insert(key.clone(), value),
            None => fields.remove(&key),
        };
        let bytes = serde_json::to_vec(&payload).unwrap();
        let (kind, normalized) = normalize(fixture.exchange, &bytes)
            .map_err(|error| TestCaseError::fail(format!("{}: {error}", fixture.name)))?;
        prop_assert_eq!(kind, fixture.kind);
        check_output(kind, &payload, &normalized)?;

        // Nothing outside the damaged record goes missing: only its own id, what it owns, or
        // a record whose id the damage made it repeat.
        let (_, undamaged) = normalize(fixture.exchange, &serde_json::to_vec(&undamaged_payload).unwrap()).unwrap();
        let collided = payload.pointer(pointer).and_then(record_id);
        let emitted = emitted_ids(&normalized);
        for lost in emitted_ids(&undamaged).difference(&emitted) {
            prop_assert!(
                owned.contains(lost) || collided.as_deref() == Some(lost.as_str()),
                "{}: damaging {pointer}/{key} lost the unrelated record {lost}",
                fixture.name
            );
        }
    }
}

#[test]
fn the_windows_cover_every_fixture_kind() {
    let kinds: std::collections::HashSet<PayloadKind> = fixtures().iter().map(|fixture| fixture.kind).collect();
    for kind in [
        PayloadKind::PolymarketEvents,
        PayloadKind::PolymarketMarkets,
        PayloadKind::KalshiEvents,
        PayloadKind::KalshiMarkets,
        PayloadKind::KalshiEvent,
    ] {
        assert!(kinds.contains(&kind), "{kind:?}");
    }
    // An unchanged window accounts for every record too.
    for fixture in fixtures() {
        let payload = window(&fixture.payload, &|records| records / 2);
        let (kind, normalized) = normalize(fixture.exchange, &serde_json::to_vec(&payload).unwrap()).unwrap();
        assert_eq!(
            output_records(kind, &normalized),
            input_records(kind, &payload),
            "{}",
            fixture.name
        );
    }
}
