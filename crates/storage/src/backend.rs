//! The seam between the SQL, written once per store concern, and the two databases: what truly
//! differs between SQLite and PostgreSQL, and nothing else.
//!
//! Each concern's module (`accounts`, `catalog`, `health`, `history`, `idempotency`, `news`, `sync_runs`,
//! `transfer`)
//! writes its statements once, with `$N` placeholders (sqlx's SQLite driver binds `$N` by
//! number, as PostgreSQL does), inside a `macro_rules!` that [`store_impls!`] instantiates for
//! each backend's store type. A macro rather than code generic over `sqlx::Database`: generic
//! code needs a bound for every type it binds or reads (`i64: Encode<'q, DB> + Type<DB>`,
//! `usize: ColumnIndex<DB::Row>`, executors, argument buffers), repeated on every impl and
//! helper because Rust does not carry such bounds along; the macro compiles the same text
//! against each concrete driver, so each query is type-checked per backend with no bound at all.
//! What cannot be the same text is a method of [`Backend`]; and how many rows are written at
//! once (multi-row `INSERT`s on SQLite, `COPY` on PostgreSQL) is each backend's implementation
//! of `crate::table_rows::RowWriter` on its `Statements`.

use marketlens_domain::time::Timestamp;
use sqlx::pool::PoolConnection;
use sqlx::{Connection, Database, Pool, QueryBuilder, SqlSafeStr, Transaction};
use uuid::Uuid;

use crate::{SearchWords, StoreError};

/// What differs between the backends, for the SQL written once.
pub(crate) trait Backend {
    type Db: Database;
    /// A catalogue or account id as the backend's columns keep it (text on SQLite, `UUID` on
    /// PostgreSQL). Price history keeps [`Uuid`] itself on both (a 16-byte blob on SQLite).
    type Id;
    /// A time as the backend's columns keep it (epoch milliseconds on SQLite, `TIMESTAMPTZ`).
    type Time;

    /// The collation, after a text expression, that orders text by its bytes (SQLite's default;
    /// PostgreSQL's default follows the locale).
    const BYTE_ORDER: &'static str;

    /// The statement that makes new ledger lines continue after lines copied in with their
    /// ids, where the backend does not do so itself (SQLite's AUTOINCREMENT does).
    const CONTINUE_LEDGER_IDS: Option<&'static str>;

    /// The table where a bulk load appends the first bars of the markets it writes, to be
    /// moved into `price_history` in key order once (see `crate::bulk`), on the backend whose
    /// history's random-order inserts cost a bulk load most of its time (SQLite).
    const STAGED_HISTORY: Option<&'static str>;

    /// What follows `SELECT ... FOR UPDATE` would, on the backend that locks rows it reads.
    const FOR_UPDATE: &'static str;

    /// The rest of a `SELECT` of markets (alias `m`) after its columns: those holding any of
    /// the words bound as `$1` ([`Backend::any_words`]), best first, at most `$2`.
    const ANY_WORDS: &'static str;

    fn id(id: Uuid) -> Self::Id;

    /// Pushes a condition that market `m` holds every one of `words`, each as the prefix of
    /// one of its question's words.
    fn push_all_words(builder: &mut QueryBuilder<Self::Db>, words: &SearchWords);

    /// The search query of [`Backend::ANY_WORDS`].
    fn any_words(words: &SearchWords) -> String;

    /// Pushes a condition on the column before it: that it is one of `ids` (catalogue and
    /// account encoding), as `IN (...)` or `= ANY(...)`.
    fn push_ids(builder: &mut QueryBuilder<Self::Db>, ids: &[Uuid]);

    /// [`Backend::push_ids`] for price history's market ids, kept as [`Uuid`] on both.
    fn push_history_ids(builder: &mut QueryBuilder<Self::Db>, ids: &[Uuid]);

    fn time(time: Timestamp) -> Self::Time;

    /// The pool reads go to.
    fn reader(&self) -> &Pool<Self::Db>;

    /// The pool writes go to.
    fn writer(&self) -> &Pool<Self::Db>;

    /// The health probe's own connection (one, made when first used), apart from the calls'.
    fn prober(&self) -> &Pool<Self::Db>;

    /// A transaction that writes accounts, keys, news or sync records, holding what keeps
    /// concurrent writers from deciding against the same rows (SQLite: the database's write
    /// lock, taken at once; PostgreSQL: row locks taken by its statements).
    async fn begin_write(&self) -> Result<Transaction<'static, Self::Db>, StoreError>;

    /// A transaction that writes the catalogue, which one writer at a time may do: an upsert
    /// reads versions and then writes, and two interleaving could each keep an older record.
    async fn begin_catalog_write(&self) -> Result<Transaction<'static, Self::Db>, StoreError>;

    /// Called after a catalogue write commits (SQLite restarts its WAL here if asked to).
    async fn after_catalog_write(&self);

    /// The store's bulk load, if one is under way (see `crate::bulk`).
    fn bulk_state(&self) -> &crate::bulk::BulkState;

    /// Drops what a bulk load builds after it, recording how to build it back, in the
    /// transaction of `connection`.
    async fn defer_indexes(connection: &mut <Self::Db as Database>::Connection) -> Result<(), StoreError>;

    /// Builds back what [`Backend::defer_indexes`] dropped, if anything, in the transaction of
    /// `connection`.
    async fn build_deferred(connection: &mut <Self::Db as Database>::Connection) -> Result<(), StoreError>;
}

/// A write transaction on a connection of `pool`, begun with `begin` (`BEGIN`, or SQLite's
/// `BEGIN IMMEDIATE`). A connection whose last transaction failed at its `COMMIT` (a full
/// disk) comes back to the pool still counted as inside it, and sqlx then refuses every
/// transaction on it ("attempted to call begin_with at non-zero transaction depth"), for as
/// long as the process runs: such a connection is dropped and replaced, so that the store
/// writes again once the cause is gone.
pub(crate) async fn begin_on<DB: Database>(
    pool: &Pool<DB>,
    begin: &'static str,
) -> Result<Transaction<'static, DB>, StoreError> {
    let mut connection: PoolConnection<DB> = pool.acquire().await?;
    if connection.is_in_transaction() {
        tracing::warn!("a connection left inside a failed transaction is replaced");
        drop(connection.detach());
        connection = pool.acquire().await?;
    }
    Ok(Transaction::begin(connection, Some(begin.into_sql_str())).await?)
}

/// Implements every store trait for `$store`, a type implementing [`Backend`], from the SQL
/// each concern's module writes once. It also defines, in the backend's module, `Connection`
/// (the driver's connection type) and `Statements`, one write transaction's connection, which
/// the shared write steps (`upsert`, `history`, `accounts::charge_batch`) run their statements
/// on through the backend's implementations of their writer traits.
macro_rules! store_impls {
    ($store:ty) => {
        type Connection = <<$store as $crate::backend::Backend>::Db as sqlx::Database>::Connection;

        /// One write transaction's statements.
        pub(crate) struct Statements<'c>(pub &'c mut Connection);

        $crate::accounts::account_store_sql!($store);
        $crate::catalog::catalog_store_sql!($store);
        $crate::health::health_store_sql!($store);
        $crate::history::history_store_sql!($store);
        $crate::idempotency::idempotency_store_sql!($store);
        $crate::news::news_store_sql!($store);
        $crate::sync_runs::sync_store_sql!($store);
        $crate::transfer::transfer_store_sql!($store);
        $crate::upsert::catalog_writer_sql!($store);
    };
}
pub(crate) use store_impls;
