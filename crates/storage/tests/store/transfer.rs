use marketlens_domain::Exchange::{Kalshi, Polymarket};
use marketlens_domain::MarketStatus;
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::billing::Operation;
use marketlens_domain::market::{Resolution, Rules};
use marketlens_domain::matching::{MatchPair, Orientation};
use marketlens_storage::{ChargeOutcome, ChargeRequest, NewAccount, Store};
use marketlens_testkit::TestDatabase;
use std::sync::Arc;

use crate::{at, event, market, postgres_indexes};

/// A store holding a little of everything: events, markets with and without the exchange's
/// times, a resolved market with its rules and result, a match, two accounts, a live and a revoked key, and charges.
async fn fill(store: &Arc<dyn Store>) -> ApiKey {
    let mut first = market(Polymarket, "1", "Will Bitcoin reach $100k by December 31, 2026?");
    first.event_external_id = Some("E1".into());
    let mut undated = market(Kalshi, "KX-2", "Will Bitcoin be above $100k on December 31, 2026?");
    undated.created_at = None;
    undated.source_updated_at = None;
    undated.volume = 0.1;
    undated.status = MarketStatus::Resolved;
    undated.rules = Rules {
        primary: Some("If Bitcoin is above $100k, Yes.".into()),
        secondary: Some("Kalshi's reference price.".into()),
        source: None,
    };
    undated.resolution = Some(Resolution {
        outcome: Some("Yes".into()),
        resolved_at: Some(at(45)),
    });
    let mut second_in_event = market(Polymarket, "3", "Will Ethereum reach $10k?");
    second_in_event.event_external_id = Some("E1".into());
    second_in_event.volume = 0.2;
    store
        .upsert(
            &[first.clone(), undated.clone(), second_in_event],
            &[event(Polymarket, "E1", "Crypto")],
            at(50),
        )
        .await
        .unwrap();
    // A second observation of the first market, a day later: two bars of each resolution.
    let mut repriced = first.clone();
    repriced.outcomes[0].price = 0.45;
    store.upsert(&[repriced], &[], at(50 + 86_400)).await.unwrap();
    store
        .replace_matches(&[
            MatchPair {
                market_id: first.id(),
                matched_id: undated.id(),
                similarity: 0.875,
                orientation: Orientation::Flipped,
            },
            MatchPair {
                market_id: undated.id(),
                matched_id: first.id(),
                similarity: 0.875,
                orientation: Orientation::Flipped,
            },
        ])
        .await
        .unwrap();
    let key = ApiKey::generate(&mut rand::rng());
    for (index, credits) in [(0, 50), (1, 7)] {
        let new_account = NewAccount {
            label: format!("account {index}"),
            tier: "pro".into(),
            wallet_address: "0xabc".into(),
            initial_credits: credits,
        };
        let account = store.create_account(new_account, at(60 + index)).await.unwrap();
        let live = if index == 0 {
            key.clone()
        } else {
            ApiKey::generate(&mut rand::rng())
        };
        let record = store
            .create_key(account.id, live.hash(), &live.truncated(), at(61))
            .await
            .unwrap();
        let revoked = ApiKey::generate(&mut rand::rng());
        let revoked = store
            .create_key(account.id, revoked.hash(), &revoked.truncated(), at(62))
            .await
            .unwrap();
        store.revoke_key(revoked.id, at(63)).await.unwrap();
        let charges: Vec<ChargeRequest> = [Operation::Explain, Operation::ListMarkets, Operation::GetEvent]
            .into_iter()
            .map(|operation| ChargeRequest {
                account_id: account.id,
                api_key_id: record.id,
                operation,
                credits: operation.cost(),
                request_id: format!("request {index}"),
                now: at(64),
                keep: None,
            })
            .collect();
        store.charge(uuid::Uuid::new_v4(), &charges).await.unwrap();
    }
    key
}

/// Everything a store holds, in a comparable form.
async fn everything(store: &Arc<dyn Store>) -> String {
    let markets = store.scan_markets(None, 1_000).await.unwrap();
    let events = store.scan_events(None, 1_000).await.unwrap();
    let accounts = store.list_accounts().await.unwrap();
    let mut ledgers = Vec::new();
    for account in &accounts {
        ledgers.push(store.ledger(account.id, None, 1_000).await.unwrap());
    }
    format!(
        "{markets:?}\n{events:?}\n{:?}\n{accounts:?}\n{:?}\n{ledgers:?}\n{:?}",
        store.match_pairs().await.unwrap(),
        store.export_keys().await.unwrap(),
        store.scan_history(None, 1_000).await.unwrap()
    )
}

#[tokio::test]
async fn a_copy_holds_everything_as_it_was_and_keeps_working() {
    // SQLite into PostgreSQL, and that copy back into SQLite (SQLite twice without PostgreSQL).
    let middle = match TestDatabase::postgres().await {
        Some(postgres) => postgres,
        None => TestDatabase::sqlite(),
    };
    let databases = [TestDatabase::sqlite(), middle, TestDatabase::sqlite()];
    fill(&databases[0].open().await).await;
    for (source, destination) in [(0, 1), (1, 2)] {
        let (source, destination) = (&databases[source], &databases[destination]);
        let from = source.open().await;
        let to = destination.open().await;
        let mut source_lines = 0;
        for account in from.list_accounts().await.unwrap() {
            source_lines += from.ledger_totals(account.id).await.unwrap().lines;
        }
        let mut steps = Vec::new();
        let report = marketlens_storage::transfer::copy(from.as_ref(), to.as_ref(), |step| steps.push(step))
            .await
            .unwrap();
        assert_eq!(
            (
                report.markets,
                report.events,
                report.match_pairs,
                report.accounts,
                report.keys,
                report.ledger_lines,
                report.history_bars
            ),
            (3, 1, 1, 2, 4, source_lines, 12),
            "{} to {}",
            source.backend,
            destination.backend
        );
        assert!(!steps.is_empty());
        assert_eq!(everything(&from).await, everything(&to).await);
        // Indexes built after the copy (a bulk load): search finds what was copied.
        let bitcoin = marketlens_storage::SearchWords::parse("bitcoin").unwrap();
        assert_eq!(to.search_any_words(&bitcoin, 10).await.unwrap().len(), 2);
        let event = to
            .get_event(marketlens_domain::ids::event_id(Polymarket, "E1"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!((event.market_count, event.total_volume), (2, 1000.2));

        // The copy is a working store: the key still opens it, charges continue its ledger.
        let richest = to
            .list_accounts()
            .await
            .unwrap()
            .into_iter()
            .max_by_key(|account| account.credits_remaining);
        let key_hash = to
            .export_keys()
            .await
            .unwrap()
            .into_iter()
            .find(|key| {
                Some(key.record.account_id) == richest.as_ref().map(|account| account.id)
                    && key.record.revoked_at.is_none()
            })
            .unwrap()
            .hash;
        let (key, account) = to.authenticate(&key_hash).await.unwrap().unwrap();
        let charged = to
            .charge(
                uuid::Uuid::new_v4(),
                &[ChargeRequest {
                    account_id: account.id,
                    api_key_id: key.id,
                    operation: Operation::GetMarket,
                    credits: Operation::GetMarket.cost(),
                    request_id: "after copy".into(),
                    now: at(100),
                    keep: None,
                }],
            )
            .await
            .unwrap();
        assert_eq!(
            charged,
            [ChargeOutcome::Charged {
                remaining: account.credits_remaining - 1
            }]
        );
        let ledger = to.ledger(account.id, None, 100).await.unwrap();
        let copied_ids: Vec<i64> = from
            .ledger(account.id, None, 100)
            .await
            .unwrap()
            .iter()
            .map(|line| line.id)
            .collect();
        assert!(ledger.last().unwrap().id > *copied_ids.iter().max().unwrap());
    }
    let (from, to) = (databases[0].open().await, databases[1].open().await);
    let refused = marketlens_storage::transfer::copy(from.as_ref(), to.as_ref(), |_| {}).await;
    assert!(refused.is_err(), "a copy into a store that holds data is refused");
}

/// Texts that mean something to `COPY`'s text format, to SQL or to JSON, and text beyond ASCII.
const AWKWARD: [&str; 8] = [
    "tab\tand\nnewline\r\nand \\ backslash",
    "\\N",
    "\\.",
    "quotes ' \" and ; -- comments",
    "{\"json\": [1, \"two\"]}",
    "unicode: é 漢字 🚀 \u{2028} \u{7f}",
    "",
    " leading and trailing ",
];

/// A store of markets, an event and a ledger whose every text is awkward.
async fn fill_awkwardly(store: &Arc<dyn Store>) {
    let mut markets = Vec::new();
    for (index, text) in AWKWARD.into_iter().enumerate() {
        let mut market = market(Kalshi, &format!("K-{index} {text}"), text);
        market.description = text.to_owned();
        market.event_external_id = Some("E \t 1".into());
        market.outcomes[0].name = text.to_owned();
        market.url = text.to_owned();
        market.rules.primary = Some(text.to_owned());
        markets.push(market);
    }
    let mut awkward_event = event(Kalshi, "E \t 1", AWKWARD[0]);
    awkward_event.description = AWKWARD[5].into();
    store.upsert(&markets, &[awkward_event], at(50)).await.unwrap();
    let account = NewAccount {
        label: AWKWARD[0].into(),
        tier: "pro".into(),
        wallet_address: AWKWARD[5].into(),
        initial_credits: 10,
    };
    let account = store.create_account(account, at(60)).await.unwrap();
    let key = ApiKey::generate(&mut rand::rng());
    let record = store
        .create_key(account.id, key.hash(), AWKWARD[1], at(61))
        .await
        .unwrap();
    let charge = ChargeRequest {
        account_id: account.id,
        api_key_id: record.id,
        operation: Operation::ListMarkets,
        credits: 1,
        request_id: AWKWARD[2].into(),
        now: at(62),
        keep: None,
    };
    store.charge(uuid::Uuid::new_v4(), &[charge]).await.unwrap();
}

#[tokio::test]
async fn a_copy_keeps_awkward_texts_exactly() {
    let middle = match TestDatabase::postgres().await {
        Some(postgres) => postgres,
        None => TestDatabase::sqlite(),
    };
    let databases = [TestDatabase::sqlite(), middle, TestDatabase::sqlite()];
    fill_awkwardly(&databases[0].open().await).await;
    for (source, destination) in [(0, 1), (1, 2)] {
        let (from, to) = (databases[source].open().await, databases[destination].open().await);
        marketlens_storage::transfer::copy(from.as_ref(), to.as_ref(), |_| {})
            .await
            .unwrap();
        assert_eq!(
            everything(&from).await,
            everything(&to).await,
            "{} to {}",
            databases[source].backend,
            databases[destination].backend
        );
    }
}

/// A copy that fails half-way (PostgreSQL cannot keep a NUL in text; SQLite can) reports it
/// and leaves a destination that holds part of the copy, which another copy refuses, with
/// every index in place.
#[tokio::test]
async fn a_failed_copy_leaves_a_destination_that_is_refused_and_indexed() {
    let Some(destination) = TestDatabase::postgres().await else {
        return;
    };
    let source = TestDatabase::sqlite();
    let from = source.open().await;
    let mut unstorable = market(Polymarket, "2", "Will a NUL \0 be stored?");
    unstorable.event_external_id = Some("E1".into());
    from.upsert(
        &[market(Polymarket, "1", "Will this be copied?"), unstorable],
        &[event(Polymarket, "E1", "Copied first")],
        at(50),
    )
    .await
    .unwrap();
    let to = destination.open().await;
    let before = postgres_indexes(&destination.url).await;
    assert!(before.contains(&"markets_search".to_owned()), "{before:?}");

    let failed = marketlens_storage::transfer::copy(from.as_ref(), to.as_ref(), |_| {}).await;
    assert!(failed.is_err(), "{failed:?}");
    assert_eq!(
        postgres_indexes(&destination.url).await,
        before,
        "the indexes the copy deferred are built"
    );
    assert!(!to.is_empty().await.unwrap(), "the events went in before the failure");
    let refused = marketlens_storage::transfer::copy(from.as_ref(), to.as_ref(), |_| {}).await;
    assert!(
        matches!(&refused, Err(marketlens_storage::StoreError::Invalid(message)) if message.contains("not empty")),
        "{refused:?}"
    );
}
