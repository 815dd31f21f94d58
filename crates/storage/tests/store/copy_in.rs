//! PostgreSQL's bulk writes go by `COPY` in its text format, which the store escapes itself:
//! any text but NUL (which PostgreSQL text cannot hold), any finite number and any time read
//! back exactly as written, through both of its paths (a copy's straight `COPY`, and an
//! upsert's `COPY` into a temporary table).

use marketlens_domain::Exchange::{Kalshi, Polymarket};
use marketlens_domain::market::{Resolution, Rules};
use marketlens_domain::time::from_epoch_millis;
use marketlens_domain::{Market, MarketStatus};
use marketlens_storage::{StoredEvent, StoredMarket};
use marketlens_testkit::TestDatabase;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use crate::{at, event, market};

/// Any text without NUL, often made of what `COPY`'s text format gives a meaning.
fn text() -> impl Strategy<Value = String> {
    prop_oneof!["[\\\\\t\n\r.N\"',{}\\[\\]é✓ ]{0,12}", "[^\\x00]{0,40}"]
}

/// A market whose every text is one of `texts`, with `number` as its figures and `millis` as
/// its times.
fn awkward(external_id: &str, texts: &[String], number: f64, millis: i64) -> Market {
    let exchange = if external_id.starts_with('K') {
        Kalshi
    } else {
        Polymarket
    };
    let mut market = market(exchange, external_id, &texts[0]);
    market.description = texts[1].clone();
    market.event_external_id = Some(texts[2].clone());
    market.url = texts[3].clone();
    market.image_url = texts[4].clone();
    market.url_keys.market = Some(texts[5].clone());
    market.url_keys.event = Some(texts[6].clone());
    market.outcomes[0].name = texts[7].clone();
    market.outcomes[1].name = texts[8].clone();
    market.rules = Rules {
        primary: Some(texts[9].clone()),
        secondary: Some(texts[10].clone()),
        source: Some(texts[11].clone()),
    };
    market.status = MarketStatus::Resolved;
    market.resolution = Some(Resolution {
        outcome: Some(texts[12].clone()),
        resolved_at: Some(from_epoch_millis(millis)),
    });
    (market.volume, market.liquidity, market.volume_24h) = (number, -number, number / 3.0);
    market.created_at = Some(from_epoch_millis(millis));
    market
}

const TEXTS: usize = 13;

#[test]
fn any_text_is_written_by_copy_and_read_back_as_it_was() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let Some(database) = runtime.block_on(TestDatabase::postgres()) else {
        return;
    };
    let store = runtime.block_on(database.open());
    let cases = (
        proptest::collection::vec(text(), TEXTS),
        any::<f64>(),
        // 1900 to 2200.
        -2_208_988_800_000i64..7_258_118_400_000,
    );
    // Every case's records are new to the store, shrunk cases' too.
    let counter = std::cell::Cell::new(0);
    TestRunner::new(Config::with_cases(64))
        .run(&cases, |(texts, number, millis)| {
            let case = counter.get() + 1;
            counter.set(case);
            runtime.block_on(async {
                // A copy writes straight into the tables.
                let copied = awkward(&format!("K-{case}"), &texts, number, millis);
                let mut copied_event = event(Kalshi, &format!("E-{case}"), &texts[0]);
                copied_event.description = texts[1].clone();
                copied_event.slug = Some(texts[2].clone());
                let stored = StoredMarket {
                    id: copied.id(),
                    market: copied.clone(),
                    created_at: from_epoch_millis(millis),
                    updated_at: at(5),
                    observed_at: at(6),
                };
                let stored_event = StoredEvent {
                    id: copied_event.id(),
                    event: copied_event,
                    market_count: 0,
                    total_volume: number,
                    created_at: from_epoch_millis(millis),
                };
                store
                    .restore_catalog(std::slice::from_ref(&stored), std::slice::from_ref(&stored_event))
                    .await
                    .unwrap();
                prop_assert_eq!(store.get_market(stored.id).await.unwrap(), Some(stored));
                prop_assert_eq!(store.get_event(stored_event.id).await.unwrap(), Some(stored_event));

                // An upsert goes through a temporary table; twice, to replace what it wrote.
                let upserted = awkward(&format!("P-{case}"), &texts, number, millis);
                store
                    .upsert(std::slice::from_ref(&upserted), &[], at(10))
                    .await
                    .unwrap();
                let mut changed = upserted;
                changed.question = texts[12].clone();
                changed.source_updated_at = Some(at(20));
                store.upsert(&[changed.clone()], &[], at(20)).await.unwrap();
                let read = store
                    .get_market(changed.id())
                    .await
                    .unwrap()
                    .map(|stored| stored.market);
                prop_assert_eq!(read, Some(changed));
                Ok(())
            })
        })
        .unwrap();
}
