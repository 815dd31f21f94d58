use marketlens_domain::Exchange::{Kalshi, Polymarket};
use marketlens_domain::market::{Resolution, Rules};
use marketlens_domain::market_url::{MarketUrl, UrlKey};
use marketlens_domain::matching::{MatchPair, Orientation};
use marketlens_domain::{Category, MarketStatus};
use marketlens_storage::{EventQuery, MarketFilter, MarketQuery, MarketSort, SearchWords, SortOrder};

use crate::{at, backends, event, market};

fn query(filter: MarketFilter, sort: MarketSort, order: SortOrder, limit: u32, offset: u64) -> MarketQuery {
    MarketQuery {
        filter,
        sort,
        order,
        limit,
        offset,
    }
}

#[tokio::test]
async fn upsert_is_idempotent_and_keeps_the_newest_record() {
    for backend in backends().await {
        let store = &backend.store;
        let original = market(Polymarket, "1", "Will it rain in Paris?");
        let counts = store
            .upsert(std::slice::from_ref(&original), &[], at(10))
            .await
            .unwrap();
        assert_eq!(
            (counts.markets_inserted, counts.markets_updated),
            (1, 0),
            "{}",
            backend.name
        );

        let again = store
            .upsert(std::slice::from_ref(&original), &[], at(20))
            .await
            .unwrap();
        assert_eq!(
            (again.markets_inserted, again.markets_updated, again.markets_unchanged),
            (0, 0, 1)
        );

        let mut newer = original.clone();
        newer.volume = 5000.0;
        newer.source_updated_at = Some(at(30));
        let updated = store.upsert(std::slice::from_ref(&newer), &[], at(40)).await.unwrap();
        assert_eq!(updated.markets_updated, 1);

        let stale = store
            .upsert(std::slice::from_ref(&original), &[], at(50))
            .await
            .unwrap();
        assert_eq!(stale.markets_stale, 1);

        let stored = store.get_market(original.id()).await.unwrap().unwrap();
        assert_eq!(stored.market, newer);
        assert_eq!(stored.created_at, at(1));
        assert_eq!(stored.updated_at, at(30));
    }
}

#[tokio::test]
async fn rules_and_results_are_kept_as_written_and_replaced_by_a_newer_record() {
    for backend in backends().await {
        let store = &backend.store;
        let mut settled = market(Kalshi, "KX-1", "Will it snow in Denver?");
        settled.status = MarketStatus::Resolved;
        settled.rules = Rules {
            primary: Some("If it snows, Yes.".into()),
            secondary: Some("Snow means 0.1 inches.".into()),
            source: None,
        };
        settled.resolution = Some(Resolution {
            outcome: Some("No".into()),
            resolved_at: Some(at(5)),
        });
        // Resolved with neither a winner nor a time: still a resolution, read back as such.
        let mut redeemed = market(Polymarket, "2", "Will the legacy market pay out?");
        redeemed.status = MarketStatus::Resolved;
        redeemed.rules.source = Some("https://example.org/results".into());
        redeemed.resolution = Some(Resolution {
            outcome: None,
            resolved_at: None,
        });
        let open = market(Polymarket, "3", "Will it rain in Paris?");
        let written = [settled.clone(), redeemed, open];
        store.upsert(&written, &[], at(10)).await.unwrap();
        for market in &written {
            let stored = store.get_market(market.id()).await.unwrap().unwrap();
            assert_eq!(&stored.market, market, "{}", backend.name);
        }

        // Kalshi amends the result away: the newer record's empty columns replace the old ones.
        let mut amended = settled.clone();
        amended.status = MarketStatus::Closed;
        amended.rules = Rules::default();
        amended.resolution = None;
        amended.source_updated_at = Some(at(30));
        let counts = store.upsert(std::slice::from_ref(&amended), &[], at(40)).await.unwrap();
        assert_eq!(counts.markets_updated, 1, "{}", backend.name);
        let stored = store.get_market(amended.id()).await.unwrap().unwrap();
        assert_eq!(stored.market, amended, "{}", backend.name);
    }
}

#[tokio::test]
async fn markets_without_exchange_times_keep_their_first_sighting() {
    for backend in backends().await {
        let store = &backend.store;
        let mut undated = market(Kalshi, "KX-1", "Will the Fed cut rates?");
        undated.created_at = None;
        undated.source_updated_at = None;
        store
            .upsert(std::slice::from_ref(&undated), &[], at(100))
            .await
            .unwrap();
        undated.volume = 2.0;
        store
            .upsert(std::slice::from_ref(&undated), &[], at(200))
            .await
            .unwrap();
        let stored = store.get_market(undated.id()).await.unwrap().unwrap();
        assert_eq!(stored.created_at, at(100), "{}", backend.name);
        assert_eq!(stored.updated_at, at(200));
        assert_eq!(stored.market.volume, 2.0);
    }
}

#[tokio::test]
async fn lists_filter_sort_and_page_without_overlap() {
    for backend in backends().await {
        let store = &backend.store;
        let mut markets = Vec::new();
        for index in 0..25 {
            let exchange = if index % 2 == 0 { Polymarket } else { Kalshi };
            let mut item = market(exchange, &format!("M{index}"), &format!("Question number {index}"));
            // Many ties, so that the id tie-break decides.
            item.volume_24h = f64::from(index % 3);
            item.status = if index % 5 == 0 {
                MarketStatus::Resolved
            } else {
                MarketStatus::Open
            };
            item.category = if index % 4 == 0 {
                Category::Sports
            } else {
                Category::Politics
            };
            markets.push(item);
        }
        store.upsert(&markets, &[], at(10)).await.unwrap();

        for order in [SortOrder::Asc, SortOrder::Desc] {
            let whole = store
                .list_markets(&query(MarketFilter::default(), MarketSort::Volume24h, order, 200, 0))
                .await
                .unwrap();
            assert_eq!(whole.total, 25);
            let mut paged = Vec::new();
            for offset in (0..25).step_by(7) {
                let page = store
                    .list_markets(&query(MarketFilter::default(), MarketSort::Volume24h, order, 7, offset))
                    .await
                    .unwrap();
                assert_eq!(page.total, 25);
                paged.extend(page.items.into_iter().map(|item| item.id));
            }
            let whole_ids: Vec<_> = whole.items.iter().map(|item| item.id).collect();
            assert_eq!(
                paged, whole_ids,
                "{} pages must concatenate to the whole list",
                backend.name
            );
            for pair in whole.items.windows(2) {
                let (first, second) = (&pair[0], &pair[1]);
                let in_order = match order {
                    SortOrder::Asc => (first.market.volume_24h, first.id) < (second.market.volume_24h, second.id),
                    SortOrder::Desc => (first.market.volume_24h, first.id) > (second.market.volume_24h, second.id),
                };
                assert!(in_order);
            }
        }

        let filter = MarketFilter {
            exchange: Some(Polymarket),
            status: Some(MarketStatus::Open),
            category: Some(Category::Politics),
            search: None,
            external_id: None,
        };
        let filtered = store
            .list_markets(&query(filter, MarketSort::CreatedAt, SortOrder::Desc, 50, 0))
            .await
            .unwrap();
        let expected = markets
            .iter()
            .filter(|item| {
                item.exchange == Polymarket && item.status == MarketStatus::Open && item.category == Category::Politics
            })
            .count();
        assert_eq!(filtered.total as usize, expected);
        assert!(filtered.items.iter().all(|item| item.market.exchange == Polymarket
            && item.market.status == MarketStatus::Open
            && item.market.category == Category::Politics));

        let past_the_end = store
            .list_markets(&query(
                MarketFilter::default(),
                MarketSort::Volume,
                SortOrder::Desc,
                10,
                1000,
            ))
            .await
            .unwrap();
        assert!(past_the_end.items.is_empty());
        assert_eq!(past_the_end.total, 25);
    }
}

#[tokio::test]
async fn search_matches_every_word_as_a_prefix_ignoring_case_and_accents() {
    for backend in backends().await {
        let store = &backend.store;
        let markets = vec![
            market(Polymarket, "1", "Will Pokémon release a new game in 2026?"),
            market(Polymarket, "2", "Will Bitcoin reach $100k by December?"),
            market(Kalshi, "3", "Will BITCOIN fall below $50k?"),
        ];
        store.upsert(&markets, &[], at(10)).await.unwrap();
        let search = |text: &str| MarketFilter {
            search: SearchWords::parse(text),
            ..MarketFilter::default()
        };
        let found = |text: &'static str| {
            let store = store.clone();
            async move {
                let page = store
                    .list_markets(&query(search(text), MarketSort::Volume24h, SortOrder::Desc, 50, 0))
                    .await
                    .unwrap();
                let mut ids: Vec<String> = page.items.into_iter().map(|item| item.market.external_id).collect();
                ids.sort();
                ids
            }
        };
        assert_eq!(found("bitcoin").await, ["2", "3"], "{}", backend.name);
        assert_eq!(found("BitCo").await, ["2", "3"]);
        assert_eq!(found("bitcoin 100k").await, ["2"]);
        assert_eq!(found("pokemon").await, ["1"]);
        assert_eq!(found("POKÉMON gam").await, ["1"]);
        assert!(found("bitcoin pokemon").await.is_empty());

        let any = store
            .search_any_words(&SearchWords::parse("bitcoin pokemon").unwrap(), 10)
            .await
            .unwrap();
        assert_eq!(any.len(), 3);
    }
}

#[tokio::test]
async fn a_search_of_one_token_also_finds_the_market_the_exchange_names_by_it() {
    for backend in backends().await {
        let store = &backend.store;
        let mut ticker = market(Kalshi, "KXELONMARS-99", "Will Elon Musk visit Mars before Aug 1, 2099?");
        ticker.url_keys.market = Some("kxelonmars-99".into());
        let mut slug = market(Polymarket, "517311", "Will Elon Musk land on Mars by 2030?");
        slug.url_keys.market = Some("will-elon-musk-land-on-mars-by-2030".into());
        let mut words = market(Polymarket, "600", "Kxelonmars 99 problems?");
        words.url_keys.market = Some("kxelonmars-99-problems".into());
        store.upsert(&[ticker, slug, words], &[], at(10)).await.unwrap();
        let found = |text: &'static str| {
            let store = store.clone();
            async move {
                let filter = MarketFilter {
                    search: SearchWords::parse(text),
                    ..MarketFilter::default()
                };
                let page = store
                    .list_markets(&query(filter, MarketSort::Volume24h, SortOrder::Desc, 50, 0))
                    .await
                    .unwrap();
                let mut ids: Vec<String> = page.items.into_iter().map(|item| item.market.external_id).collect();
                ids.sort();
                ids
            }
        };
        // The ticker in any case, and the question whose words it holds, as D6 finds it.
        assert_eq!(
            found("KXELONMARS-99").await,
            ["600", "KXELONMARS-99"],
            "{}",
            backend.name
        );
        assert_eq!(found("  kxelonmars-99 ").await, ["600", "KXELONMARS-99"]);
        assert_eq!(found("517311").await, ["517311"]);
        assert_eq!(found("Will-Elon-Musk-Land-On-Mars-By-2030").await, ["517311"]);
        // Equality only, and only for one token: a prefix or two tokens name no market (the
        // words "kxelonmars" and "9" still begin words of 600's question).
        assert_eq!(found("kxelonmars-9").await, ["600"]);
        assert!(found("51731").await.is_empty());
        assert_eq!(found("KXELONMARS-99 problems").await, ["600"]);
    }
}

#[tokio::test]
async fn events_count_their_markets_and_sum_volume_when_the_exchange_does_not() {
    for backend in backends().await {
        let store = &backend.store;
        let kalshi_event = event(Kalshi, "KXPOPE-70", "Who will the next Pope be?");
        let mut polymarket_event = event(Polymarket, "900", "Fed chair");
        polymarket_event.reported_volume = Some(12345.0);
        let mut first = market(Kalshi, "KXPOPE-70-A", "Who will the next Pope be? — A");
        first.event_external_id = Some("KXPOPE-70".into());
        first.outcomes[0].price = 0.2;
        let mut second = market(Kalshi, "KXPOPE-70-B", "Who will the next Pope be? — B");
        second.event_external_id = Some("KXPOPE-70".into());
        second.outcomes[0].price = 0.7;
        second.created_at = Some(at(-50));
        // The markets arrive before their event: the event still counts them.
        store
            .upsert(&[first.clone(), second.clone()], &[], at(10))
            .await
            .unwrap();
        store
            .upsert(&[], &[kalshi_event.clone(), polymarket_event.clone()], at(20))
            .await
            .unwrap();

        let stored = store.get_event(kalshi_event.id()).await.unwrap().unwrap();
        assert_eq!(stored.market_count, 2, "{}", backend.name);
        assert_eq!(stored.total_volume, 2000.0);
        assert_eq!(stored.created_at, at(-50), "earliest market creation");
        let members = store.event_markets(kalshi_event.id()).await.unwrap();
        assert_eq!(
            members.iter().map(|member| member.price).collect::<Vec<_>>(),
            [0.7, 0.2]
        );

        let reported = store.get_event(polymarket_event.id()).await.unwrap().unwrap();
        assert_eq!((reported.market_count, reported.total_volume), (0, 12345.0));

        let page = store
            .list_events(&EventQuery {
                exchange: Some(Kalshi),
                category: None,
                limit: 10,
                offset: 0,
            })
            .await
            .unwrap();
        assert_eq!(page.total, 1);
        let all = store
            .list_events(&EventQuery {
                exchange: None,
                category: None,
                limit: 10,
                offset: 0,
            })
            .await
            .unwrap();
        assert_eq!(
            all.items.iter().map(|item| item.total_volume).collect::<Vec<_>>(),
            [12345.0, 2000.0]
        );
    }
}

#[tokio::test]
async fn url_keys_find_markets_most_specific_first() {
    for backend in backends().await {
        let store = &backend.store;
        let mut named = market(Kalshi, "KXMARMAD-26-UGA", "Will Georgia win?");
        named.url_keys.event = Some("kxmarmad-26".into());
        let mut sibling = market(Kalshi, "KXMARMAD-26-DUKE", "Will Duke win?");
        sibling.url_keys.event = Some("kxmarmad-26".into());
        store.upsert(&[named.clone(), sibling], &[], at(10)).await.unwrap();

        let by_market = MarketUrl {
            exchange: Kalshi,
            keys: vec![
                UrlKey::Market("kxmarmad-26-uga".into()),
                UrlKey::Event("kxmarmad-26-uga".into()),
            ],
        };
        let found = store.markets_by_url(&by_market).await.unwrap();
        assert_eq!(found.len(), 1, "{}", backend.name);
        assert_eq!(found[0].id, named.id());

        let by_series = MarketUrl {
            exchange: Kalshi,
            keys: vec![UrlKey::Series("kxmarmad".into())],
        };
        assert_eq!(
            store.markets_by_url(&by_series).await.unwrap().len(),
            2,
            "series found by event-ticker prefix"
        );

        let other_exchange = MarketUrl {
            exchange: Polymarket,
            keys: vec![UrlKey::Market("kxmarmad-26-uga".into())],
        };
        assert!(store.markets_by_url(&other_exchange).await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn matches_are_served_best_first_and_counted_once_per_pair() {
    for backend in backends().await {
        let store = &backend.store;
        let left = market(Polymarket, "1", "Will Elon Musk visit Mars?");
        let right = market(Kalshi, "KX-1", "Will Elon Musk visit Mars?");
        let other = market(Kalshi, "KX-2", "Will Elon Musk visit Mars soon?");
        store
            .upsert(&[left.clone(), right.clone(), other.clone()], &[], at(10))
            .await
            .unwrap();
        let pairs = vec![
            MatchPair {
                market_id: left.id(),
                matched_id: right.id(),
                similarity: 0.95,
                orientation: Orientation::Same,
            },
            MatchPair {
                market_id: right.id(),
                matched_id: left.id(),
                similarity: 0.95,
                orientation: Orientation::Same,
            },
            MatchPair {
                market_id: left.id(),
                matched_id: other.id(),
                similarity: 0.8,
                orientation: Orientation::Same,
            },
            MatchPair {
                market_id: other.id(),
                matched_id: left.id(),
                similarity: 0.8,
                orientation: Orientation::Same,
            },
        ];
        store.replace_matches(&pairs).await.unwrap();
        let matched = store.matched_markets(left.id()).await.unwrap();
        assert_eq!(
            matched.iter().map(|item| item.id).collect::<Vec<_>>(),
            [right.id(), other.id()],
            "{}",
            backend.name
        );
        assert_eq!(matched[0].exchange, Kalshi);
        let counts = store.catalog_counts().await.unwrap();
        assert_eq!(
            (counts.polymarket_markets, counts.kalshi_markets, counts.match_pairs),
            (1, 2, 2)
        );
        assert_eq!(store.match_pairs().await.unwrap().len(), 4, "orientations kept");
        assert!(
            store
                .match_pairs()
                .await
                .unwrap()
                .iter()
                .all(|stored| pairs.contains(stored))
        );

        // An incremental match replaces the rows of the markets it names, and only those.
        let flipped = MatchPair {
            market_id: right.id(),
            matched_id: left.id(),
            similarity: 0.95,
            orientation: Orientation::Flipped,
        };
        store
            .update_matches(&[right.id()], std::slice::from_ref(&flipped))
            .await
            .unwrap();
        let stored = store.match_pairs().await.unwrap();
        assert!(stored.contains(&flipped), "{}", backend.name);
        assert_eq!(stored.len(), 4, "{stored:?}");
        store.update_matches(&[right.id(), left.id()], &[]).await.unwrap();
        let stored = store.match_pairs().await.unwrap();
        assert!(stored.iter().all(|pair| pair.market_id == other.id()), "{stored:?}");

        store.replace_matches(&[]).await.unwrap();
        assert!(store.matched_markets(left.id()).await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn open_market_ids_lists_the_exchanges_open_markets() {
    for backend in backends().await {
        let store = &backend.store;
        let open = market(Kalshi, "KX-OPEN", "Open?");
        let mut closed = market(Kalshi, "KX-CLOSED", "Closed?");
        closed.status = MarketStatus::Closed;
        let elsewhere = market(Polymarket, "7", "Elsewhere?");
        store.upsert(&[open, closed, elsewhere], &[], at(1)).await.unwrap();
        assert_eq!(
            store.open_market_ids(Kalshi).await.unwrap(),
            ["KX-OPEN"],
            "{}",
            backend.name
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn several_openers_of_a_new_store_all_succeed() {
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", directory.path().join("race.db").display());
    let openers: Vec<_> = (0..6)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move { marketlens_storage::open(&url).await.map(|_| ()) })
        })
        .collect();
    for opener in openers {
        if let Err(error) = opener.await.unwrap() {
            panic!("an opener failed: {error}");
        }
    }
}

#[tokio::test]
async fn large_batches_cross_every_chunk_and_keep_the_newest_copy_of_a_repeated_id() {
    for backend in backends().await {
        let store = &backend.store;
        let mut markets: Vec<_> = (0..1234)
            .map(|index| {
                let mut item = market(Kalshi, &format!("KX-{index}"), &format!("Question {index}?"));
                item.event_external_id = Some(format!("EV-{}", index % 700));
                item
            })
            .collect();
        let mut newer = markets[5].clone();
        newer.volume = 99.0;
        newer.source_updated_at = Some(at(50));
        markets.push(newer.clone());
        let mut older = markets[6].clone();
        older.source_updated_at = Some(at(-50));
        older.volume = 1.0;
        markets.push(older);
        let events: Vec<_> = (0..700)
            .map(|index| event(Kalshi, &format!("EV-{index}"), &format!("Event {index}")))
            .collect();
        let counts = store.upsert(&markets, &events, at(10)).await.unwrap();
        assert_eq!(
            (counts.markets_inserted, counts.markets_updated, counts.markets_stale),
            (1234, 1, 1),
            "{}",
            backend.name
        );
        assert_eq!(counts.events_inserted, 700);
        assert_eq!(store.get_market(newer.id()).await.unwrap().unwrap().market.volume, 99.0);
        assert_eq!(
            store.get_market(markets[6].id()).await.unwrap().unwrap().market.volume,
            1000.0
        );
        let with_two = store.get_event(events[0].id()).await.unwrap().unwrap();
        assert_eq!(with_two.market_count, 2, "EV-0 holds KX-0 and KX-700");
        let again = store.upsert(&markets[..1234], &events, at(20)).await.unwrap();
        assert_eq!(
            (again.markets_unchanged, again.markets_stale, again.events_unchanged),
            (1233, 1, 700)
        );
    }
}

#[tokio::test]
async fn the_catalog_revision_rises_with_every_change_and_only_then() {
    for backend in backends().await {
        let store = &backend.store;
        let first = store.catalog_revision().await.unwrap();
        let rain = market(Polymarket, "1", "Will it rain in Paris?");
        store.upsert(std::slice::from_ref(&rain), &[], at(1)).await.unwrap();
        let inserted = store.catalog_revision().await.unwrap();
        assert!(inserted > first, "{}", backend.name);
        store.upsert(std::slice::from_ref(&rain), &[], at(2)).await.unwrap();
        assert_eq!(store.catalog_revision().await.unwrap(), inserted, "nothing changed");
        store.replace_matches(&[]).await.unwrap();
        let matched = store.catalog_revision().await.unwrap();
        assert!(matched > inserted);
        store.update_matches(&[rain.id()], &[]).await.unwrap();
        assert!(store.catalog_revision().await.unwrap() > matched);
    }
}

#[tokio::test]
async fn match_inputs_changed_since_a_revision_are_the_markets_written_after_it() {
    for backend in backends().await {
        let store = &backend.store;
        let mut rain = market(Polymarket, "1", "Will it rain in Paris?");
        let snow = market(Kalshi, "2", "Will it snow in Oslo?");
        let mut grouped = market(Polymarket, "3", "Will it hail in Rome?");
        grouped.event_external_id = Some("e1".into());
        let mut weather = event(Polymarket, "e1", "Weather in Rome");
        store
            .upsert(
                &[rain.clone(), snow.clone(), grouped.clone()],
                std::slice::from_ref(&weather),
                at(1),
            )
            .await
            .unwrap();
        let seen = store.catalog_revision().await.unwrap();
        assert!(
            store.match_inputs_changed_since(seen).await.unwrap().is_empty(),
            "{}",
            backend.name
        );
        assert_eq!(
            store.match_inputs_changed_since(0).await.unwrap().len(),
            3,
            "{}",
            backend.name
        );

        // The same records again change nothing; a changed market and a retitled event do.
        store.upsert(&[rain.clone(), snow.clone()], &[], at(2)).await.unwrap();
        assert!(
            store.match_inputs_changed_since(seen).await.unwrap().is_empty(),
            "{}",
            backend.name
        );
        rain.question = "Will it rain in Paris on Sunday?".into();
        rain.source_updated_at = Some(at(3));
        weather.title = "Weather in Rome this week".into();
        weather.source_updated_at = Some(at(3));
        store
            .upsert(std::slice::from_ref(&rain), std::slice::from_ref(&weather), at(3))
            .await
            .unwrap();
        let changed = store.match_inputs_changed_since(seen).await.unwrap();
        let ids: Vec<uuid::Uuid> = changed.iter().map(|input| input.id).collect();
        let mut expected = vec![rain.id(), grouped.id()];
        expected.sort();
        assert_eq!(ids, expected, "{}", backend.name);
        let rain_input = changed.iter().find(|input| input.id == rain.id()).unwrap();
        assert_eq!(rain_input.question, "Will it rain in Paris on Sunday?");
        // The exchange's own id goes to the matcher: Kalshi's ticker names a game's day and sides.
        assert_eq!(rain_input.external_id, "1", "{}", backend.name);
        let grouped_input = changed.iter().find(|input| input.id == grouped.id()).unwrap();
        assert_eq!(grouped_input.event_title.as_deref(), Some("Weather in Rome this week"));
        let now = store.catalog_revision().await.unwrap();
        assert!(
            store.match_inputs_changed_since(now).await.unwrap().is_empty(),
            "{}",
            backend.name
        );
    }
}
