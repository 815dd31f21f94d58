//! The in-memory catalogue answers exactly as the store does: for random queries over a
//! catalogue full of ties, the same items in the same order and the same totals, on every
//! backend the machine offers.

use chrono::{TimeZone, Utc};
use marketlens_catalog::{CatalogReader, LiveCatalog, SearchHit, StoreReader};
use marketlens_domain::market::{Resolution, Rules, UrlKeys};
use marketlens_domain::matching::{MatchPair, Orientation};
use marketlens_domain::{Category, Event, Exchange, Market, MarketStatus, Outcome};
use marketlens_storage::{EventQuery, MarketFilter, MarketQuery, MarketSort, SearchWords, SortOrder, Store};
use marketlens_testkit::TestDatabase;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::sync::Arc;

const WORDS: &[&str] = &[
    "Will", "Bitcoin", "Ethereum", "reach", "$100k", "Trump", "win", "election", "Pokémon", "price", "Fed", "cut",
    "rates", "2026", "Super", "Bowl", "Chiefs", "Eagles", "above", "below",
];

/// A small deterministic generator, so the catalogue is the same on every backend.
struct Draw(u64);

impl Draw {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound
    }
}

/// Markets of both exchanges with every status and several categories, many ties in every
/// sort key, events of several sizes, and some matches.
fn catalogue(seed: u64) -> (Vec<Market>, Vec<Event>, Vec<MatchPair>) {
    let mut draw = Draw(seed);
    let categories = [Category::Politics, Category::Crypto, Category::Sports, Category::Other];
    let mut events = Vec::new();
    let mut markets = Vec::new();
    for number in 0..150u64 {
        let exchange = if draw.next(3) == 0 {
            Exchange::Kalshi
        } else {
            Exchange::Polymarket
        };
        let event = (draw.next(4) != 0).then(|| format!("E{}", draw.next(40)));
        let words: Vec<&str> = (0..2 + draw.next(5))
            .map(|_| WORDS[draw.next(WORDS.len() as u64) as usize])
            .collect();
        let yes = draw.next(5) as f64 / 4.0;
        let status = MarketStatus::ALL[draw.next(3) as usize];
        markets.push(Market {
            exchange,
            external_id: format!("M{number}"),
            event_external_id: event.clone(),
            question: format!("{}?", words.join(" ")),
            description: String::new(),
            status,
            category: categories[draw.next(4) as usize],
            liquidity: draw.next(4) as f64 * 10.0,
            volume: draw.next(6) as f64 * 100.5,
            volume_24h: draw.next(3) as f64,
            start_date: None,
            end_date: None,
            created_at: Some(
                Utc.timestamp_opt(1_700_000_000 + draw.next(5) as i64 * 3600, 0)
                    .unwrap(),
            ),
            source_updated_at: Some(Utc.timestamp_opt(1_700_000_000, 0).unwrap()),
            outcomes: vec![
                Outcome {
                    name: "Yes".into(),
                    price: yes,
                    best_bid_price: None,
                    best_ask_price: None,
                },
                Outcome {
                    name: "No".into(),
                    price: 1.0 - yes,
                    best_bid_price: None,
                    best_ask_price: None,
                },
            ],
            // Kalshi's URL key is its ticker in lower case; most Polymarket markets have a slug.
            url_keys: UrlKeys {
                market: match exchange {
                    Exchange::Kalshi => Some(format!("m{number}")),
                    Exchange::Polymarket => (number % 4 != 0).then(|| format!("slug-{}", number % 10)),
                },
                ..UrlKeys::default()
            },
            url: String::new(),
            image_url: String::new(),
            rules: Rules::default(),
            resolution: (status == MarketStatus::Resolved).then_some(Resolution {
                outcome: None,
                resolved_at: None,
            }),
        });
        if let Some(event) = event
            && !events
                .iter()
                .any(|known: &Event| known.external_id == event && known.exchange == exchange)
        {
            events.push(Event {
                exchange,
                external_id: event.clone(),
                title: format!("Event {event}"),
                description: String::new(),
                category: categories[draw.next(4) as usize],
                reported_volume: (draw.next(3) == 0).then(|| draw.next(3) as f64 * 1000.0),
                image_url: String::new(),
                created_at: None,
                source_updated_at: Some(Utc.timestamp_opt(1_700_000_000, 0).unwrap()),
                slug: None,
                series_slug: None,
            });
        }
    }
    let mut pairs = Vec::new();
    for _ in 0..40 {
        let (left, right) = (&markets[draw.next(150) as usize], &markets[draw.next(150) as usize]);
        if left.exchange != right.exchange
            && !pairs
                .iter()
                .any(|pair: &MatchPair| pair.market_id == left.id() && pair.matched_id == right.id())
        {
            let similarity = 0.75 + draw.next(3) as f64 / 20.0;
            for (market, matched) in [(left, right), (right, left)] {
                pairs.push(MatchPair {
                    market_id: market.id(),
                    matched_id: matched.id(),
                    similarity,
                    orientation: Orientation::Same,
                });
            }
        }
    }
    (markets, events, pairs)
}

fn market_query() -> impl Strategy<Value = MarketQuery> {
    let search = prop::option::of(prop::collection::vec(
        prop::sample::select(vec![
            "will", "bit", "bitcoin", "e", "trump", "pokemon", "100k", "2026", "zzz", "w", "m7", "M42", "m1", "slug-7",
            "SLUG-3", "slug-", "slug",
        ]),
        1..3,
    ));
    (
        prop::option::of(prop::sample::select(Exchange::ALL.to_vec())),
        prop::option::of(prop::sample::select(MarketStatus::ALL.to_vec())),
        prop::option::of(prop::sample::select(vec![
            Category::Politics,
            Category::Crypto,
            Category::Health,
        ])),
        search,
        prop::option::of(prop::sample::select(vec!["M0", "M7", "M42", "M149", "M1000"])),
        prop::sample::select(MarketSort::ALL.to_vec()),
        prop::bool::ANY,
        1u32..60,
        prop::sample::select(vec![0u64, 1, 7, 30, 90, 149, 150, 400]),
    )
        .prop_map(
            |(exchange, status, category, search, external_id, sort, ascending, limit, offset)| MarketQuery {
                filter: MarketFilter {
                    exchange,
                    status,
                    category,
                    search: search.and_then(|words| SearchWords::parse(&words.join(" "))),
                    external_id: external_id.map(str::to_owned),
                },
                sort,
                order: if ascending { SortOrder::Asc } else { SortOrder::Desc },
                limit,
                offset,
            },
        )
}

fn event_query() -> impl Strategy<Value = EventQuery> {
    (
        prop::option::of(prop::sample::select(Exchange::ALL.to_vec())),
        prop::option::of(prop::sample::select(vec![
            Category::Politics,
            Category::Crypto,
            Category::Health,
        ])),
        1u32..30,
        prop::sample::select(vec![0u64, 1, 5, 20, 100]),
    )
        .prop_map(|(exchange, category, limit, offset)| EventQuery {
            exchange,
            category,
            limit,
            offset,
        })
}

async fn filled(database: &TestDatabase, seed: u64) -> Arc<dyn Store> {
    let store = database.open().await;
    let (markets, events, pairs) = catalogue(seed);
    store.upsert(&markets, &events, Utc::now()).await.unwrap();
    store.replace_matches(&pairs).await.unwrap();
    store
}

#[test]
fn the_snapshot_answers_every_query_as_the_store_does() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let databases = runtime.block_on(TestDatabase::all());
    for (seed, database) in databases.iter().enumerate() {
        let store = runtime.block_on(filled(database, seed as u64 + 7));
        let snapshot = LiveCatalog::new(store.clone());
        assert!(
            runtime.block_on(snapshot.refresh()).unwrap(),
            "the catalogue loads into memory"
        );
        assert!(snapshot.status().in_memory);
        let reference = StoreReader(store.clone());
        let cases = if database.backend == "sqlite" { 400 } else { 150 };
        let mut runner = TestRunner::new(Config::with_cases(cases));
        runner
            .run(&market_query(), |query| {
                let (memory, stored) = runtime.block_on(async {
                    (
                        snapshot.list_markets(&query).await.unwrap(),
                        reference.list_markets(&query).await.unwrap(),
                    )
                });
                prop_assert_eq!(memory.total, stored.total, "{} {:?}", database.backend, query);
                let ids =
                    |items: &[marketlens_storage::MarketSummary]| items.iter().map(|item| item.id).collect::<Vec<_>>();
                prop_assert_eq!(
                    ids(&memory.items),
                    ids(&stored.items),
                    "{} {:?}",
                    database.backend,
                    query
                );
                prop_assert_eq!(&memory.items, &stored.items);
                Ok(())
            })
            .unwrap();
        runner
            .run(&event_query(), |query| {
                let (memory, stored) = runtime.block_on(async {
                    (
                        snapshot.list_events(&query).await.unwrap(),
                        reference.list_events(&query).await.unwrap(),
                    )
                });
                prop_assert_eq!(memory.total, stored.total, "{} {:?}", database.backend, query);
                prop_assert_eq!(&memory.items, &stored.items, "{} {:?}", database.backend, query);
                Ok(())
            })
            .unwrap();
        runtime.block_on(async {
            let (markets, events, _) = catalogue(seed as u64 + 7);
            for market in &markets {
                assert_eq!(
                    snapshot.matched_markets(market.id()).await.unwrap(),
                    reference.matched_markets(market.id()).await.unwrap(),
                    "{}",
                    database.backend
                );
            }
            for event in &events {
                assert_eq!(
                    snapshot.event_markets(event.id()).await.unwrap(),
                    reference.event_markets(event.id()).await.unwrap()
                );
            }
            let unknown = uuid::Uuid::new_v4();
            assert!(snapshot.event_markets(unknown).await.unwrap().is_empty());
            assert!(snapshot.matched_markets(unknown).await.unwrap().is_empty());
            // Explain's full read of the candidates it keeps: known ids in the order asked,
            // an unknown one left out.
            let mut ids: Vec<uuid::Uuid> = markets.iter().rev().map(|market| market.id()).collect();
            ids.insert(ids.len() / 2, unknown);
            let summaries = snapshot.summaries_of(&ids).await.unwrap();
            assert_eq!(summaries.len(), markets.len(), "{}", database.backend);
            assert_eq!(
                summaries,
                reference.summaries_of(&ids).await.unwrap(),
                "{}",
                database.backend
            );
            // Explain's search: the same markets, whatever order each ranks them in.
            for question in markets.iter().map(|market| market.question.as_str()).take(20) {
                let Some(words) = SearchWords::parse(question) else {
                    continue;
                };
                let by_id = |mut hits: Vec<SearchHit>| {
                    hits.sort_by_key(|hit| hit.id);
                    hits
                };
                let limit = markets.len() as u32;
                assert_eq!(
                    by_id(snapshot.search_any_words(&words, limit).await.unwrap()),
                    by_id(reference.search_any_words(&words, limit).await.unwrap()),
                    "{} {question:?}",
                    database.backend
                );
            }
        });
    }
}
