//! One record at a time: reading a record of a payload into its wire struct with a reason a
//! person can act on, and gathering what the records turn into.
//!
//! Every record ends up in exactly one place: a normalized market or event, or a
//! [`Skipped`] entry that says which record and why. The [`Collector`] enforces the rules
//! that hold whatever the exchange: a market must pass [`Market::validate`], and an id is
//! emitted at most once per payload.

use std::collections::HashSet;
use std::fmt;

use marketlens_domain::{Event, Market};
use serde::de::DeserializeOwned;
use serde::de::value::MapDeserializer;
use serde_json::Value;

use crate::lenient::preview_text;
use crate::{Normalized, Skipped};

/// Reads `record` into the wire struct `T`. Wire structs make every field optional, so a
/// failure means some field we use holds a value of the wrong kind; the reason names that
/// field and shows its value, e.g.
/// `unreadable outcomePrices (the string "[\"0.5\",\"x\"]"): "x" is not a finite number …`.
pub(crate) fn read<T: DeserializeOwned>(record: &Value) -> Result<T, String> {
    let Some(fields) = record.as_object() else {
        // A struct would also deserialize from a list (field by field, in order), which
        // would silently give meaning to nonsense.
        return Err(format!("not a JSON object but {}", describe(record)));
    };
    T::deserialize(record).map_err(|error| {
        // Find the culprit by reading each field on its own; this only runs on failure.
        for (key, value) in fields {
            let single_field = MapDeserializer::<_, serde_json::Error>::new(std::iter::once((key.as_str(), value)));
            if let Err(field_error) = T::deserialize(single_field) {
                return format!(
                    "unreadable {key} ({}): {}",
                    describe(value),
                    serde_reason(&field_error.to_string())
                );
            }
        }
        serde_reason(&error.to_string())
    })
}

/// The id of a record read straight from the JSON, for reporting a record whose wire struct
/// could not be read: a string, or a number written as one.
pub(crate) fn raw_id(record: &Value, key: &str) -> Option<String> {
    match record.get(key)? {
        Value::String(text) if !text.trim().is_empty() => Some(text.trim().to_owned()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// The records nested under `key` (an event's `markets`). Absent and `null` mean none, as
/// Go-based APIs write an empty list as `null`; anything else but a list is an error.
pub(crate) fn nested_list<'a>(record: &'a Value, key: &str) -> Result<&'a [Value], String> {
    match record.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(format!("{key} is {}, not a list", describe(other))),
    }
}

/// What kind of JSON value this is, with a short preview of scalars.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(flag) => format!("the boolean {flag}"),
        Value::Number(number) => format!("the number {number}"),
        Value::String(text) => format!("the string {}", preview_text(text)),
        Value::Array(items) if items.is_empty() => "an empty list".to_owned(),
        Value::Array(items) => format!("a list of {}", count(items.len(), "item")),
        Value::Object(fields) if fields.is_empty() => "an empty object".to_owned(),
        Value::Object(fields) => format!("an object with {}", count(fields.len(), "key")),
    }
}

/// `1 price`, `3 prices`.
pub(crate) fn count(number: usize, noun: &str) -> String {
    if number == 1 {
        format!("1 {noun}")
    } else {
        format!("{number} {noun}s")
    }
}

/// A serde error as one short line. `PickFirst` reports every alternative it tried
/// ("First: invalid type: string, expected f64 Second: \"x\" is not a finite number"); the
/// alternatives that failed only because they expect another kind of value say nothing, so
/// the others are kept, or else what was expected.
fn serde_reason(message: &str) -> String {
    const PICK_FIRST: &str = "PickFirst could not deserialize any variant:";
    const MARKERS: [&str; 5] = [PICK_FIRST, "First:", "Second:", "Third:", "Fourth:"];
    let message = one_line(message);
    if !message.contains(PICK_FIRST) {
        return message;
    }
    let mut separated = message;
    for marker in MARKERS {
        separated = separated.replace(marker, "\u{1}");
    }
    let attempts: Vec<&str> = separated
        .split('\u{1}')
        .map(str::trim)
        .filter(|attempt| !attempt.is_empty())
        .collect();
    let mut reasons: Vec<&str> = attempts
        .iter()
        .copied()
        .filter(|attempt| !attempt.starts_with("invalid type:"))
        .collect();
    if reasons.is_empty() {
        let mut expected: Vec<&str> = attempts
            .iter()
            .filter_map(|attempt| attempt.split_once(", expected ").map(|(_, expected)| expected))
            .collect();
        expected.dedup();
        return format!("expected {}", expected.join(" or "));
    }
    reasons.dedup();
    reasons.join("; ")
}

/// Collapses serde's multi-line messages (`PickFirst` lists each attempt on its own line).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Names a record in a skip reason: by its id when it has one, else by its position.
#[derive(Debug, Clone)]
pub(crate) struct Label {
    noun: &'static str,
    external_id: Option<String>,
    index: usize,
    parent: Option<String>,
}

impl Label {
    pub(crate) fn market(external_id: Option<String>, index: usize) -> Label {
        Label {
            noun: "market",
            external_id,
            index,
            parent: None,
        }
    }

    pub(crate) fn event(external_id: Option<String>, index: usize) -> Label {
        Label {
            noun: "event",
            external_id,
            index,
            parent: None,
        }
    }

    /// Locates a record without an id inside its parent (`market at index 3 of event 14205`).
    pub(crate) fn within(mut self, parent: &Label) -> Label {
        self.parent = Some(parent.to_string());
        self
    }

    pub(crate) fn external_id(&self) -> Option<&str> {
        self.external_id.as_deref()
    }
}

impl fmt::Display for Label {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.external_id, &self.parent) {
            (Some(external_id), _) => write!(formatter, "{} {external_id}", self.noun),
            (None, Some(parent)) => write!(formatter, "{} at index {} of {parent}", self.noun, self.index),
            (None, None) => write!(formatter, "{} at index {}", self.noun, self.index),
        }
    }
}

/// Gathers the output of one payload.
#[derive(Default)]
pub(crate) struct Collector {
    normalized: Normalized,
    market_ids: HashSet<String>,
    event_ids: HashSet<String>,
}

impl Collector {
    /// Keeps a market when it is valid and its id is new in this payload; otherwise records
    /// why it was left out.
    pub(crate) fn market(&mut self, label: &Label, market: Result<Market, String>) {
        let market = match market {
            Ok(market) => market,
            Err(reason) => return self.skip(label, &reason),
        };
        if let Err(invalid) = market.validate() {
            return self.skip(label, &invalid.to_string());
        }
        if !self.market_ids.insert(market.external_id.clone()) {
            return self.skip(label, "repeats an earlier market of this payload");
        }
        self.normalized.markets.push(market);
    }

    /// Keeps an event that is a record of the payload (not one embedded in a market) when its
    /// id is new in this payload.
    pub(crate) fn event(&mut self, label: &Label, event: Event) {
        if self.event_ids.insert(event.external_id.clone()) {
            self.normalized.events.push(event);
        } else {
            self.skip(label, "repeats an earlier event of this payload");
        }
    }

    /// Keeps an event embedded in a market, once per payload: on Polymarket's `/markets`
    /// every market of a multi-outcome event embeds the same event.
    pub(crate) fn embedded_event(&mut self, event: Event) {
        if self.event_ids.insert(event.external_id.clone()) {
            self.normalized.events.push(event);
        }
    }

    pub(crate) fn skip(&mut self, label: &Label, reason: &str) {
        self.normalized.skipped.push(Skipped {
            external_id: label.external_id().map(str::to_owned),
            reason: format!("{label}: {reason}"),
            problem: reason.to_owned(),
        });
    }

    pub(crate) fn finish(self) -> Normalized {
        self.normalized
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Default, Deserialize)]
    #[serde(default)]
    struct Sample {
        #[allow(dead_code)]
        name: Option<String>,
        #[allow(dead_code)]
        count: Option<u32>,
    }

    #[test]
    fn read_names_the_unreadable_field() {
        let error = read::<Sample>(&json!({"name": "x", "count": "many", "other": 1})).unwrap_err();
        assert_eq!(
            error,
            "unreadable count (the string \"many\"): invalid type: string \"many\", expected u32"
        );
        assert_eq!(
            read::<Sample>(&json!([1, 2])).unwrap_err(),
            "not a JSON object but a list of 2 items"
        );
        assert!(read::<Sample>(&json!({"unknown": {"deep": [1]}})).is_ok());
    }

    #[test]
    fn pick_first_errors_keep_the_attempt_that_applied() {
        let nested = "PickFirst could not deserialize any variant:\n  First: PickFirst could not deserialize any variant:\n  First: invalid type: string \"x\", expected f64\n  Second: \"x\" is not a finite number at line 1 column 11\n  Second: invalid type: string \"[\\\"0.5\\\",\\\"x\\\"]\", expected a sequence";
        assert_eq!(serde_reason(nested), "\"x\" is not a finite number at line 1 column 11");
        let kinds = "PickFirst could not deserialize any variant:\n  First: invalid type: map, expected f64\n  Second: invalid type: map, expected a string";
        assert_eq!(serde_reason(kinds), "expected f64 or a string");
        assert_eq!(
            serde_reason("invalid type: integer `5`,\n expected a string"),
            "invalid type: integer `5`, expected a string"
        );
    }

    #[test]
    fn raw_ids_and_nested_lists() {
        assert_eq!(raw_id(&json!({"id": 12}), "id").as_deref(), Some("12"));
        assert_eq!(raw_id(&json!({"id": " 12 "}), "id").as_deref(), Some("12"));
        assert_eq!(raw_id(&json!({"id": ""}), "id"), None);
        assert_eq!(raw_id(&json!({"id": [1]}), "id"), None);
        assert_eq!(raw_id(&json!(3), "id"), None);
        assert_eq!(nested_list(&json!({"markets": null}), "markets").unwrap().len(), 0);
        assert_eq!(nested_list(&json!({}), "markets").unwrap().len(), 0);
        assert_eq!(nested_list(&json!({"markets": [1, 2]}), "markets").unwrap().len(), 2);
        assert_eq!(
            nested_list(&json!({"markets": 5}), "markets").unwrap_err(),
            "markets is the number 5, not a list"
        );
    }

    #[test]
    fn labels_name_records_by_id_or_position() {
        let event = Label::event(Some("14205".into()), 0);
        assert_eq!(event.to_string(), "event 14205");
        assert_eq!(
            Label::market(None, 3).within(&event).to_string(),
            "market at index 3 of event 14205"
        );
        assert_eq!(Label::market(None, 3).to_string(), "market at index 3");
    }
}
