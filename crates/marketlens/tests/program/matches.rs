//! The node that syncs keeps matches current incrementally: after any change, what it stored
//! is exactly what a full rematch of the store stores.

use chrono::{TimeDelta, Utc};
use marketlens::fixtures::demo;
use marketlens::fixtures::synthetic::{Generator, Templates};
use marketlens_domain::matching::{MatchPair, match_markets};
use marketlens_domain::{Exchange, Market};
use marketlens_storage::Store;
use marketlens_sync::matching::{IncrementalMatcher, rematch};
use marketlens_testkit::TestDatabase;

fn sorted(mut pairs: Vec<MatchPair>) -> Vec<(uuid::Uuid, uuid::Uuid, i64, String)> {
    pairs.sort_by_key(|pair| (pair.market_id, pair.matched_id));
    pairs
        .into_iter()
        .map(|pair| {
            (
                pair.market_id,
                pair.matched_id,
                (pair.similarity * 1000.0).round() as i64,
                pair.orientation.as_str().to_owned(),
            )
        })
        .collect()
}

async fn assert_stored_equals_full_rematch(store: &dyn Store) -> usize {
    let expected = match_markets(&store.match_inputs().await.unwrap());
    let stored = store.match_pairs().await.unwrap();
    assert_eq!(sorted(stored), sorted(expected.clone()));
    expected.len() / 2
}

/// `market` restated later with another market's question, end date and outcome names.
fn restated_as(market: &Market, model: &Market) -> Market {
    let mut restated = market.clone();
    restated.question = model.question.clone();
    restated.end_date = model.end_date;
    for (outcome, named) in restated.outcomes.iter_mut().zip(&model.outcomes) {
        outcome.name = named.name.clone();
    }
    restated.source_updated_at = Some(Utc::now() + TimeDelta::days(1));
    restated
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn incremental_updates_store_what_a_full_rematch_would() {
    let database = TestDatabase::sqlite();
    let store = database.open().await;
    let (mut markets, mut events) = (Vec::new(), Vec::new());
    for file in demo::files() {
        let (_, normalized) = marketlens_exchanges::normalize(file.exchange, file.bytes).unwrap();
        markets.extend(normalized.markets);
        events.extend(normalized.events);
    }
    let templates = Templates::new(markets, &events);
    let mut generator = Generator::new(&templates, 11);
    let (mut synthetic_markets, mut synthetic_events) = (Vec::new(), Vec::new());
    while synthetic_markets.len() < 3_000 {
        let event = generator.next_event(3_000 - synthetic_markets.len());
        synthetic_events.push(event.event);
        synthetic_markets.extend(event.markets);
    }
    store
        .upsert(&synthetic_markets, &synthetic_events, Utc::now())
        .await
        .unwrap();
    let (mut matcher, _) = IncrementalMatcher::start(store.as_ref()).await.unwrap();
    assert_stored_equals_full_rematch(store.as_ref()).await;

    // Forty Kalshi markets come to ask what forty Polymarket markets ask: new matches.
    let polymarket: Vec<&Market> = synthetic_markets
        .iter()
        .filter(|market| market.exchange == Exchange::Polymarket)
        .collect();
    let kalshi: Vec<&Market> = synthetic_markets
        .iter()
        .filter(|market| market.exchange == Exchange::Kalshi)
        .collect();
    let restated: Vec<Market> = kalshi
        .iter()
        .zip(&polymarket)
        .take(40)
        .map(|(market, model)| restated_as(market, model))
        .collect();
    store.upsert(&restated, &[], Utc::now()).await.unwrap();
    let update = matcher.update(store.as_ref()).await.unwrap();
    assert_eq!((update.read, update.rescored), (40, 40));
    assert!(update.markets_rewritten >= 40);
    let pairs = assert_stored_equals_full_rematch(store.as_ref()).await;
    assert!(pairs >= 20, "the restated markets match: {pairs} pairs");

    // Half of them change their question again; nothing else changed, so nothing else is rescored.
    let again: Vec<Market> = restated
        .iter()
        .zip(polymarket.iter().skip(100))
        .take(20)
        .map(|(market, model)| restated_as(market, model))
        .collect();
    store.upsert(&again, &[], Utc::now()).await.unwrap();
    assert_eq!(matcher.update(store.as_ref()).await.unwrap().rescored, 20);
    assert_stored_equals_full_rematch(store.as_ref()).await;

    // A sync that only moves a price writes the market, which is read but not rescored.
    let mut repriced = again[0].clone();
    repriced.outcomes[0].price = (repriced.outcomes[0].price + 0.01).min(1.0);
    repriced.volume += 1.0;
    repriced.source_updated_at = Some(Utc::now() + TimeDelta::days(2));
    store
        .upsert(std::slice::from_ref(&repriced), &[], Utc::now())
        .await
        .unwrap();
    let update = matcher.update(store.as_ref()).await.unwrap();
    assert_eq!((update.read, update.rescored, update.markets_rewritten), (1, 0, 0));

    // No change: nothing read, nothing rescored, nothing written.
    let idle = matcher.update(store.as_ref()).await.unwrap();
    assert_eq!((idle.read, idle.rescored, idle.markets_rewritten), (0, 0, 0));

    // The one-off rematch agrees too.
    rematch(store.as_ref()).await.unwrap();
    assert_stored_equals_full_rematch(store.as_ref()).await;
}
