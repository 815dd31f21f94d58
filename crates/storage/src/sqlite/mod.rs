//! The embedded default store: one SQLite file, no other process needed.
//!
//! Writes go through a pool of exactly one connection, so writers in this process queue
//! instead of contending for SQLite's single write lock; every write transaction starts
//! with `BEGIN IMMEDIATE`, so a writer in another process (an operator's command while the
//! server runs) waits for the lock (busy timeout) instead of failing half-way. Reads use a
//! separate pool and, in WAL mode, never wait for writers.

mod binds;
mod rows;

use marketlens_domain::time::{Timestamp, to_epoch_millis};
use sqlx::sqlite::Sqlite;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{ConnectOptions, QueryBuilder, Transaction};
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use uuid::Uuid;

use crate::backend::Backend;
use crate::{SearchWords, StoreError};

/// How long a statement waits for another process's write lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a call waits for a free connection before the store reports itself unavailable.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);
const READ_CONNECTIONS: u32 = 8;
/// Rows a reader's worker thread may hand over ahead of the task reading them: more than a
/// page of history holds (1,000 bars). sqlx's default of 50 made a longer read a relay, the
/// worker blocked on the full channel and woken for each row the reader took: a thread switch
/// per row, which put about a third of the history call's samples in the kernel
/// (bench/profile.sh, 2026-11-28).
const READER_ROW_BUFFER: usize = 1024;

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
                // A connection to a file does not go away while idle, and sqlx pings it again
                // as it is released: a ping before each transaction too cost every batch of
                // charges one more round trip to the driver's worker thread.
                .test_before_acquire(false)
                .connect_with(options.clone())
                .await?;
            sqlx::migrate!("./migrations/sqlite").run(&writer).await?;
            build_deferred_left_by_a_killed_load(&writer).await?;
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

/// Builds back what a bulk load that never finished deferred, and moves the history it staged
/// (see `crate::bulk`).
async fn build_deferred_left_by_a_killed_load(writer: &SqlitePool) -> Result<(), StoreError> {
    let (deferred, staged): (i64, bool) =
        sqlx::query_as("SELECT (SELECT COUNT(*) FROM deferred_schema), EXISTS (SELECT 1 FROM price_history_staged)")
            .fetch_one(writer)
            .await?;
    if deferred == 0 && !staged {
        return Ok(());
    }
    tracing::info!(
        deferred,
        staged,
        "a bulk load did not finish: building its indexes and history"
    );
    let mut transaction = crate::backend::begin_on(writer, "BEGIN IMMEDIATE").await?;
    SqliteStore::build_deferred(&mut transaction).await?;
    transaction.commit().await?;
    Ok(())
}

/// The writer's page cache, in KiB (SQLite's negative `cache_size`): 64 MiB.
const WRITER_CACHE_KIB: &str = "-65536";
/// The writer's page cache during a bulk load, 512 MiB: its transactions insert in random key
/// order into the id, event and history B-trees, whose pages a 64 MiB cache re-read from the
/// file again and again past a few hundred thousand markets.
const BULK_LOAD_CACHE_KIB: &str = "-524288";

/// The indexes and triggers a bulk load defers: every one on the markets, the events and the
/// history but `markets_by_event`, which the upsert reads to refresh events' figures (unique
/// constraints stay: their indexes have no `sql`). The events' are updated twice per event
/// in a load (its insert, then its figures), in random key order.
const DEFERRED: &str = "SELECT name, type, sql FROM sqlite_master \
    WHERE tbl_name IN ('markets', 'events', 'price_history') AND type IN ('index', 'trigger') \
    AND sql IS NOT NULL AND name <> 'markets_by_event'";

#[derive(Debug, Clone)]
pub struct SqliteStore {
    writer: SqlitePool,
    reader: SqlitePool,
    /// The health probe's connection (`HealthStore::ping`).
    prober: SqlitePool,
    /// Set by the checkpointer when a restart was due but the writer kept it out: the writer
    /// then restarts the WAL itself after its next catalogue write ([`SqliteStore::upsert`]).
    restart_wanted: Arc<AtomicBool>,
    /// Keeps the checkpointer running while any clone of the store lives.
    _alive: Arc<()>,
    bulk_state: crate::bulk::BulkState,
}

/// How often the WAL is copied back into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);
/// The WAL size, in pages, past which the WAL is started over: about 16 MiB.
const WAL_RESTART_PAGES: i64 = 4_096;
/// The longest a checkpoint waits for the writer or readers.
const CHECKPOINT_BUSY_TIMEOUT: Duration = Duration::from_millis(50);
/// How many pages a passive checkpoint may have left behind for a restart still to be cheap.
const RESTART_SLACK_PAGES: i64 = 256;

/// Copies the WAL back into the database file in the background, on a connection of its own.
/// The writer does not checkpoint (`wal_autocheckpoint = 0`): a checkpoint run by the commit
/// that crosses the threshold stalls that commit, and every call waiting on it, for as long
/// as copying takes (tens of milliseconds under load, measured as the charged calls' p99). A
/// passive checkpoint never blocks writers or readers; it copies what it can.
///
/// But a WAL is only started over when a checkpoint has copied all of it and no reader still
/// reads it, which passive checkpoints alone never see while commits and reads go on without
/// pause: a million-market import grew it past 5 GB, and 32 clients of charged calls by about
/// 47 MB a second. So once the WAL passes [`WAL_RESTART_PAGES`], and a passive checkpoint has
/// just copied (nearly) all of it, a restarting checkpoint follows: it holds writers back only
/// while it copies the few pages left and the readers move off the WAL, and the next commit
/// starts the WAL over (cut back to `journal_size_limit`). Waiting for a nearly complete copy
/// keeps that pause short: restarting a WAL that passive checkpoints had fallen behind on took
/// 40 ms at 256 MiB and 250 ms at 1 GiB, every call that charges waiting behind it.
///
/// A writer that commits large transaction after transaction (an import) keeps such a
/// restart out for good, so when one is turned away the checkpointer asks the writer to
/// restart the WAL itself, between two of its transactions.
async fn checkpoint_in_background(
    options: SqliteConnectOptions,
    restart_wanted: Arc<AtomicBool>,
    alive: std::sync::Weak<()>,
) {
    let mut connection = match options.connect().await {
        Ok(connection) => connection,
        Err(error) => {
            tracing::warn!(%error, "no background checkpoints: the WAL is checkpointed when the store closes");
            return;
        }
    };
    while alive.strong_count() > 0 {
        tokio::time::sleep(CHECKPOINT_EVERY).await;
        // One row: (busy, pages in the WAL, pages copied).
        let passive: Result<(i64, i64, i64), sqlx::Error> = sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&mut connection)
            .await;
        let restart = match passive {
            Ok((_, wal_pages, copied)) => wal_pages > WAL_RESTART_PAGES && copied + RESTART_SLACK_PAGES >= wal_pages,
            Err(error) => {
                tracing::debug!(%error, "a background checkpoint did not run");
                false
            }
        };
        if !restart {
            continue;
        }
        // The first column is 1 when the restart was turned away (SQLite reports no error).
        let restarted: Result<(i64, i64, i64), sqlx::Error> = sqlx::query_as("PRAGMA wal_checkpoint(RESTART)")
            .fetch_one(&mut connection)
            .await;
        match restarted {
            Ok((0, _, _)) => {}
            Ok(_) => restart_wanted.store(true, Ordering::Relaxed),
            Err(error) => tracing::debug!(%error, "a restarting checkpoint did not run"),
        }
    }
}

impl SqliteStore {
    /// Restarts the WAL on the writer's own connection, between two transactions, when the
    /// checkpointer asked for it (see `checkpoint_in_background`). It waits only for readers.
    async fn restart_wal_if_wanted(&self) {
        if self.restart_wanted.swap(false, Ordering::Relaxed)
            && let Err(error) = sqlx::query("PRAGMA wal_checkpoint(RESTART)")
                .execute(&self.writer)
                .await
        {
            tracing::debug!(%error, "the writer could not restart the WAL");
        }
    }

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
            // A small page cache: every commit (a batch of charges, under load several a
            // second) makes every reader drop its cache, so a large one is mostly emptied and
            // refilled; the operating system's file cache keeps the pages warm instead.
            .pragma("cache_size", "-2048");
        let in_memory = database_url.contains(":memory:") || database_url.contains("mode=memory");
        if !in_memory {
            create_private(options.get_filename())?;
        }
        // The writer gets 64 MiB, so that a large upsert does not spill pages mid-transaction,
        // and leaves checkpoints to `checkpoint_in_background`.
        let writer = connect_writer(
            &options
                .clone()
                .pragma("cache_size", WRITER_CACHE_KIB)
                .pragma("wal_autocheckpoint", "0")
                // Once checkpointed, the WAL file is cut back to 64 MiB when it is reused.
                .pragma("journal_size_limit", "67108864")
                // Large sorts (building a bulk load's deferred indexes, moving its staged
                // history) sort runs on helper threads, one per further core.
                .pragma("threads", sort_threads().to_string()),
        )
        .await?;
        let reader = SqlitePoolOptions::new()
            .max_connections(READ_CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options.clone().read_only(true).row_buffer_size(READER_ROW_BUFFER))
            .await?;
        let prober = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_lazy_with(options.clone().read_only(true));
        let alive = Arc::new(());
        let restart_wanted = Arc::new(AtomicBool::new(false));
        tokio::spawn(checkpoint_in_background(
            // A restarting checkpoint holds writers back while it waits for readers: it waits
            // briefly, and gives up (to try again a second later) rather than stall the charges
            // behind a long read. Its waits are by design, not slow statements.
            options
                .pragma("cache_size", "-2048")
                .busy_timeout(CHECKPOINT_BUSY_TIMEOUT)
                .disable_statement_logging(),
            restart_wanted.clone(),
            Arc::downgrade(&alive),
        ));
        Ok(SqliteStore {
            writer,
            reader,
            prober,
            restart_wanted,
            _alive: alive,
            bulk_state: Default::default(),
        })
    }
}

impl Backend for SqliteStore {
    type Db = Sqlite;
    type Id = String;
    type Time = i64;

    const BYTE_ORDER: &'static str = "";
    const STAGED_HISTORY: Option<&'static str> = Some("price_history_staged");
    const CONTINUE_LEDGER_IDS: Option<&'static str> = None;
    const FOR_UPDATE: &'static str = "";

    fn id(id: Uuid) -> String {
        id.to_string()
    }

    const ANY_WORDS: &'static str = "FROM markets_fts f JOIN markets m ON m.seq = f.rowid \
        WHERE markets_fts MATCH $1 ORDER BY bm25(markets_fts), m.id LIMIT $2";

    fn push_all_words(builder: &mut QueryBuilder<Sqlite>, words: &SearchWords) {
        builder
            .push("m.seq IN (SELECT rowid FROM markets_fts WHERE markets_fts MATCH ")
            .push_bind(prefix_query(words, " "))
            .push(")");
    }

    fn any_words(words: &SearchWords) -> String {
        prefix_query(words, " OR ")
    }

    fn push_ids(builder: &mut QueryBuilder<Sqlite>, ids: &[Uuid]) {
        builder.push(" IN (");
        let mut separated = builder.separated(", ");
        for id in ids {
            separated.push_bind(id.to_string());
        }
        builder.push(")");
    }

    fn push_history_ids(builder: &mut QueryBuilder<Sqlite>, ids: &[Uuid]) {
        builder.push(" IN (");
        let mut separated = builder.separated(", ");
        for id in ids {
            separated.push_bind(*id);
        }
        builder.push(")");
    }

    fn time(time: Timestamp) -> i64 {
        to_epoch_millis(time)
    }

    fn reader(&self) -> &SqlitePool {
        &self.reader
    }

    fn prober(&self) -> &SqlitePool {
        &self.prober
    }

    fn writer(&self) -> &SqlitePool {
        &self.writer
    }

    async fn begin_write(&self) -> Result<Transaction<'static, Sqlite>, StoreError> {
        crate::backend::begin_on(&self.writer, "BEGIN IMMEDIATE").await
    }

    async fn begin_catalog_write(&self) -> Result<Transaction<'static, Sqlite>, StoreError> {
        self.begin_write().await
    }

    async fn after_catalog_write(&self) {
        self.restart_wal_if_wanted().await;
    }

    fn bulk_state(&self) -> &crate::bulk::BulkState {
        &self.bulk_state
    }

    async fn defer_indexes(connection: &mut sqlx::SqliteConnection) -> Result<(), StoreError> {
        let deferred: Vec<(String, String)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "INSERT INTO deferred_schema (name, type, sql) {DEFERRED} RETURNING name, type"
        )))
        .fetch_all(&mut *connection)
        .await?;
        for (name, kind) in deferred {
            // Names and types read from sqlite_master, not from input.
            sqlx::query(sqlx::AssertSqlSafe(format!("DROP {kind} \"{name}\"")))
                .execute(&mut *connection)
                .await?;
        }
        set_cache(connection, BULK_LOAD_CACHE_KIB).await
    }

    async fn build_deferred(connection: &mut sqlx::SqliteConnection) -> Result<(), StoreError> {
        // The staged history first, even when another opening of the store built the indexes
        // while the load went on staging (into the history's key alone: its age index is
        // deferred too).
        crate::history::HistoryWriter::unstage_bars(&mut Statements(connection)).await?;
        // Indexes, then the full-text index from the markets as they are, then the triggers
        // that keep it in step from now on.
        let deferred: Vec<(String, String)> =
            sqlx::query_as("SELECT type, sql FROM deferred_schema ORDER BY type = 'trigger', name")
                .fetch_all(&mut *connection)
                .await?;
        if deferred.is_empty() {
            // Another opening of the store built them already: the cache goes back all the same.
            return set_cache(connection, WRITER_CACHE_KIB).await;
        }
        let mut rebuilt = false;
        for (kind, sql) in deferred {
            if kind == "trigger" && !rebuilt {
                sqlx::query("INSERT INTO markets_fts (markets_fts) VALUES ('rebuild')")
                    .execute(&mut *connection)
                    .await?;
                rebuilt = true;
            }
            sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&mut *connection).await?;
        }
        sqlx::query("DELETE FROM deferred_schema")
            .execute(&mut *connection)
            .await?;
        set_cache(connection, WRITER_CACHE_KIB).await
    }
}

crate::backend::store_impls!(SqliteStore);

/// Helper threads for the writer's sorts: one per core beyond the first, at most 4.
fn sort_threads() -> usize {
    std::thread::available_parallelism().map_or(0, |cores| (cores.get() - 1).min(4))
}

/// Sets the page cache of the writer's `connection` to `kib` ([`WRITER_CACHE_KIB`]).
async fn set_cache(connection: &mut sqlx::SqliteConnection, kib: &str) -> Result<(), StoreError> {
    sqlx::query(sqlx::AssertSqlSafe(format!("PRAGMA cache_size = {kib}")))
        .execute(connection)
        .await?;
    Ok(())
}

/// An FTS5 query of `words`, each matching as the prefix of a word, joined by `operator`
/// (`" "` for all of them, `" OR "` for any). The words are lower-case ASCII letters and
/// digits (see [`SearchWords`]), so quoting them cannot break out of the query syntax.
fn prefix_query(words: &SearchWords, operator: &str) -> String {
    words.joined(|word| format!("\"{word}\"*"), operator)
}

/// Creates a new store file readable and writable by its owner alone (0600), before SQLite
/// opens it: SQLite would create it as the umask allows (usually readable by every user of
/// the machine), and gives its WAL and shared-memory files the mode of the database file. An
/// existing file is left as it is (its mode is the operator's choice).
///
/// A path that cannot be created (its folder is missing, or not writable) is refused here with
/// one error naming it: SQLite would only say "unable to open database file", and opening
/// would retry it as if it had raced another process.
fn create_private(path: &Path) -> Result<(), StoreError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => {
            let folder = match path.parent() {
                Some(folder) if !folder.as_os_str().is_empty() => folder,
                _ => Path::new("."),
            };
            let why = if error.kind() == std::io::ErrorKind::NotFound {
                format!("its folder {} does not exist", folder.display())
            } else {
                error.to_string()
            };
            Err(StoreError::Invalid(format!(
                "cannot create the SQLite store {}: {why}",
                path.display()
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use sqlx::Row;
    use sqlx::sqlite::SqlitePoolOptions;

    /// A new store file, and the WAL and shared-memory files beside it, are the owner's alone.
    #[cfg(unix)]
    #[tokio::test]
    async fn a_new_store_file_is_readable_by_its_owner_alone() {
        use std::os::unix::fs::PermissionsExt;
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("store.db");
        let store = super::SqliteStore::open(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        for file in ["store.db", "store.db-wal", "store.db-shm"] {
            let mode = std::fs::metadata(directory.path().join(file))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "{file} is open to others: {mode:o}");
        }
        drop(store);
    }

    /// A store of the two-phase era: pending, settled and refunded charges. The one-step
    /// migration gives back what was pending, drops what cancels out, and keeps the books.
    #[tokio::test]
    async fn the_one_step_migration_keeps_the_books() {
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        for migration in [
            include_str!("../../migrations/sqlite/0001_catalog.sql"),
            include_str!("../../migrations/sqlite/0002_accounts.sql"),
            include_str!("../../migrations/sqlite/0003_sync_runs.sql"),
        ] {
            sqlx::raw_sql(sqlx::AssertSqlSafe(migration))
                .execute(&pool)
                .await
                .unwrap();
        }
        // 20 purchased; charges of 5 (settled), 1 (refunded, with its refund) and 2 (pending):
        // used 7, remaining 13 before the migration.
        sqlx::raw_sql(
            "INSERT INTO accounts (id, tier, credits_remaining, credits_purchased, credits_used, created_at) \
                VALUES ('a', 'free', 13, 20, 7, 0); \
             INSERT INTO ledger (id, account_id, kind, credits, created_at) VALUES (1, 'a', 'credit', 20, 0); \
             INSERT INTO ledger (id, account_id, kind, operation, credits, state, created_at) VALUES \
                (2, 'a', 'charge', 'explain', 5, 'settled', 1), \
                (3, 'a', 'charge', 'getMarket', 1, 'refunded', 2), \
                (5, 'a', 'charge', 'listMarkets', 2, 'pending', 3); \
             INSERT INTO ledger (id, account_id, kind, operation, credits, refund_of, created_at) VALUES \
                (4, 'a', 'refund', 'getMarket', 1, 3, 2);",
        )
        .execute(&pool)
        .await
        .unwrap();
        sqlx::raw_sql(include_str!("../../migrations/sqlite/0004_one_step_charges.sql"))
            .execute(&pool)
            .await
            .unwrap();
        let account = sqlx::query("SELECT credits_remaining, credits_purchased, credits_used FROM accounts")
            .fetch_one(&pool)
            .await
            .unwrap();
        let balance: (i64, i64, i64) = (
            account.get("credits_remaining"),
            account.get("credits_purchased"),
            account.get("credits_used"),
        );
        assert_eq!(balance, (15, 20, 5));
        let lines: Vec<(i64, String, i64)> = sqlx::query_as("SELECT id, kind, credits FROM ledger ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_eq!(lines, [(1, "credit".to_owned(), 20), (2, "charge".to_owned(), 5)]);
        let next: i64 = sqlx::query_scalar(
            "INSERT INTO ledger (account_id, kind, credits, created_at) VALUES ('a', 'credit', 1, 9) RETURNING id",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        assert!(next > 5, "ids are never reused: {next}");
    }
}
