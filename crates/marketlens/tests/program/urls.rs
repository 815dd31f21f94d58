//! Every market of the demo data is found again by its own public URL, as explain and lookup
//! find it: the URL parsed (never fetched) and looked up in the store, on SQLite and, when the
//! test database is configured, on PostgreSQL.

use marketlens::fixtures::demo;
use marketlens_domain::market_url;
use marketlens_storage::Store;
use marketlens_sync::import;
use marketlens_testkit::TestDatabase;

async fn every_market_resolves_by_its_own_url(store: &dyn Store) {
    for file in demo::files() {
        import::import_payload(store, file.exchange, file.bytes, file.recorded_at(), |_, _| {})
            .await
            .unwrap();
    }
    let mut after = None;
    let mut checked = 0;
    loop {
        let page = store.market_summaries(after, 500).await.unwrap();
        let Some(last) = page.last() else { break };
        after = Some(last.id);
        for summary in &page {
            let market = store.get_market(summary.id).await.unwrap().unwrap().market;
            let parsed = market_url::parse(&market.url)
                .unwrap_or_else(|| panic!("{} does not parse as a market URL", market.url));
            assert_eq!(parsed.exchange, market.exchange, "{}", market.url);
            let found = store.markets_by_url(&parsed).await.unwrap();
            assert!(
                found.iter().any(|candidate| candidate.id == summary.id),
                "{} ({}) does not lead back to its market",
                market.url,
                market.question
            );
            checked += 1;
        }
    }
    assert!(checked > 2_000, "only {checked} markets checked");
}

#[tokio::test]
async fn on_sqlite() {
    let database = TestDatabase::sqlite();
    every_market_resolves_by_its_own_url(database.open().await.as_ref()).await;
}

#[tokio::test]
async fn on_postgres_when_configured() {
    if let Some(database) = TestDatabase::postgres().await {
        every_market_resolves_by_its_own_url(database.open().await.as_ref()).await;
    }
}
