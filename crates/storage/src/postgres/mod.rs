//! The scale-out store: PostgreSQL (or any engine that speaks its protocol and SQL), shared by
//! any number of stateless server nodes.
//!
//! Every write is one transaction; balances are changed only under `SELECT ... FOR UPDATE` of
//! their account rows, taken in id order, so that nodes charging one account at once queue on
//! its row instead of overspending it. Migrations run under PostgreSQL's advisory lock (sqlx
//! takes it), so nodes starting together apply each migration once.

mod accounts;
mod catalog;
mod history;
mod news;
mod rows;
mod sync_runs;
mod transfer;
mod upsert;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use std::str::FromStr;
use std::time::Duration;

use crate::StoreError;

/// How long a call waits for a free connection before the store reports itself unavailable.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections per node. A node's requests are served from memory or by short queries; more
/// connections than cores on the database server only queue there instead.
const MAX_CONNECTIONS: u32 = 16;

#[derive(Debug, Clone)]
pub struct PgStore {
    pool: PgPool,
}

impl PgStore {
    /// Connects to `postgres://...` and applies the migrations.
    pub async fn open(database_url: &str) -> Result<PgStore, StoreError> {
        let options = PgConnectOptions::from_str(database_url)
            .map_err(|error| StoreError::Invalid(format!("bad PostgreSQL URL: {error}")))?;
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        Ok(PgStore { pool })
    }
}
