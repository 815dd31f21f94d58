//! Stores made by earlier versions still open: their migration records are read as today's.

use chrono::TimeDelta;
use chrono::Utc;
use marketlens_testkit::TestDatabase;
use sqlx::PgPool;

/// Today's PostgreSQL migration files and the names the chain gave them before its numbers
/// were aligned with SQLite's (main before 2026-11-25). Their SQL, and so their checksums, is
/// unchanged.
const EARLIER_NAMES: [(&str, &str); 5] = [
    ("0005_leases.sql", "0004_leases.sql"),
    ("0008_catalog_revision.sql", "0005_catalog_revision.sql"),
    ("0009_news.sql", "0006_news.sql"),
    ("0010_change_revisions.sql", "0007_change_revisions.sql"),
    ("0011_history.sql", "0008_history.sql"),
];

/// The last file of the earlier numbering, as named today; a store migrated under that
/// numbering has not run the files added after it.
const LAST_EARLIER_FILE: &str = "0011_history.sql";

/// The versions of today's PostgreSQL migration files, in order.
fn todays_versions() -> Vec<i64> {
    let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/postgres")).unwrap();
    let mut versions: Vec<i64> = files
        .map(|file| {
            let name = file.unwrap().file_name().into_string().unwrap();
            name.split_once('_').unwrap().0.parse().unwrap()
        })
        .collect();
    versions.sort_unstable();
    versions
}

async fn recorded_versions(pool: &PgPool) -> Vec<i64> {
    sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version")
        .fetch_all(pool)
        .await
        .unwrap()
}

/// A store migrated under the earlier numbering opens, keeps what it holds, and has its
/// migrations recorded under today's numbers; opening it again changes nothing.
#[tokio::test]
async fn a_postgres_store_of_the_earlier_migration_numbers_opens_and_keeps_its_data() {
    let Some(database) = TestDatabase::postgres().await else {
        return;
    };
    let earlier = tempfile::tempdir().unwrap();
    let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/postgres")).unwrap();
    for file in files {
        let file = file.unwrap();
        let name = file.file_name().into_string().unwrap();
        if name.as_str() > LAST_EARLIER_FILE {
            continue;
        }
        let earlier_name = EARLIER_NAMES
            .iter()
            .find(|(today, _)| *today == name)
            .map_or(name.as_str(), |(_, earlier)| earlier);
        std::fs::copy(file.path(), earlier.path().join(earlier_name)).unwrap();
    }
    let pool = PgPool::connect(&database.url).await.unwrap();
    sqlx::migrate::Migrator::new(earlier.path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    assert_eq!(recorded_versions(&pool).await, [1, 2, 3, 4, 5, 6, 7, 8]);
    sqlx::query(
        "INSERT INTO leases (name, holder, expires_at) VALUES ('sync', 'earlier-node', now() + interval '1 hour')",
    )
    .execute(&pool)
    .await
    .unwrap();

    let store = database.open().await;
    assert_eq!(recorded_versions(&pool).await, todays_versions());
    let taken = store
        .acquire_lease("sync", "this-node", Utc::now(), TimeDelta::minutes(1))
        .await
        .unwrap();
    assert!(!taken, "the lease stored before the renumbering is still held");
    drop(store);
    database.open().await;
    assert_eq!(recorded_versions(&pool).await, todays_versions());
}
