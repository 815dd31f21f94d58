//! Cross-exchange matches kept current as syncs change markets.
//!
//! A full rematch of a million markets takes minutes (see docs/MATCHING.md), far too long to
//! run after every five-minute sync. So the node that syncs keeps the match graph
//! (`MatchIndex`) in memory between runs, with a fingerprint of what the matcher reads of each
//! market (question, end date, outcome names, event title). After a run it reads only the
//! markets written since the catalogue revision it last saw (each write stamps its records
//! with its revision), rescores those whose fingerprint moved, and replaces the stored rows of
//! the markets whose served matches that can change. Prices and volumes do not enter the
//! fingerprint: a sync that only moved prices rescores nothing. (The store never deletes a
//! market, so nothing leaves the graph.)

use marketlens_domain::matching::{MatchIndex, MatchInput, match_markets};
use marketlens_storage::{Store, StoreError};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};
use uuid::Uuid;

/// Recomputes every cross-exchange match from scratch; returns the number of matched pairs.
/// For one-off commands (`import`, `sync`, `demo`), which keep no graph.
pub async fn rematch(store: &dyn Store) -> Result<usize, StoreError> {
    let inputs = store.match_inputs().await?;
    let pairs = blocking(move || match_markets(&inputs)).await?;
    store.replace_matches(&pairs).await?;
    Ok(pairs.len() / 2)
}

/// What one incremental update did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchUpdate {
    /// Markets written since the last update.
    pub read: usize,
    /// Of those, the new ones and those changed in what the matcher reads: rescored.
    pub rescored: usize,
    /// Markets whose stored matches were replaced.
    pub markets_rewritten: usize,
    pub took: Duration,
}

/// The match graph of the store's catalogue, held between syncs.
pub struct IncrementalMatcher {
    index: MatchIndex,
    fingerprints: HashMap<Uuid, u64>,
    /// The catalogue revision the graph is up to date with.
    revision: i64,
}

impl IncrementalMatcher {
    /// Matches every market from scratch, stores the result, and keeps the graph; returns it
    /// with the number of matched pairs.
    pub async fn start(store: &dyn Store) -> Result<(IncrementalMatcher, usize), StoreError> {
        // Read before the inputs: what is written meanwhile is read again by the next update.
        let revision = store.catalog_revision().await?;
        let inputs = store.match_inputs().await?;
        let (matcher, pairs) = blocking(move || {
            let fingerprints = inputs.iter().map(|input| (input.id, fingerprint(input))).collect();
            let index = MatchIndex::build(&inputs);
            let pairs = index.pairs();
            let matcher = IncrementalMatcher {
                index,
                fingerprints,
                revision,
            };
            (matcher, pairs)
        })
        .await?;
        store.replace_matches(&pairs).await?;
        Ok((matcher, pairs.len() / 2))
    }

    /// Rescores what changed in the store since the last call and stores the matches that
    /// moved. If the store fails, the graph may be ahead of the store: the next full start
    /// puts them level.
    pub async fn update(&mut self, store: &dyn Store) -> Result<MatchUpdate, StoreError> {
        let started = Instant::now();
        let revision = store.catalog_revision().await?;
        let inputs = store.match_inputs_changed_since(self.revision).await?;
        let read = inputs.len();
        let mut index = std::mem::take(&mut self.index);
        let mut fingerprints = std::mem::take(&mut self.fingerprints);
        let (index, fingerprints, rescored, markets, pairs) = blocking(move || {
            let changed: Vec<MatchInput> = inputs
                .into_iter()
                .filter(|input| {
                    let print = fingerprint(input);
                    fingerprints.insert(input.id, print) != Some(print)
                })
                .collect();
            let markets: Vec<Uuid> = index.upsert(&changed).markets.into_iter().collect();
            let pairs = index.matches_of(&markets);
            (index, fingerprints, changed.len(), markets, pairs)
        })
        .await?;
        self.index = index;
        self.fingerprints = fingerprints;
        if !markets.is_empty() {
            store.update_matches(&markets, &pairs).await?;
        }
        self.revision = revision;
        Ok(MatchUpdate {
            read,
            rescored,
            markets_rewritten: markets.len(),
            took: started.elapsed(),
        })
    }
}

/// What the matcher reads of a market, hashed: equal when the market's matches cannot differ.
fn fingerprint(input: &MatchInput) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    input.exchange.hash(&mut hasher);
    input.question.hash(&mut hasher);
    input.end_date.hash(&mut hasher);
    input.outcomes.hash(&mut hasher);
    input.event_title.hash(&mut hasher);
    hasher.finish()
}

async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| StoreError::Internal(format!("the matcher stopped: {error}")))
}
