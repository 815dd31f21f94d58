//! The embedded default store: one SQLite file, no other process needed.
//!
//! Writes go through a pool of exactly one connection, so writers in this process queue
//! instead of contending for SQLite's single write lock; every write transaction starts
//! with `BEGIN IMMEDIATE`, so a writer in another process (an operator's command while the
//! server runs) waits for the lock (busy timeout) instead of failing half-way. Reads use a
//! separate pool and, in WAL mode, never wait for writers.

mod accounts;
mod catalog;
mod rows;
mod sync_runs;
mod upsert;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use std::str::FromStr;
use std::time::Duration;

use crate::StoreError;

/// How long a statement waits for another process's write lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a call waits for a free connection before the store reports itself unavailable.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);
const READ_CONNECTIONS: u32 = 8;

/// How often opening a new store is retried after losing a race to another process.
const OPEN_ATTEMPTS: u32 = 8;

/// Connects the writer and applies the migrations. Two processes opening a new store at once
/// (a server and an operator's command) race twice: switching the new file to WAL answers
/// "database is locked" without waiting, and both try the first migration, which SQLite gives
/// the migrator no lock for. Neither race leaves anything half-done (the journal switch is
/// atomic and each migration is one transaction), so the loser retries and finds the work done.
async fn connect_writer(options: &SqliteConnectOptions) -> Result<SqlitePool, StoreError> {
    let mut attempt = 1;
    loop {
        let connected = async {
            let writer = SqlitePoolOptions::new()
                .max_connections(1)
                .acquire_timeout(ACQUIRE_TIMEOUT)
                .connect_with(options.clone())
                .await?;
            sqlx::migrate!("./migrations/sqlite").run(&writer).await?;
            Ok::<_, StoreError>(writer)
        };
        match connected.await {
            Ok(writer) => return Ok(writer),
            Err(error) if attempt < OPEN_ATTEMPTS => {
                tracing::info!(%error, attempt, "opening the store raced another process; retrying");
                tokio::time::sleep(Duration::from_millis(50 * u64::from(attempt))).await;
                attempt += 1;
            }
            Err(error) => return Err(error),
        }
    }
}

#[derive(Debug, Clone)]
pub struct SqliteStore {
    writer: SqlitePool,
    reader: SqlitePool,
}

impl SqliteStore {
    /// Opens `sqlite://PATH`, creating the file if needed, and applies the migrations.
    pub async fn open(database_url: &str) -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::from_str(database_url)
            .map_err(|error| StoreError::Invalid(format!("bad SQLite URL {database_url:?}: {error}")))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // WAL with NORMAL survives a crash of the process; only a power loss can lose the
            // last commits, and then whole transactions, never half of one.
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(BUSY_TIMEOUT)
            .foreign_keys(true)
            .pragma("temp_store", "memory")
            // 16 MiB of page cache per connection (SQLite's default is 2 MiB).
            .pragma("cache_size", "-16384");
        // The writer gets 64 MiB, so that a large upsert does not spill pages mid-transaction.
        let writer = connect_writer(&options.clone().pragma("cache_size", "-65536")).await?;
        let reader = SqlitePoolOptions::new()
            .max_connections(READ_CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options.read_only(true))
            .await?;
        Ok(SqliteStore { writer, reader })
    }
}
