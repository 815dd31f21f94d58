//! A bulk load into an empty store gives what the same upserts give without it, and a load
//! cut short leaves a store whose indexes and search are back when it next opens.

use marketlens_domain::Exchange::{Kalshi, Polymarket};
use marketlens_domain::history::Resolution;
use marketlens_domain::{Event, Market};
use marketlens_storage::{MarketFilter, MarketQuery, MarketSort, SearchWords, SortOrder, Store, UpsertCounts};
use marketlens_testkit::TestDatabase;

use crate::{at, event, market, postgres_indexes};

/// Three batches: new records, then the same ones again with one market newer, one older,
/// one moved to another event and one new, then a batch repeating an id.
fn batches() -> Vec<(Vec<Market>, Vec<Event>)> {
    let mut first: Vec<Market> = (0..30)
        .map(|index| {
            market(
                Kalshi,
                &format!("K-{index}"),
                &format!("Will rain fall on day {index}?"),
            )
        })
        .collect();
    for (index, market) in first.iter_mut().enumerate() {
        market.event_external_id = Some(format!("E-{}", index % 4));
    }
    let events: Vec<Event> = (0..4)
        .map(|index| event(Kalshi, &format!("E-{index}"), &format!("Event {index}")))
        .collect();
    let mut second = first.clone();
    second[0].volume = 9.0;
    second[0].source_updated_at = Some(at(50));
    second[1].volume = 7.0;
    second[1].source_updated_at = Some(at(-50));
    second[2].event_external_id = Some("E-3".into());
    second[2].source_updated_at = Some(at(60));
    second.push(market(Polymarket, "P-1", "Will snow fall in Oslo?"));
    let mut third = vec![market(Polymarket, "P-2", "Will hail fall in Rome?")];
    let mut later = third[0].clone();
    later.volume = 3.0;
    later.source_updated_at = Some(at(70));
    third.push(later);
    vec![(first, events.clone()), (second, events), (third, Vec::new())]
}

async fn load(store: &dyn Store, bulk: bool) -> Vec<UpsertCounts> {
    assert!(store.begin_bulk_load().await.unwrap(), "an empty store loads in bulk");
    if !bulk {
        store.finish_bulk_load().await.unwrap();
    }
    let mut counts = Vec::new();
    for (index, (markets, events)) in batches().into_iter().enumerate() {
        counts.push(store.upsert(&markets, &events, at(100 + index as i64)).await.unwrap());
    }
    if bulk {
        store.finish_bulk_load().await.unwrap();
    }
    counts
}

async fn found(store: &dyn Store, words: &str) -> Vec<String> {
    let page = store
        .list_markets(&MarketQuery {
            filter: MarketFilter {
                search: SearchWords::parse(words),
                ..MarketFilter::default()
            },
            sort: MarketSort::Volume,
            order: SortOrder::Desc,
            limit: 100,
            offset: 0,
        })
        .await
        .unwrap();
    page.items.into_iter().map(|item| item.market.external_id).collect()
}

#[tokio::test]
async fn a_bulk_load_stores_what_the_same_upserts_store() {
    let (bulk_databases, plain_databases) = (TestDatabase::all().await, TestDatabase::all().await);
    for (bulk_database, plain_database) in bulk_databases.iter().zip(&plain_databases) {
        let (bulk, plain) = (bulk_database.open().await, plain_database.open().await);
        let name = bulk_database.backend;
        assert_eq!(load(&*bulk, true).await, load(&*plain, false).await, "{name}");
        assert!(
            !bulk.begin_bulk_load().await.unwrap(),
            "{name}: a store holding markets does not"
        );
        assert_eq!(everything(&*bulk).await, everything(&*plain).await, "{name}");
        assert_eq!(found(&*bulk, "fall").await, found(&*plain, "fall").await, "{name}");
        assert_eq!(found(&*bulk, "fall").await.len(), 32, "{name}");
    }
}

/// Every market of the batches with its price history, and every event, as the store gives
/// them.
async fn everything(store: &dyn Store) -> (Vec<String>, String) {
    let mut markets = Vec::new();
    for (batch, _) in batches() {
        for market in batch {
            markets.push(format!("{:?}", store.get_market(market.id()).await.unwrap()));
            for resolution in Resolution::ALL {
                let bars = store
                    .history(market.id(), resolution, i64::MIN, i64::MAX)
                    .await
                    .unwrap();
                assert!(!bars.is_empty(), "{} has {resolution:?} bars", market.external_id);
                markets.push(format!("{bars:?}"));
            }
        }
    }
    let events = store.event_summaries(None, 100).await.unwrap();
    (markets, format!("{events:?}"))
}

/// A load that never finishes (its process killed) leaves the indexes it deferred recorded;
/// the next opening builds them, and search finds what the load wrote.
#[tokio::test]
async fn a_bulk_load_cut_short_is_indexed_at_the_next_open() {
    let database = TestDatabase::sqlite();
    let indexes = || async {
        let pool = sqlx::SqlitePool::connect(&database.url).await.unwrap();
        let names: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        pool.close().await;
        names
    };
    let store = database.open().await;
    let before = indexes().await;
    assert!(
        before.contains(&"markets_by_volume".to_owned()) && before.contains(&"markets_fts_after_insert".to_owned())
    );
    assert!(store.begin_bulk_load().await.unwrap());
    let (markets, events) = batches().remove(0);
    store.upsert(&markets, &events, at(100)).await.unwrap();
    assert!(
        !indexes().await.contains(&"markets_by_volume".to_owned()),
        "the load defers the sort indexes"
    );
    drop(store);

    let store = database.open().await;
    assert_eq!(indexes().await, before);
    assert_eq!(found(&*store, "rain").await.len(), 30);
    for market in &markets {
        let bars = store
            .history(market.id(), Resolution::Day, i64::MIN, i64::MAX)
            .await
            .unwrap();
        assert_eq!(bars.len(), 1, "the load's staged history is moved in at the next open");
    }
    let more = market(Polymarket, "P-9", "Will rain fall in Lima?");
    store.upsert(&[more], &[], at(200)).await.unwrap();
    assert_eq!(
        found(&*store, "lima").await,
        ["P-9"],
        "the triggers index new markets again"
    );
}

/// Another opening of the store while a load runs builds the deferred indexes (as after a
/// killed load) and writes: the load goes on staging its history, which its end still moves
/// in, and the other writer merges an observation into a bar the load staged, not beside it.
#[tokio::test]
async fn a_bulk_load_keeps_its_history_when_another_opening_builds_its_indexes_and_writes() {
    let (database, plain_database) = (TestDatabase::sqlite(), TestDatabase::sqlite());
    let (store, plain) = (database.open().await, plain_database.open().await);
    assert!(store.begin_bulk_load().await.unwrap());
    let batches = batches();
    // P-1, new in the second batch (so staged), observed again by the other writer.
    let mut again = batches[1].0.last().unwrap().clone();
    again.volume = 5.0;
    again.source_updated_at = Some(at(80));
    store.upsert(&batches[0].0, &batches[0].1, at(100)).await.unwrap();
    let other = database.open().await;
    store.upsert(&batches[1].0, &batches[1].1, at(101)).await.unwrap();
    other.upsert(std::slice::from_ref(&again), &[], at(102)).await.unwrap();
    store.upsert(&batches[2].0, &batches[2].1, at(103)).await.unwrap();
    store.finish_bulk_load().await.unwrap();
    plain.upsert(&batches[0].0, &batches[0].1, at(100)).await.unwrap();
    plain.upsert(&batches[1].0, &batches[1].1, at(101)).await.unwrap();
    plain.upsert(&[again], &[], at(102)).await.unwrap();
    plain.upsert(&batches[2].0, &batches[2].1, at(103)).await.unwrap();
    assert_eq!(everything(&*store).await, everything(&*plain).await);
}

/// On PostgreSQL too: a load cut short leaves its indexes recorded, and the next opening of
/// the store builds them.
#[tokio::test]
async fn a_postgres_bulk_load_cut_short_is_indexed_at_the_next_open() {
    let Some(database) = TestDatabase::postgres().await else {
        return;
    };
    let store = database.open().await;
    let before = postgres_indexes(&database.url).await;
    assert!(before.contains(&"markets_search".to_owned()) && before.contains(&"price_history_by_age".to_owned()));
    assert!(store.begin_bulk_load().await.unwrap());
    let (markets, events) = batches().remove(0);
    store.upsert(&markets, &events, at(100)).await.unwrap();
    let pool = sqlx::PgPool::connect(&database.url).await.unwrap();
    let deferred: Vec<String> = sqlx::query_scalar("SELECT name FROM deferred_schema ORDER BY name")
        .fetch_all(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert!(
        deferred.contains(&"markets_search".to_owned()) && !deferred.contains(&"markets_by_event".to_owned()),
        "the load defers the search index and keeps the one its refresh reads: {deferred:?}"
    );
    drop(store);

    let store = database.open().await;
    assert_eq!(postgres_indexes(&database.url).await, before);
    assert_eq!(found(&*store, "rain").await.len(), 30);
}
