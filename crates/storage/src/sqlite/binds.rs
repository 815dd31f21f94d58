//! SQLite's bulk writes ([`RowWriter`]): multi-row `INSERT`s whose values are bound
//! parameters. Each statement is a round trip to sqlx's worker thread, so rows go a few
//! thousand values per statement; SQLite has no faster path from outside its process.

use marketlens_domain::time::Timestamp;
use sqlx::QueryBuilder;
use sqlx::query_builder::Separated;
use sqlx::sqlite::Sqlite;
use uuid::Uuid;

use super::{SqliteStore, Statements};
use crate::StoreError;
use crate::backend::Backend;
use crate::table_rows::{RowWriter, TableRow, ValueSink};

/// Bound values per statement: a market's 35 columns make about 200 rows.
const VALUES_PER_STATEMENT: usize = 7_000;

/// A row's values bound as parameters of a `VALUES` row.
struct Binds<'b, 'qb>(&'b mut Separated<'qb, Sqlite, &'static str>);

impl ValueSink for Binds<'_, '_> {
    fn text(&mut self, value: &str) -> &mut Self {
        self.0.push_bind(value);
        self
    }

    fn optional_text(&mut self, value: Option<&str>) -> &mut Self {
        self.0.push_bind(value);
        self
    }

    fn real(&mut self, value: f64) -> &mut Self {
        self.0.push_bind(value);
        self
    }

    fn optional_real(&mut self, value: Option<f64>) -> &mut Self {
        self.0.push_bind(value);
        self
    }

    fn integer(&mut self, value: i64) -> &mut Self {
        self.0.push_bind(value);
        self
    }

    fn id(&mut self, value: Uuid) -> &mut Self {
        self.0.push_bind(SqliteStore::id(value));
        self
    }

    fn optional_id(&mut self, value: Option<Uuid>) -> &mut Self {
        self.0.push_bind(value.map(SqliteStore::id));
        self
    }

    fn history_id(&mut self, value: Uuid) -> &mut Self {
        self.0.push_bind(value);
        self
    }

    fn time(&mut self, value: Timestamp) -> &mut Self {
        self.0.push_bind(SqliteStore::time(value));
        self
    }

    fn optional_time(&mut self, value: Option<Timestamp>) -> &mut Self {
        self.0.push_bind(value.map(SqliteStore::time));
        self
    }

    fn json(&mut self, value: &str) -> &mut Self {
        self.text(value)
    }

    fn bytes(&mut self, value: &[u8]) -> &mut Self {
        self.0.push_bind(value);
        self
    }
}

impl Statements<'_> {
    /// `INSERT INTO table (columns) VALUES ...` of `rows`, `on_conflict` after each statement's
    /// rows.
    async fn insert_bound<R: TableRow>(
        &mut self,
        table: &str,
        rows: &[R],
        on_conflict: &str,
    ) -> Result<(), StoreError> {
        let columns = R::COLUMNS.split(',').count();
        for chunk in rows.chunks((VALUES_PER_STATEMENT / columns).max(1)) {
            let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(format!("INSERT INTO {table} ({}) ", R::COLUMNS));
            let mut failure = None;
            builder.push_values(chunk, |mut separated, row| {
                if let Err(error) = row.values(&mut Binds(&mut separated)) {
                    failure.get_or_insert(error);
                }
            });
            if let Some(error) = failure {
                return Err(error);
            }
            builder.push(on_conflict);
            builder.build().execute(&mut *self.0).await?;
        }
        Ok(())
    }
}

impl RowWriter for Statements<'_> {
    async fn insert_rows<R: TableRow>(&mut self, table: &str, rows: &[R]) -> Result<(), StoreError> {
        self.insert_bound(table, rows, "").await
    }

    async fn upsert_rows<R: TableRow>(&mut self, table: &str, rows: &[R], on_conflict: &str) -> Result<(), StoreError> {
        self.insert_bound(table, rows, on_conflict).await
    }
}
