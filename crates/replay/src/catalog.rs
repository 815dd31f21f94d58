//! The records a running server holds, and the edits tests make to them between two syncs.
//!
//! A record can appear in several places: a Polymarket market at top level and nested in its
//! event, a Kalshi market in the market list and nested in its event, a Polymarket event in
//! the event list and embedded in its markets' `events`. The copies are not identical (a
//! nested copy has no `events` back-reference; recordings made on different days differ), so
//! an edit is not a replacement: it runs once, on the first copy, and the top-level fields it
//! set or removed are then written into every other copy.

use marketlens_domain::Exchange;
use serde_json::{Map, Value};
use std::collections::HashSet;

use crate::data::{ReplayData, id_of, nested_markets, nested_markets_mut};

pub(crate) struct Catalog {
    pub(crate) data: ReplayData,
    /// Where each market served by Gamma's `/markets/keyset` lives, in serving order: every
    /// top-level market, then each market nested in an event whose id is not yet listed.
    polymarket_market_slots: Vec<MarketSlot>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum MarketSlot {
    TopLevel(usize),
    Nested { event: usize, market: usize },
}

impl Catalog {
    pub(crate) fn new(data: ReplayData) -> Catalog {
        let mut catalog = Catalog {
            data,
            polymarket_market_slots: Vec::new(),
        };
        catalog.list_polymarket_markets();
        catalog
    }

    fn list_polymarket_markets(&mut self) {
        let mut seen = HashSet::new();
        let mut first = |market: &Value| id_of(market, "id").is_none_or(|id| seen.insert(id.into_owned()));
        let top_level = (0..self.data.polymarket_markets.len())
            .filter(|&index| first(&self.data.polymarket_markets[index]))
            .map(MarketSlot::TopLevel);
        let mut slots: Vec<MarketSlot> = top_level.collect();
        for (event_index, event) in self.data.polymarket_events.iter().enumerate() {
            for (market_index, market) in nested_markets(event).enumerate() {
                if first(market) {
                    slots.push(MarketSlot::Nested {
                        event: event_index,
                        market: market_index,
                    });
                }
            }
        }
        self.polymarket_market_slots = slots;
    }

    /// How many markets Gamma's `/markets/keyset` serves.
    pub(crate) fn polymarket_market_count(&self) -> usize {
        self.polymarket_market_slots.len()
    }

    /// The stored record of the `position`th market of `/markets/keyset`.
    pub(crate) fn polymarket_market(&self, position: usize) -> &Value {
        match self.polymarket_market_slots[position] {
            MarketSlot::TopLevel(index) => &self.data.polymarket_markets[index],
            MarketSlot::Nested { event, market } => &self.data.polymarket_events[event]["markets"][market],
        }
    }

    /// The `position`th market as `/markets/keyset` serves it: a nested market gains the
    /// `events` back-reference the real `/markets` endpoint gives every market.
    pub(crate) fn served_polymarket_market(&self, position: usize) -> Value {
        let mut market = self.polymarket_market(position).clone();
        if let MarketSlot::Nested { event, .. } = self.polymarket_market_slots[position]
            && let Value::Object(fields) = &mut market
        {
            let event = &self.data.polymarket_events[event];
            fields.insert("events".to_owned(), Value::Array(vec![without_markets(event)]));
        }
        market
    }

    /// Applies `change` to the market with `external_id` wherever it appears.
    ///
    /// # Panics
    ///
    /// If there is no such market: a test that edits nothing should not pass silently.
    pub(crate) fn update_market(&mut self, exchange: Exchange, external_id: &str, change: impl FnOnce(&mut Value)) {
        let data = &mut self.data;
        let (key, top_level, events) = match exchange {
            Exchange::Polymarket => ("id", &mut data.polymarket_markets, &mut data.polymarket_events),
            Exchange::Kalshi => ("ticker", &mut data.kalshi_markets, &mut data.kalshi_events),
        };
        let copies = top_level
            .iter_mut()
            .chain(events.iter_mut().flat_map(nested_markets_mut))
            .filter(|market| id_of(market, key).is_some_and(|id| id == external_id));
        let found = change_everywhere(copies, change, None);
        assert!(found, "no {exchange:?} market has the id {external_id:?}");
        self.list_polymarket_markets();
    }

    /// Applies `change` to the event with `external_id` wherever it appears: Kalshi events
    /// appear once; a Polymarket event also in the `events` of its top-level markets, where
    /// the change's fields other than `markets` are written too.
    ///
    /// # Panics
    ///
    /// If there is no such event.
    pub(crate) fn update_event(&mut self, exchange: Exchange, external_id: &str, change: impl FnOnce(&mut Value)) {
        let data = &mut self.data;
        let found = match exchange {
            Exchange::Polymarket => {
                let embedded = data
                    .polymarket_markets
                    .iter_mut()
                    .filter_map(|market| market.get_mut("events").and_then(Value::as_array_mut))
                    .flatten();
                let copies = data
                    .polymarket_events
                    .iter_mut()
                    .chain(embedded)
                    .filter(|event| id_of(event, "id").is_some_and(|id| id == external_id));
                change_everywhere(copies, change, Some("markets"))
            }
            Exchange::Kalshi => {
                let copies = data
                    .kalshi_events
                    .iter_mut()
                    .filter(|event| id_of(event, "event_ticker").is_some_and(|id| id == external_id));
                change_everywhere(copies, change, None)
            }
        };
        assert!(found, "no {exchange:?} event has the id {external_id:?}");
        self.list_polymarket_markets();
    }
}

/// An event's fields without its nested markets: the back-reference a Gamma market embeds.
pub(crate) fn without_markets(event: &Value) -> Value {
    match event {
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .filter(|(key, _)| key.as_str() != "markets")
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Runs `change` on the first of `copies` and writes the fields it changed into the others,
/// except the field `kept` (a copy's own shape). False when there are no copies.
fn change_everywhere<'a>(
    mut copies: impl Iterator<Item = &'a mut Value>,
    change: impl FnOnce(&mut Value),
    kept: Option<&str>,
) -> bool {
    let Some(first) = copies.next() else {
        return false;
    };
    let before = first.clone();
    change(first);
    let patch = Patch::between(&before, first, kept);
    copies.for_each(|copy| patch.apply(copy));
    true
}

/// The top-level difference between a record before and after a change.
#[derive(Debug, PartialEq)]
enum Patch {
    Fields {
        set: Map<String, Value>,
        removed: Vec<String>,
    },
    /// The change replaced the record by something that is not an object.
    Whole(Value),
}

impl Patch {
    fn between(before: &Value, after: &Value, kept: Option<&str>) -> Patch {
        let (Value::Object(before), Value::Object(after)) = (before, after) else {
            return Patch::Whole(after.clone());
        };
        let is_kept = |key: &String| Some(key.as_str()) == kept;
        let set = after
            .iter()
            .filter(|(key, value)| !is_kept(key) && before.get(*key) != Some(*value))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        let removed = before
            .keys()
            .filter(|key| !is_kept(key) && !after.contains_key(*key))
            .cloned()
            .collect();
        Patch::Fields { set, removed }
    }

    fn apply(&self, record: &mut Value) {
        match (self, record) {
            (Patch::Fields { set, removed }, Value::Object(fields)) => {
                for key in removed {
                    fields.remove(key);
                }
                fields.extend(set.iter().map(|(key, value)| (key.clone(), value.clone())));
            }
            (Patch::Fields { .. }, _) => {}
            (Patch::Whole(value), record) => *record = value.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn catalog() -> Catalog {
        Catalog::new(ReplayData {
            polymarket_events: vec![
                json!({"id": "10", "title": "E", "markets": [{"id": "1", "closed": false}, {"id": "2", "closed": false}]}),
                json!({"id": "11", "markets": [{"id": "2"}, {"id": "3"}]}),
            ],
            polymarket_markets: vec![json!({"id": "1", "closed": false, "events": [{"id": "10", "title": "E"}]})],
            kalshi_events: vec![json!({"event_ticker": "E", "markets": [{"ticker": "E-1", "status": "active"}]})],
            kalshi_markets: vec![json!({"ticker": "E-1", "status": "active", "volume_fp": "1"})],
            ..ReplayData::default()
        })
    }

    #[test]
    fn gamma_markets_are_top_level_first_then_new_nested_ones() {
        let catalog = catalog();
        let ids: Vec<&Value> = (0..catalog.polymarket_market_count())
            .map(|position| &catalog.polymarket_market(position)["id"])
            .collect();
        assert_eq!(ids, ["1", "2", "3"]);
        assert_eq!(
            catalog.served_polymarket_market(1),
            json!({"id": "2", "closed": false, "events": [{"id": "10", "title": "E"}]})
        );
        assert_eq!(catalog.served_polymarket_market(0), catalog.data.polymarket_markets[0]);
    }

    #[test]
    fn a_market_change_reaches_every_copy_without_changing_their_shape() {
        let mut catalog = catalog();
        catalog.update_market(Exchange::Kalshi, "E-1", |market| {
            market["status"] = json!("finalized");
            market.as_object_mut().unwrap().remove("volume_fp");
        });
        assert_eq!(
            catalog.data.kalshi_markets[0],
            json!({"ticker": "E-1", "status": "finalized"})
        );
        assert_eq!(
            catalog.data.kalshi_events[0]["markets"][0],
            json!({"ticker": "E-1", "status": "finalized"})
        );

        catalog.update_market(Exchange::Polymarket, "1", |market| market["closed"] = json!(true));
        assert_eq!(catalog.data.polymarket_markets[0]["closed"], true);
        assert_eq!(
            catalog.data.polymarket_markets[0]["events"],
            json!([{"id": "10", "title": "E"}])
        );
        assert_eq!(
            catalog.data.polymarket_events[0]["markets"][0],
            json!({"id": "1", "closed": true})
        );
    }

    #[test]
    fn an_event_change_reaches_the_markets_that_embed_it_but_not_their_markets_field() {
        let mut catalog = catalog();
        catalog.update_event(Exchange::Polymarket, "10", |event| {
            event["title"] = json!("F");
            event["markets"] = json!([]);
        });
        assert_eq!(
            catalog.data.polymarket_events[0],
            json!({"id": "10", "title": "F", "markets": []})
        );
        assert_eq!(
            catalog.data.polymarket_markets[0]["events"],
            json!([{"id": "10", "title": "F"}])
        );
        // Market 2 now comes only from event 11.
        assert_eq!(catalog.served_polymarket_market(1)["events"][0]["id"], "11");
    }

    #[test]
    #[should_panic(expected = "no Kalshi market has the id \"NOPE\"")]
    fn changing_a_missing_record_panics() {
        catalog().update_market(Exchange::Kalshi, "NOPE", |_| {});
    }
}
