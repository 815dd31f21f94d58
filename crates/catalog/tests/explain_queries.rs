//! How well explain picks a market for free words, on a labelled set of queries over the demo
//! catalogue: `tests/data/explain_queries.tsv` (its header says how it was made). Each query
//! names the market a person would pick, or "refuse" when the catalogue has none about it.
//!
//! Two figures per split: top-1 accuracy (of the queries that have a market, the share whose
//! pick is one the label accepts) and the share of correct refusals (of the queries that have
//! none, the share explain refuses). The `heldout` split was set aside when the set was
//! written and never tuned on; its figures are the ones that count, and the floors below are
//! set a little under what it measured, so that a regression fails and a new recording does
//! not flake.
//!
//! `cargo test -p marketlens-catalog --test explain_queries -- --nocapture` prints the figures
//! and every miss.

use chrono::{NaiveDate, Utc};
use marketlens_catalog::LiveCatalog;
use marketlens_catalog::explain::{Pick, find_market};
use marketlens_domain::Exchange;
use marketlens_storage::Store;
use marketlens_testkit::TestDatabase;
use std::path::Path;
use std::sync::Arc;

/// The demo's recordings in the order `marketlens demo` imports them (oldest first, so that a
/// market recorded twice keeps its newer record): `crates/marketlens/src/fixtures/demo.rs`.
const DEMO_FILES: &[(Exchange, &str)] = &[
    (Exchange::Polymarket, "polymarket/gamma-events-1.json"),
    (Exchange::Kalshi, "kalshi/events-1.json"),
    (Exchange::Kalshi, "kalshi/event-single-1.json"),
    (Exchange::Kalshi, "kalshi/markets-2.json"),
    (Exchange::Polymarket, "polymarket/gamma-markets-1.json"),
    (Exchange::Polymarket, "polymarket/gamma-events-2.json"),
    (Exchange::Polymarket, "polymarket/gamma-markets-2.json"),
    (Exchange::Kalshi, "kalshi/markets-1.json"),
    (Exchange::Kalshi, "kalshi/events-2.json"),
    (Exchange::Kalshi, "kalshi/events-nested-1.json"),
];

/// The floors on the held-out split, a little under what it measured on 2026-11-26 (top-1
/// accuracy 0.742, 23 of 31; correct refusals 1.000, 9 of 9). The ranking before issue 20
/// measured 0.677 and 0.889 there, and fails the first.
const MIN_HELDOUT_ACCURACY: f64 = 0.70;
const MIN_HELDOUT_REFUSALS: f64 = 0.85;

struct LabelledQuery {
    split: String,
    query: String,
    /// `exchange:external id` of each acceptable market; empty for "refuse".
    expected: Vec<String>,
}

fn labelled_queries() -> Vec<LabelledQuery> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/explain_queries.tsv");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "{line}");
            assert!(matches!(fields[0], "tune" | "heldout"), "{line}");
            let expected = match fields[2] {
                "refuse" => Vec::new(),
                markets => markets.split('|').map(str::to_owned).collect(),
            };
            LabelledQuery {
                split: fields[0].to_owned(),
                query: fields[1].to_owned(),
                expected,
            }
        })
        .collect()
}

async fn demo_store() -> (TestDatabase, Arc<dyn Store>) {
    let database = TestDatabase::sqlite();
    let store = database.open().await;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo-data");
    for (exchange, file) in DEMO_FILES {
        let bytes = std::fs::read(root.join(file)).unwrap();
        let (_, normalized) = marketlens_exchanges::normalize(*exchange, &bytes).unwrap();
        store
            .upsert(&normalized.markets, &normalized.events, Utc::now())
            .await
            .unwrap();
    }
    (database, store)
}

#[derive(Default)]
struct Tally {
    answerable: u32,
    picked_right: u32,
    refusable: u32,
    refused: u32,
}

impl Tally {
    fn accuracy(&self) -> f64 {
        f64::from(self.picked_right) / f64::from(self.answerable.max(1))
    }

    fn refusals(&self) -> f64 {
        f64::from(self.refused) / f64::from(self.refusable.max(1))
    }
}

#[tokio::test]
async fn explain_picks_the_market_a_person_would() {
    let (_database, store) = demo_store().await;
    let catalog = LiveCatalog::new(store.clone());
    catalog.refresh().await.unwrap();
    // Dates the queries write without a year resolve as on the newest recording's day.
    let today = NaiveDate::from_ymd_opt(2026, 4, 9).unwrap();
    let queries = labelled_queries();
    assert!(queries.len() >= 60);
    assert!(queries.iter().filter(|query| query.expected.is_empty()).count() >= 10);

    let mut tune = Tally::default();
    let mut heldout = Tally::default();
    for labelled in &queries {
        let picked = match find_market(store.as_ref(), catalog.as_ref(), &labelled.query, today)
            .await
            .unwrap()
        {
            Pick::Market(stored) => Some(stored),
            Pick::NoMatch(_) => None,
        };
        let picked_key = picked
            .as_ref()
            .map(|stored| format!("{}:{}", stored.market.exchange.platform(), stored.market.external_id));
        let tally = if labelled.split == "tune" {
            &mut tune
        } else {
            &mut heldout
        };
        let right = if labelled.expected.is_empty() {
            tally.refusable += 1;
            tally.refused += u32::from(picked.is_none());
            picked.is_none()
        } else {
            tally.answerable += 1;
            let right = picked_key.as_ref().is_some_and(|key| labelled.expected.contains(key));
            tally.picked_right += u32::from(right);
            right
        };
        if !right {
            println!(
                "miss ({}): {:?} -> {} (expected {})",
                labelled.split,
                labelled.query,
                picked.as_ref().map_or_else(
                    || "refused".to_owned(),
                    |stored| format!(
                        "{} {:?}",
                        picked_key.clone().unwrap_or_default(),
                        stored.market.question
                    )
                ),
                if labelled.expected.is_empty() {
                    "refuse".to_owned()
                } else {
                    labelled.expected.join("|")
                }
            );
        }
    }
    for (name, tally) in [("tune", &tune), ("heldout", &heldout)] {
        println!(
            "{name}: top-1 accuracy {:.3} ({}/{}), correct refusals {:.3} ({}/{})",
            tally.accuracy(),
            tally.picked_right,
            tally.answerable,
            tally.refusals(),
            tally.refused,
            tally.refusable
        );
    }
    assert!(
        heldout.accuracy() >= MIN_HELDOUT_ACCURACY,
        "held-out top-1 accuracy {:.3} below {MIN_HELDOUT_ACCURACY}",
        heldout.accuracy()
    );
    assert!(
        heldout.refusals() >= MIN_HELDOUT_REFUSALS,
        "held-out correct refusals {:.3} below {MIN_HELDOUT_REFUSALS}",
        heldout.refusals()
    );
}
