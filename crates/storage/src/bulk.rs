//! Loading a large catalogue into an empty store (`seed`, and what else fills a new store):
//! the same upserts, with two costs taken out that only an empty start allows.
//!
//! - Stored versions are read only for ids the load itself wrote: the store held none of the
//!   others when it began. The upsert's decisions are the same ones, made on the same
//!   versions; a read that could only come back empty is skipped. Should another writer
//!   change the catalogue between two of the load's transactions (its revision is not the
//!   one the load left), the load reads every id again from then on.
//! - On SQLite the indexes no upsert reads (the markets' sort keys, filters, URLs and
//!   revisions, the events' sort keys and revisions, the history's age) and the full-text
//!   triggers are dropped before the load and built once after it: at a million markets,
//!   inserting into fifteen indexes in random key order spent most of the import's time on
//!   B-tree pages the cache no longer held. Their definitions are copied into
//!   `deferred_schema` in the transaction that drops them, and building them back is one
//!   transaction that empties it, which every opening of the store also runs: a load killed
//!   half-way leaves a store whose indexes come back when it is next opened. PostgreSQL defers
//!   the same indexes the same way (`postgres/deferred.rs`; it has no triggers to defer), and
//!   writes every batch by `COPY` (`postgres/copy_in.rs`).
//! - On SQLite the first bars of the markets new to the store (three per market) are appended
//!   to `price_history_staged`, which has no key, and moved into `price_history` sorted by its
//!   key when the load ends: a million markets' bars inserted into the history's key in the
//!   order of their random ids rewrote nearly every page of it at every commit (a gigabyte of
//!   WAL per commit by the end), where one sorted insert writes each page once. Staged bars
//!   are moved in before the load reads any bar (a market it writes twice), in the same
//!   transaction as the building of the indexes, and by the same opening of the store that
//!   builds them after a killed load.
//!
//! While a load runs, the store's own list and search queries (which answer only
//! while a server's in-memory catalogue loads) are slower, and on SQLite search and the
//! history call miss what the load wrote so far.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use uuid::Uuid;

/// A bulk load under way: the ids it wrote, and the catalogue revision it left.
#[derive(Debug)]
pub struct BulkLoad {
    written: HashSet<Uuid>,
    /// `None` once another writer was seen: every id is read again.
    revision: Option<i64>,
}

impl BulkLoad {
    pub(crate) fn new(revision: i64) -> BulkLoad {
        BulkLoad {
            written: HashSet::new(),
            revision: Some(revision),
        }
    }

    /// Called at the start of each of the load's transactions with the revision it would
    /// write: anything but the next one means another writer changed the catalogue.
    pub(crate) fn check_revision(&mut self, changed_revision: i64) {
        if self.revision.is_some_and(|revision| revision + 1 != changed_revision) {
            tracing::info!("another writer changed the catalogue during a bulk load: reading every version again");
            self.revision = None;
        }
    }

    /// Of `ids`, those whose stored versions must be read: those the store may hold.
    pub(crate) fn may_hold(&self, ids: &[String]) -> Vec<String> {
        if self.revision.is_none() {
            return ids.to_vec();
        }
        ids.iter()
            .filter(|id| id.parse().map_or(true, |id: Uuid| self.written.contains(&id)))
            .cloned()
            .collect()
    }

    /// Counts `ids` as written (before the commit: an id counted but not committed only costs
    /// a read).
    pub(crate) fn wrote(&mut self, ids: impl IntoIterator<Item = Uuid>) {
        self.written.extend(ids);
    }

    /// The load's transaction leaves the catalogue at `revision` when it commits (should it
    /// not commit, the next transaction finds another revision and reads every id again).
    pub(crate) fn left_revision(&mut self, revision: i64) {
        if self.revision.is_some() {
            self.revision = Some(revision);
        }
    }
}

/// A store's bulk load, if one is under way; shared by the store's clones.
pub(crate) type BulkState = Arc<Mutex<Option<BulkLoad>>>;
