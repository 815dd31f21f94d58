//! Test support: a fresh, isolated store on every backend the machine offers, so that one
//! suite runs against SQLite and PostgreSQL alike.
//!
//! - SQLite always: a file in a temporary directory.
//! - PostgreSQL when `MARKETLENS_TEST_DATABASE_URL` names a server (`scripts/test` and CI
//!   always set it): a schema of its own per test, dropped when the test ends, so tests run
//!   in parallel without seeing each other's rows.
//!
//! Without the variable, the PostgreSQL half is skipped with a note on stderr; a variable
//! that is set but names a server that does not answer fails the test.
//!
//! [`proxy::FaultProxy`] stands between a server under test and its PostgreSQL or Redis to
//! inject faults (gone, slow) without touching the machine's shared servers.

pub mod proxy;

use marketlens_storage::Store;
use std::sync::Arc;
use tempfile::TempDir;

/// Where the PostgreSQL tests run, if anywhere.
pub const DATABASE_URL_VARIABLE: &str = "MARKETLENS_TEST_DATABASE_URL";
/// Where the Redis tests run, if anywhere.
pub const REDIS_URL_VARIABLE: &str = "MARKETLENS_TEST_REDIS_URL";

/// A throw-away database: its URL, and what deletes it when dropped.
pub struct TestDatabase {
    pub backend: &'static str,
    pub url: String,
    _directory: Option<TempDir>,
    _schema: Option<Schema>,
}

/// A PostgreSQL schema that is dropped with its tables when this is dropped.
struct Schema {
    server_url: String,
    name: String,
}

impl Drop for Schema {
    fn drop(&mut self) {
        {
            let (server_url, schema) = (self.server_url.clone(), self.name.clone());
            // Drop runs inside the test's runtime, which may have one thread; the schema is
            // dropped from a thread and runtime of its own.
            let dropped = std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
                runtime.block_on(async {
                    let mut connection = sqlx::postgres::PgConnection::connect(&server_url).await?;
                    // The test's own connections may still be open (their pool closes them on
                    // the test's runtime, which this drop is blocking), some with a rollback
                    // not yet sent: end them, so that dropping the schema waits for nothing.
                    sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1")
                        .bind(&schema)
                        .execute(&mut connection)
                        .await?;
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"
                    )))
                    .execute(&mut connection)
                    .await?;
                    Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
                })
            })
            .join();
            if !matches!(dropped, Ok(Ok(()))) {
                eprintln!("note: could not drop the test schema {}", self.name);
            }
        }
    }
}

use sqlx::Connection;

impl TestDatabase {
    pub fn sqlite() -> TestDatabase {
        let directory = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", directory.path().join("test.db").display());
        TestDatabase {
            backend: "sqlite",
            url,
            _directory: Some(directory),
            _schema: None,
        }
    }

    /// A new empty schema on the test PostgreSQL server, or `None` when none is configured.
    pub async fn postgres() -> Option<TestDatabase> {
        let Ok(server_url) = std::env::var(DATABASE_URL_VARIABLE) else {
            eprintln!("note: {DATABASE_URL_VARIABLE} is not set: the PostgreSQL half of this test is skipped");
            return None;
        };
        let schema = format!("test_{}", uuid::Uuid::new_v4().simple());
        let mut connection = sqlx::postgres::PgConnection::connect(&server_url)
            .await
            .unwrap_or_else(|error| panic!("{DATABASE_URL_VARIABLE} is set but its server does not answer: {error}"));
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA \"{schema}\"")))
            .execute(&mut connection)
            .await
            .expect("a test schema");
        let separator = if server_url.contains('?') { '&' } else { '?' };
        // The schema's name doubles as the connections' application name, so that they can be
        // found and ended when the test is over.
        let url = format!("{server_url}{separator}options[search_path]={schema}&application_name={schema}");
        Some(TestDatabase {
            backend: "postgres",
            url,
            _directory: None,
            _schema: Some(Schema {
                server_url,
                name: schema,
            }),
        })
    }

    /// Every database this machine can test on: SQLite, and PostgreSQL when configured.
    pub async fn all() -> Vec<TestDatabase> {
        let mut databases = vec![TestDatabase::sqlite()];
        databases.extend(TestDatabase::postgres().await);
        databases
    }

    /// Opens (and migrates) the store.
    pub async fn open(&self) -> Arc<dyn Store> {
        marketlens_storage::open(&self.url)
            .await
            .unwrap_or_else(|error| panic!("the {} test store opens: {error}", self.backend))
    }
}

/// The Redis of the tests, or `None` (with a note) when none is configured.
pub fn redis_url() -> Option<String> {
    let url = std::env::var(REDIS_URL_VARIABLE).ok();
    if url.is_none() {
        eprintln!("note: {REDIS_URL_VARIABLE} is not set: this Redis test is skipped");
    }
    url
}
