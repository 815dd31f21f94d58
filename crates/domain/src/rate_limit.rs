//! Requests-per-minute windows and tiers (`docs/contract/decisions.md#d4-window`): fixed minutes on the
//! UTC clock; a window resets at the start of the next minute. Each tier also bounds the live
//! streams an account holds ([`StreamTierTable`]), configured the same way.

use chrono::{DurationRound, TimeDelta};
use std::collections::BTreeMap;

use crate::time::Timestamp;

/// The start of the fixed one-minute window that contains `now`.
pub fn window_start(now: Timestamp) -> Timestamp {
    now.duration_trunc(TimeDelta::minutes(1)).unwrap_or(now)
}

/// When the window containing `now` ends and the next begins (`rateLimit.resetsAt`).
pub fn window_reset(now: Timestamp) -> Timestamp {
    window_start(now) + TimeDelta::minutes(1)
}

/// Whole seconds until the window resets, at least 1 (for `Retry-After`).
pub fn seconds_until_reset(now: Timestamp) -> i64 {
    let remaining = window_reset(now) - now;
    (remaining.num_milliseconds() + 999).div_euclid(1000).max(1)
}

/// The requests-per-minute of each tier. Defaults from `docs/contract/decisions.md#d4-tiers`; operators may
/// override any of them or add tiers in configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierTable {
    limits: BTreeMap<String, u32>,
}

impl Default for TierTable {
    fn default() -> Self {
        let limits = [("free", 60), ("starter", 300), ("pro", 1200), ("enterprise", 6000)]
            .into_iter()
            .map(|(tier, limit)| (tier.to_owned(), limit))
            .collect();
        TierTable { limits }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad tier limits {text:?}: {reason} (expected e.g. \"free=60,pro=1200\", or for streams \"free=1/5\")")]
pub struct BadTierLimits {
    pub text: String,
    pub reason: String,
}

fn bad(text: &str, reason: &str) -> BadTierLimits {
    BadTierLimits {
        text: text.to_owned(),
        reason: reason.to_owned(),
    }
}

/// The `name=value` pairs of a list separated by commas, names lowercased and checked.
fn tier_pairs(overrides: &str) -> Result<Vec<(String, &str)>, BadTierLimits> {
    let mut pairs = Vec::new();
    for pair in overrides.split(',').map(str::trim).filter(|pair| !pair.is_empty()) {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| bad(overrides, "a pair has no '='"))?;
        let name = name.trim().to_ascii_lowercase();
        if name.is_empty()
            || !name
                .chars()
                .all(|character| character.is_ascii_alphanumeric() || character == '-' || character == '_')
        {
            return Err(bad(overrides, "a tier name must be letters, digits, '-' or '_'"));
        }
        pairs.push((name, value.trim()));
    }
    Ok(pairs)
}

/// A whole number of at least 1.
fn positive(text: &str) -> Option<u32> {
    text.trim().parse().ok().filter(|limit| *limit > 0)
}

/// What one account may hold of live streams (`GET /api/v1/stream`) on one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLimit {
    /// Stream connections open at once.
    pub connections: u32,
    /// Markets subscribed at once on one connection.
    pub subscriptions: u32,
}

/// The stream limits of each tier, configured as [`TierTable`] is, each as
/// `connections/subscriptions`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamTierTable {
    limits: BTreeMap<String, StreamLimit>,
}

impl Default for StreamTierTable {
    fn default() -> Self {
        let limits = [
            ("free", 1, 5),
            ("starter", 2, 25),
            ("pro", 5, 100),
            ("enterprise", 20, 500),
        ]
        .into_iter()
        .map(|(tier, connections, subscriptions)| {
            let limit = StreamLimit {
                connections,
                subscriptions,
            };
            (tier.to_owned(), limit)
        })
        .collect();
        StreamTierTable { limits }
    }
}

impl StreamTierTable {
    /// The defaults with overrides from `name=connections/subscriptions` pairs separated by
    /// commas.
    pub fn with_overrides(overrides: &str) -> Result<StreamTierTable, BadTierLimits> {
        let mut table = StreamTierTable::default();
        for (name, value) in tier_pairs(overrides)? {
            let limit = value
                .split_once('/')
                .and_then(|(connections, subscriptions)| {
                    Some(StreamLimit {
                        connections: positive(connections)?,
                        subscriptions: positive(subscriptions)?,
                    })
                })
                .ok_or_else(|| {
                    bad(
                        overrides,
                        "a stream limit must be two whole numbers of at least 1, as 1/5",
                    )
                })?;
            table.limits.insert(name, limit);
        }
        Ok(table)
    }

    pub fn limit(&self, tier: &str) -> Option<StreamLimit> {
        self.limits.get(tier).copied()
    }
}

impl TierTable {
    /// The defaults with overrides from `name=limit` pairs separated by commas.
    pub fn with_overrides(overrides: &str) -> Result<TierTable, BadTierLimits> {
        let mut table = TierTable::default();
        for (name, limit) in tier_pairs(overrides)? {
            let limit =
                positive(limit).ok_or_else(|| bad(overrides, "a limit must be a whole number of at least 1"))?;
            table.limits.insert(name, limit);
        }
        Ok(table)
    }

    pub fn requests_per_minute(&self, tier: &str) -> Option<u32> {
        self.limits.get(tier).copied()
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.limits.keys().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};

    #[test]
    fn windows_are_utc_minutes() {
        let now = Utc.with_ymd_and_hms(2026, 11, 22, 10, 15, 42).unwrap() + TimeDelta::milliseconds(250);
        assert_eq!(
            window_start(now),
            Utc.with_ymd_and_hms(2026, 11, 22, 10, 15, 0).unwrap()
        );
        assert_eq!(
            window_reset(now),
            Utc.with_ymd_and_hms(2026, 11, 22, 10, 16, 0).unwrap()
        );
        assert_eq!(seconds_until_reset(now), 18);
        let on_the_minute = Utc.with_ymd_and_hms(2026, 11, 22, 10, 16, 0).unwrap();
        assert_eq!(seconds_until_reset(on_the_minute), 60);
    }

    #[test]
    fn tier_overrides() {
        let table = TierTable::with_overrides("free=10, team=500").unwrap();
        assert_eq!(table.requests_per_minute("free"), Some(10));
        assert_eq!(table.requests_per_minute("team"), Some(500));
        assert_eq!(table.requests_per_minute("pro"), Some(1200));
        assert!(TierTable::with_overrides("free").is_err());
        assert!(TierTable::with_overrides("free=0").is_err());
        assert!(TierTable::with_overrides("free=ten").is_err());
    }

    #[test]
    fn stream_tier_overrides() {
        let table = StreamTierTable::with_overrides("free=2/10, team=3/40").unwrap();
        let limit = |connections, subscriptions| {
            Some(StreamLimit {
                connections,
                subscriptions,
            })
        };
        assert_eq!(table.limit("free"), limit(2, 10));
        assert_eq!(table.limit("team"), limit(3, 40));
        assert_eq!(table.limit("pro"), limit(5, 100));
        for wrong in ["free=2", "free=0/5", "free=2/0", "free=a/b", "=1/1"] {
            assert!(StreamTierTable::with_overrides(wrong).is_err(), "{wrong}");
        }
    }
}
