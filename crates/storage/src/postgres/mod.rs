//! The scale-out store: PostgreSQL (or any engine that speaks its protocol and SQL), shared by
//! any number of stateless server nodes.
//!
//! Every write is one transaction; balances are changed only under `SELECT ... FOR UPDATE` of
//! their account rows, taken in id order, so that nodes charging one account at once queue on
//! its row instead of overspending it. Migrations run under PostgreSQL's advisory lock (sqlx
//! takes it), so nodes starting together apply each migration once.

mod copy_in;
mod deferred;
mod rows;

use marketlens_domain::time::Timestamp;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, Postgres};
use sqlx::{QueryBuilder, Transaction};
use std::str::FromStr;
use std::time::Duration;
use uuid::Uuid;

use crate::backend::Backend;
use crate::{SearchWords, StoreError};

/// How long a call waits for a free connection (or for a new one to connect) before the store
/// reports itself unavailable: short, so that a server gone away is reported within seconds
/// rather than making every call wait (the server's health probe usually reports it first).
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(2);
/// Connections per node. A node's requests are served from memory or by short queries; more
/// connections than cores on the database server only queue there instead.
const MAX_CONNECTIONS: u32 = 16;

/// Migrations an earlier numbering recorded under other versions, newest first: (recorded
/// version, version now, description). The PostgreSQL chain used to be numbered on its own,
/// skipping SQLite's migrations that PostgreSQL never needed, so one schema change had two
/// numbers; now it has the same number and name in both chains.
const RENUMBERED: [(i64, i64, &str); 5] = [
    (8, 11, "history"),
    (7, 10, "change revisions"),
    (6, 9, "news"),
    (5, 8, "catalog revision"),
    (4, 5, "leases"),
];

/// Moves the migration records of a store migrated under the earlier numbering to the
/// versions of today's files, before the migrator compares them (it would take version 4 for
/// a file gone missing and run `leases` again as version 5). Newest first, so that no two
/// records ever share a version; each is moved only if its version and name are the old
/// ones, so running this again, or on a new store, changes nothing.
async fn renumber_migrations(pool: &PgPool) -> Result<(), StoreError> {
    let recorded: Option<String> = sqlx::query_scalar("SELECT to_regclass('_sqlx_migrations')::text")
        .fetch_one(pool)
        .await?;
    if recorded.is_none() {
        return Ok(());
    }
    let mut transaction = pool.begin().await?;
    for (old, new, description) in RENUMBERED {
        sqlx::query("UPDATE _sqlx_migrations SET version = $2 WHERE version = $1 AND description = $3")
            .bind(old)
            .bind(new)
            .bind(description)
            .execute(&mut *transaction)
            .await?;
    }
    transaction.commit().await?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct PgStore {
    pool: PgPool,
    /// The health probe's connection (`HealthStore::ping`), made when first used.
    prober: PgPool,
    bulk_state: crate::bulk::BulkState,
}

impl PgStore {
    /// Connects to `postgres://...` and applies the migrations.
    pub async fn open(database_url: &str) -> Result<PgStore, StoreError> {
        let options = PgConnectOptions::from_str(database_url)
            .map_err(|error| StoreError::Invalid(format!("bad PostgreSQL URL: {error}")))?;
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options.clone())
            .await?;
        renumber_migrations(&pool).await?;
        sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        deferred::build_left_by_a_cut_load(&pool).await?;
        let prober = PgPoolOptions::new()
            .max_connections(1)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_lazy_with(options);
        Ok(PgStore {
            pool,
            prober,
            bulk_state: Default::default(),
        })
    }
}

impl Backend for PgStore {
    type Db = Postgres;
    type Id = Uuid;
    type Time = Timestamp;

    const BYTE_ORDER: &'static str = " COLLATE \"C\"";
    const STAGED_HISTORY: Option<&'static str> = None;
    const CONTINUE_LEDGER_IDS: Option<&'static str> = Some(
        "SELECT setval(pg_get_serial_sequence('ledger', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM ledger), false)",
    );

    const FOR_UPDATE: &'static str = " FOR UPDATE";

    fn id(id: Uuid) -> Uuid {
        id
    }

    const ANY_WORDS: &'static str = "FROM markets m WHERE m.search_words @@ $1::tsquery \
        ORDER BY ts_rank(m.search_words, $1::tsquery) DESC, m.id LIMIT $2";

    fn push_all_words(builder: &mut QueryBuilder<Postgres>, words: &SearchWords) {
        builder
            .push("m.search_words @@ ")
            .push_bind(prefix_query(words, " & "))
            .push("::tsquery");
    }

    fn any_words(words: &SearchWords) -> String {
        prefix_query(words, " | ")
    }

    fn push_ids(builder: &mut QueryBuilder<Postgres>, ids: &[Uuid]) {
        builder.push(" = ANY(").push_bind(ids.to_vec()).push(")");
    }

    fn push_history_ids(builder: &mut QueryBuilder<Postgres>, ids: &[Uuid]) {
        Self::push_ids(builder, ids);
    }

    fn time(time: Timestamp) -> Timestamp {
        time
    }

    fn reader(&self) -> &PgPool {
        &self.pool
    }

    fn writer(&self) -> &PgPool {
        &self.pool
    }

    fn prober(&self) -> &PgPool {
        &self.prober
    }

    async fn begin_write(&self) -> Result<Transaction<'static, Postgres>, StoreError> {
        crate::backend::begin_on(&self.pool, "BEGIN").await
    }

    async fn begin_catalog_write(&self) -> Result<Transaction<'static, Postgres>, StoreError> {
        let mut transaction = self.begin_write().await?;
        sqlx::query("LOCK TABLE markets, events IN SHARE ROW EXCLUSIVE MODE")
            .execute(&mut *transaction)
            .await?;
        Ok(transaction)
    }

    async fn after_catalog_write(&self) {}

    fn bulk_state(&self) -> &crate::bulk::BulkState {
        &self.bulk_state
    }

    async fn defer_indexes(connection: &mut sqlx::PgConnection) -> Result<(), StoreError> {
        deferred::defer(connection).await
    }

    async fn build_deferred(connection: &mut sqlx::PgConnection) -> Result<(), StoreError> {
        deferred::build(connection).await
    }
}

crate::backend::store_impls!(PgStore);

/// A `tsquery` of `words`, each matching as the prefix of a lexeme, joined by `operator`
/// (`&` for all of them, `|` for any). Cast with `::tsquery`, which takes lexemes as they are
/// (no parser, no stemming); the words are lower-case ASCII letters and digits (see
/// [`SearchWords`]), so quoting them cannot break out of the syntax.
fn prefix_query(words: &SearchWords, operator: &str) -> String {
    words.joined(|word| format!("'{word}':*"), operator)
}
