//! PostgreSQL's part of a bulk load (see `crate::bulk`): the indexes no upsert reads are
//! dropped before the load and built once after it.
//!
//! Building a B-tree from a sorted scan, or a GIN index from all of its entries at once, is
//! many times cheaper than keeping it in step with a million inserts in random key order. Kept
//! through the load: the keys and unique constraints (the upsert's `ON CONFLICT` and its reads
//! by id use them) and `markets_by_event` (the refresh of the events' figures reads it). Each
//! index's definition is copied into `deferred_schema` in the transaction that drops it, and
//! building them back is one transaction that empties it, which every opening of the store
//! also runs: a load cut short leaves a store whose indexes come back when it is next opened.

use sqlx::{PgConnection, PgPool};

use crate::StoreError;

/// The indexes a bulk load defers, with the statements that build them: every index of the
/// markets, the events and the history in the store's schema that backs no key or unique
/// constraint, but `markets_by_event`.
const DEFERRED: &str = "SELECT index_class.relname, 'index', pg_get_indexdef(index_class.oid) \
    FROM pg_index \
    JOIN pg_class index_class ON index_class.oid = pg_index.indexrelid \
    JOIN pg_class table_class ON table_class.oid = pg_index.indrelid \
    WHERE table_class.relnamespace = current_schema()::regnamespace \
    AND table_class.relname IN ('markets', 'events', 'price_history') \
    AND NOT pg_index.indisunique AND index_class.relname <> 'markets_by_event'";

/// Memory for each index build: a GIN index built in a few passes rather than dozens.
const BUILD_MEMORY: &str = "SET LOCAL maintenance_work_mem = '256MB'";

/// Drops the deferred indexes, recording them, in the transaction of `connection`.
pub(super) async fn defer(connection: &mut PgConnection) -> Result<(), StoreError> {
    let deferred: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "INSERT INTO deferred_schema (name, type, sql) {DEFERRED} RETURNING name"
    )))
    .fetch_all(&mut *connection)
    .await?;
    for name in deferred {
        // Names read from the catalogue, not from input.
        sqlx::query(sqlx::AssertSqlSafe(format!("DROP INDEX \"{name}\"")))
            .execute(&mut *connection)
            .await?;
    }
    Ok(())
}

/// Builds what [`defer`] dropped, if anything, in the transaction of `connection`, and gathers
/// the planner's statistics of the tables the load filled. Builders queue on the record's
/// lock: the first builds, the others find nothing left (a load's end and a node opening the
/// store at once).
pub(super) async fn build(connection: &mut PgConnection) -> Result<(), StoreError> {
    sqlx::query("LOCK TABLE deferred_schema IN EXCLUSIVE MODE")
        .execute(&mut *connection)
        .await?;
    let statements: Vec<String> = sqlx::query_scalar("SELECT sql FROM deferred_schema ORDER BY name")
        .fetch_all(&mut *connection)
        .await?;
    if statements.is_empty() {
        return Ok(());
    }
    sqlx::query(BUILD_MEMORY).execute(&mut *connection).await?;
    for statement in statements {
        sqlx::query(sqlx::AssertSqlSafe(statement))
            .execute(&mut *connection)
            .await?;
    }
    sqlx::query("DELETE FROM deferred_schema")
        .execute(&mut *connection)
        .await?;
    sqlx::query("ANALYZE markets, events, price_history")
        .execute(&mut *connection)
        .await?;
    Ok(())
}

/// Builds back what a bulk load that never finished deferred, when the store opens.
pub(super) async fn build_left_by_a_cut_load(pool: &PgPool) -> Result<(), StoreError> {
    let deferred: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM deferred_schema")
        .fetch_one(pool)
        .await?;
    if deferred == 0 {
        return Ok(());
    }
    tracing::info!(deferred, "a bulk load did not finish: building its indexes");
    let mut transaction = crate::backend::begin_on(pool, "BEGIN").await?;
    build(&mut transaction).await?;
    transaction.commit().await?;
    Ok(())
}
