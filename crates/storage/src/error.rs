//! The storage layer's one error type. The HTTP layer maps it once: `Unavailable` to 503,
//! `NotFound` and `Invalid` to client errors where a caller asked for them, `Internal` to a
//! logged 500 with no details.

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database cannot be reached or is too busy to answer in time.
    #[error("storage unavailable: {0}")]
    Unavailable(String),
    /// A named record does not exist (an account, a key).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The database answers but refuses writes: a SQLite file opened read-only, a PostgreSQL
    /// session or server whose transactions are read-only.
    #[error("the store is read-only: {0}")]
    ReadOnly(String),
    /// The request cannot be carried out as asked (a bad URL, a negative amount).
    #[error("{0}")]
    Invalid(String),
    /// Anything else: a bug or a corrupt database. Logged, never shown to users.
    #[error("storage error: {0}")]
    Internal(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> Self {
        match &error {
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::WorkerCrashed => StoreError::Unavailable(error.to_string()),
            sqlx::Error::Database(database_error) if is_read_only(database_error.as_ref()) => {
                StoreError::ReadOnly(error.to_string())
            }
            sqlx::Error::Database(database_error) if is_away(database_error.as_ref()) => {
                StoreError::Unavailable(error.to_string())
            }
            _ => StoreError::Internal(error.to_string()),
        }
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(error: sqlx::migrate::MigrateError) -> Self {
        StoreError::Internal(format!("migration failed: {error}"))
    }
}

/// Whether the database failed for want of something outside the request, which comes back
/// by itself or by an operator's hand, rather than for the request itself: SQLite's "database
/// is locked/busy" (5, 6: another process holds the write lock for longer than the busy
/// timeout), disk I/O errors (10) and a full disk (13), each with its extended forms;
/// PostgreSQL's connection exceptions (class 08), insufficient resources (class 53: disk full,
/// out of memory, too many connections) and operator intervention (class 57: shutting down,
/// not yet accepting connections), apart from a cancelled statement (57014).
fn is_away(error: &dyn sqlx::error::DatabaseError) -> bool {
    let Some(code) = error.code() else {
        return false;
    };
    if error.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
        code.parse::<i64>()
            .is_ok_and(|code| matches!(code & 0xff, 5 | 6 | 10 | 13))
    } else {
        (code.starts_with("08") || code.starts_with("53") || code.starts_with("57")) && code != "57014"
    }
}

/// Whether the database refused a write because it is read-only: SQLite's `SQLITE_READONLY`
/// (8, and its extended codes), PostgreSQL's `read_only_sql_transaction` (25006).
fn is_read_only(error: &dyn sqlx::error::DatabaseError) -> bool {
    let code = error.code();
    if error.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
        code.and_then(|code| code.parse::<i64>().ok())
            .is_some_and(|code| code & 0xff == 8)
    } else {
        code.as_deref() == Some("25006")
    }
}
