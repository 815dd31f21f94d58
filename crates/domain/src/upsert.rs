//! When an incoming record replaces the stored one. Imports and syncs see the same market
//! many times, from recordings of different ages; this rule makes them idempotent and keeps
//! the newest data whatever order the files arrive in.

use crate::time::Timestamp;

/// What the store holds for a record, as far as the rule needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Version {
    /// When the exchange last changed the record, if the payload said.
    pub source_updated_at: Option<Timestamp>,
    /// A digest of the normalized content.
    pub fingerprint: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpsertDecision {
    Insert,
    Update,
    /// Same content: nothing to write.
    Unchanged,
    /// Older than what is stored: kept out.
    Stale,
}

/// - No stored record: insert.
/// - Both carry exchange timestamps: the later one wins; equal timestamps with different
///   content update (the exchange's clock has coarse resolution).
/// - The stored record has a timestamp and the incoming one has none: the incoming one is
///   from a payload that cannot prove it is newer, so it is stale (this keeps an old
///   recording without timestamps from overwriting a newer sync).
/// - Neither has a timestamp: different content updates (last write wins).
pub fn decide(stored: Option<Version>, incoming: Version) -> UpsertDecision {
    let Some(stored) = stored else {
        return UpsertDecision::Insert;
    };
    match (stored.source_updated_at, incoming.source_updated_at) {
        (Some(stored_at), Some(incoming_at)) if incoming_at < stored_at => UpsertDecision::Stale,
        (Some(_), None) => UpsertDecision::Stale,
        _ if stored.fingerprint == incoming.fingerprint => UpsertDecision::Unchanged,
        _ => UpsertDecision::Update,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::from_epoch_millis;

    fn version(at: Option<i64>, fingerprint: i64) -> Version {
        Version {
            source_updated_at: at.map(from_epoch_millis),
            fingerprint,
        }
    }

    #[test]
    fn follows_the_documented_rule() {
        assert_eq!(decide(None, version(None, 1)), UpsertDecision::Insert);
        assert_eq!(
            decide(Some(version(Some(10), 1)), version(Some(10), 1)),
            UpsertDecision::Unchanged
        );
        assert_eq!(
            decide(Some(version(Some(10), 1)), version(Some(20), 2)),
            UpsertDecision::Update
        );
        assert_eq!(
            decide(Some(version(Some(10), 1)), version(Some(10), 2)),
            UpsertDecision::Update
        );
        assert_eq!(
            decide(Some(version(Some(20), 1)), version(Some(10), 2)),
            UpsertDecision::Stale
        );
        assert_eq!(
            decide(Some(version(Some(20), 1)), version(None, 2)),
            UpsertDecision::Stale
        );
        assert_eq!(
            decide(Some(version(None, 1)), version(Some(5), 2)),
            UpsertDecision::Update
        );
        assert_eq!(
            decide(Some(version(None, 1)), version(None, 1)),
            UpsertDecision::Unchanged
        );
        assert_eq!(decide(Some(version(None, 1)), version(None, 2)), UpsertDecision::Update);
    }
}
