//! The storage suite: every scenario runs against each backend `backends()` yields: SQLite
//! always, PostgreSQL when `MARKETLENS_TEST_DATABASE_URL` is set (CI always sets it). Each
//! test gets its own database file or schema.

mod accounts;
mod bulk;
mod catalog;
mod copy_in;
mod health;
mod history;
mod idempotency;
mod migrations;
mod news;
mod sync_runs;
mod transfer;

use marketlens_domain::market::{Rules, UrlKeys};
use marketlens_domain::time::{Timestamp, from_epoch_millis};
use marketlens_domain::{Category, Event, Exchange, Market, MarketStatus, Outcome};
use marketlens_storage::Store;
use marketlens_testkit::TestDatabase;
use std::sync::Arc;

/// A store and what keeps it alive.
pub struct Backend {
    pub name: &'static str,
    pub store: Arc<dyn Store>,
    _database: TestDatabase,
}

pub async fn backends() -> Vec<Backend> {
    let mut backends = Vec::new();
    for database in TestDatabase::all().await {
        backends.push(Backend {
            name: database.backend,
            store: database.open().await,
            _database: database,
        });
    }
    backends
}

pub fn at(seconds: i64) -> Timestamp {
    from_epoch_millis(1_750_000_000_000 + seconds * 1000)
}

pub fn market(exchange: Exchange, external_id: &str, question: &str) -> Market {
    Market {
        exchange,
        external_id: external_id.to_owned(),
        event_external_id: None,
        question: question.to_owned(),
        description: format!("Rules for {question}"),
        status: MarketStatus::Open,
        category: Category::Politics,
        liquidity: 100.0,
        volume: 1000.0,
        volume_24h: 10.0,
        start_date: Some(at(0)),
        end_date: Some(at(86_400)),
        created_at: Some(at(1)),
        source_updated_at: Some(at(2)),
        outcomes: vec![
            Outcome {
                name: "Yes".into(),
                price: 0.4,
                best_bid_price: Some(0.39),
                best_ask_price: Some(0.41),
            },
            Outcome {
                name: "No".into(),
                price: 0.6,
                best_bid_price: None,
                best_ask_price: None,
            },
        ],
        url_keys: UrlKeys {
            market: Some(external_id.to_lowercase()),
            event: None,
            series: None,
        },
        url: format!("https://example.invalid/{external_id}"),
        image_url: String::new(),
        rules: Rules::default(),
        resolution: None,
    }
}

pub fn event(exchange: Exchange, external_id: &str, title: &str) -> Event {
    Event {
        exchange,
        external_id: external_id.to_owned(),
        title: title.to_owned(),
        description: String::new(),
        category: Category::Politics,
        reported_volume: None,
        image_url: String::new(),
        created_at: None,
        source_updated_at: Some(at(2)),
        slug: Some(external_id.to_lowercase()),
        series_slug: None,
    }
}

/// The indexes of the PostgreSQL store at `url` (its schema's), by name, once no bulk load
/// holds any back: fails if `deferred_schema` records some.
pub async fn postgres_indexes(url: &str) -> Vec<String> {
    let pool = sqlx::PgPool::connect(url).await.unwrap();
    let names: Vec<String> =
        sqlx::query_scalar("SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1")
            .fetch_all(&pool)
            .await
            .unwrap();
    let deferred: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM deferred_schema")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert_eq!(deferred, 0, "no index is left deferred");
    names
}
