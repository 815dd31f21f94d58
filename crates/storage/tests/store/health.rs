//! A store tells whether it can write: yes when it can, and `ReadOnly` (not an internal error)
//! when the database answers but refuses writes, on both backends.

use marketlens_storage::StoreError;
use marketlens_testkit::TestDatabase;
use sqlx::Connection;

use crate::backends;

#[tokio::test]
async fn a_writable_store_says_so() {
    for backend in backends().await {
        let checked = backend.store.check_writable().await;
        assert!(checked.is_ok(), "{}: {checked:?}", backend.name);
    }
}

/// A SQLite file opened read-only (`?mode=ro`) answers reads and refuses writes.
#[tokio::test]
async fn a_sqlite_store_opened_read_only_says_it_cannot_write() {
    let database = TestDatabase::sqlite();
    database.open().await;
    let store = marketlens_storage::open(&format!("{}?mode=ro", database.url))
        .await
        .unwrap();
    assert_eq!(store.catalog_counts().await.unwrap().events, 0, "it reads");
    let checked = store.check_writable().await;
    assert!(matches!(checked, Err(StoreError::ReadOnly(_))), "{checked:?}");
}

/// A PostgreSQL store whose new sessions are read-only (`default_transaction_read_only`, as a
/// standby's are) says it cannot write once its pool reconnects. A database of its own, since
/// the setting is per database (or role), not per schema.
#[tokio::test]
async fn a_postgres_store_whose_sessions_turn_read_only_says_it_cannot_write() {
    let Ok(server_url) = std::env::var(marketlens_testkit::DATABASE_URL_VARIABLE) else {
        eprintln!("note: the PostgreSQL half of this test is skipped");
        return;
    };
    let name = format!("marketlens_read_only_{}", uuid::Uuid::new_v4().simple());
    let mut admin = sqlx::postgres::PgConnection::connect(&server_url).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{name}\"")))
        .execute(&mut admin)
        .await
        .unwrap();
    let mut url = url::Url::parse(&server_url).unwrap();
    url.set_path(&name);
    let store = marketlens_storage::open(url.as_str()).await.unwrap();
    let before = store.check_writable().await;

    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER DATABASE \"{name}\" SET default_transaction_read_only = on"
    )))
    .execute(&mut admin)
    .await
    .unwrap();
    // The store's sessions started before the change stay writable: end them, as a failover
    // to a standby would.
    sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1")
        .bind(&name)
        .execute(&mut admin)
        .await
        .unwrap();
    let mut after = store.check_writable().await;
    // The first call may still meet a connection the pool has not yet found ended.
    if matches!(after, Err(StoreError::Unavailable(_) | StoreError::Internal(_))) {
        after = store.check_writable().await;
    }
    let counted = store.catalog_counts().await;
    drop(store);
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE \"{name}\" WITH (FORCE)")))
        .execute(&mut admin)
        .await
        .unwrap();
    assert!(before.is_ok(), "{before:?}");
    assert!(matches!(after, Err(StoreError::ReadOnly(_))), "{after:?}");
    assert!(counted.is_ok(), "it still reads: {counted:?}");
}
