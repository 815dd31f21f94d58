//! Whether the store answers, and whether it can still write. The server's probe
//! (`marketlens_api::store_health`) asks both in the background, so that calls learn the
//! store's health without waiting for it.
//!
//! Whether it answers is asked on a connection of the probe's own (`Backend::prober`), so that
//! a pool busy with calls does not pass for a store that does not answer.
//!
//! Whether it can still write. A database can answer every read and refuse every
//! write: a SQLite file opened read-only (`?mode=ro`, or a file that was not writable when it
//! was opened), a PostgreSQL session or server whose transactions are read-only
//! (`default_transaction_read_only`, a hot standby). Every charged call writes, so a node on
//! such a store cannot serve; readiness asks this to say so.
//!
//! The question is put to the database itself, not to file permissions: an open SQLite file
//! made read-only afterwards is still written through the connections that have it open, and
//! PostgreSQL's state is not visible from here at all.

use async_trait::async_trait;

use crate::StoreError;

#[async_trait]
pub trait HealthStore {
    /// Runs a trivial read on the probe's own connection: an error or a long wait says the
    /// database does not answer.
    async fn ping(&self) -> Result<(), StoreError>;

    /// Starts a write transaction, runs a write that changes nothing, and rolls it back:
    /// [`StoreError::ReadOnly`] when the database refuses writes. On SQLite it takes the write
    /// lock for a moment, so callers ask at most about once a second (`/readyz` is cached).
    async fn check_writable(&self) -> Result<(), StoreError>;
}

/// [`HealthStore`] for a [`Backend`](crate::backend::Backend) store.
macro_rules! health_store_sql {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl $crate::HealthStore for $store {
            async fn ping(&self) -> Result<(), $crate::StoreError> {
                sqlx::query("SELECT 1").execute(self.prober()).await?;
                Ok(())
            }

            async fn check_writable(&self) -> Result<(), $crate::StoreError> {
                // SQLite refuses `BEGIN IMMEDIATE` itself; PostgreSQL the delete, whatever
                // rows it would touch.
                let mut transaction = self.begin_write().await?;
                sqlx::query("DELETE FROM sync_runs WHERE 1 = 0")
                    .execute(&mut *transaction)
                    .await?;
                transaction.rollback().await?;
                Ok(())
            }
        }
    };
}
pub(crate) use health_store_sql;
