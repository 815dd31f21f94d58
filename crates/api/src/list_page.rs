//! A market list page written from its items' JSON, each rendered once per catalogue snapshot
//! (`LiveCatalog::list_rendered_markets`): the envelope is written around the items' bytes,
//! copied as they are.
//!
//! Why by hand: serializing every item of every page took about a quarter of a default list's
//! server CPU at benchmark load (README "Performance"). What is written here is only the
//! envelope of [`ListEnvelope`]; each item is still serde's own serialization of its
//! [`MarketListItem`], and the tests hold the whole page to serde's bytes for the same views.

use axum::response::Response;
use marketlens_catalog::ItemForm;
use marketlens_storage::MarketSummary;
use std::sync::Arc;

use crate::views::{BYTES_PER_LIST_ITEM, MarketListItem, Pagination, json_bytes_response};

/// One market's list item in `form`, as JSON.
pub fn market_item(summary: &MarketSummary, form: ItemForm) -> Vec<u8> {
    let mut item = Vec::with_capacity(BYTES_PER_LIST_ITEM);
    let view = MarketListItem::new(summary, form == ItemForm::WithOutcomes);
    // Writing to a Vec fails only for a map with non-string keys, which a list item has not.
    serde_json::to_writer(&mut item, &view).expect("a market list item serializes");
    item
}

/// The page's JSON, byte for byte what serde writes for a `ListEnvelope` of these items.
pub fn body(items: &[Arc<[u8]>], pagination: &Pagination) -> Vec<u8> {
    const OPEN: &[u8] = b"{\"data\":[";
    const BETWEEN: &[u8] = b"],\"pagination\":";
    let items_bytes: usize = items.iter().map(|item| item.len() + 1).sum();
    let mut body = Vec::with_capacity(OPEN.len() + items_bytes + BETWEEN.len() + 96);
    body.extend_from_slice(OPEN);
    for (position, item) in items.iter().enumerate() {
        if position > 0 {
            body.push(b',');
        }
        body.extend_from_slice(item);
    }
    body.extend_from_slice(BETWEEN);
    serde_json::to_writer(&mut body, pagination).expect("a pagination serializes");
    body.push(b'}');
    body
}

/// The page as a JSON response.
pub fn response(items: &[Arc<[u8]>], pagination: &Pagination) -> Response {
    json_bytes_response(body(items, pagination))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::ListEnvelope;
    use marketlens_domain::time::from_epoch_millis;
    use marketlens_domain::{Category, Exchange, MarketStatus, Outcome};
    use proptest::prelude::*;
    use uuid::Uuid;

    /// Any finite price or figure, and the odd ones serde writes specially (`-0.0`, huge, tiny).
    fn figure() -> impl Strategy<Value = f64> {
        prop_oneof![
            any::<f64>().prop_filter("finite", |value| value.is_finite()),
            Just(-0.0),
            Just(0.0),
            0.0..1.0f64,
        ]
    }

    fn outcome() -> impl Strategy<Value = Outcome> {
        (
            "\\PC{0,12}",
            figure(),
            proptest::option::of(figure()),
            proptest::option::of(figure()),
        )
            .prop_map(|(name, price, best_bid_price, best_ask_price)| Outcome {
                name,
                price,
                best_bid_price,
                best_ask_price,
            })
    }

    fn summary() -> impl Strategy<Value = MarketSummary> {
        (
            any::<u128>(),
            prop::sample::select(Exchange::ALL.to_vec()),
            "[A-Za-z0-9-]{1,20}",
            // Quotes, backslashes, controls and non-ASCII, which JSON escapes or keeps.
            "(\\PC|[\"\\\\\u{0}-\u{1f}\u{7f}\u{2028}])*",
            prop::sample::select(MarketStatus::ALL.to_vec()),
            prop::sample::select(Category::ALL.to_vec()),
            (figure(), figure(), figure()),
            -62_000_000_000_000i64..253_000_000_000_000,
            proptest::collection::vec(outcome(), 0..4),
        )
            .prop_map(
                |(id, exchange, external_id, question, status, category, figures, created, outcomes)| {
                    let (liquidity, volume, volume_24h) = figures;
                    MarketSummary {
                        id: Uuid::from_u128(id),
                        exchange,
                        external_id: external_id.into(),
                        question: question.into(),
                        status,
                        category,
                        liquidity,
                        volume,
                        volume_24h,
                        created_at: from_epoch_millis(created),
                        end_date: None,
                        outcomes: outcomes.into(),
                        event_id: None,
                        observed_at: from_epoch_millis(created),
                        url_market: None,
                    }
                },
            )
    }

    proptest! {
        #[test]
        fn a_page_is_what_serde_writes_for_its_views(
            summaries in proptest::collection::vec(summary(), 0..5),
            with_outcomes in any::<bool>(),
            (total, limit, offset, has_more) in (any::<u64>(), any::<u32>(), any::<u64>(), any::<bool>()),
        ) {
            let form = if with_outcomes { ItemForm::WithOutcomes } else { ItemForm::Plain };
            let pagination = || Pagination { total, limit, offset, has_more };
            let items: Vec<Arc<[u8]>> = summaries.iter().map(|summary| market_item(summary, form).into()).collect();
            let expected = serde_json::to_vec(&ListEnvelope {
                data: summaries.iter().map(|summary| MarketListItem::new(summary, with_outcomes)).collect(),
                pagination: pagination(),
            })
            .unwrap();
            prop_assert_eq!(String::from_utf8(body(&items, &pagination())).unwrap(), String::from_utf8(expected).unwrap());
        }
    }
}
