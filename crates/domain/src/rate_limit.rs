//! Requests-per-minute windows and tiers (`docs/contract/decisions.md#d4-window`): fixed minutes on the
//! UTC clock; a window resets at the start of the next minute.

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
#[error("bad tier limits {text:?}: {reason} (expected e.g. \"free=60,pro=1200\")")]
pub struct BadTierLimits {
    pub text: String,
    pub reason: String,
}

impl TierTable {
    /// The defaults with overrides from `name=limit` pairs separated by commas.
    pub fn with_overrides(overrides: &str) -> Result<TierTable, BadTierLimits> {
        let mut table = TierTable::default();
        for pair in overrides.split(',').map(str::trim).filter(|pair| !pair.is_empty()) {
            let error = |reason: &str| BadTierLimits {
                text: overrides.to_owned(),
                reason: reason.to_owned(),
            };
            let (name, limit) = pair.split_once('=').ok_or_else(|| error("a pair has no '='"))?;
            let name = name.trim().to_ascii_lowercase();
            if name.is_empty()
                || !name
                    .chars()
                    .all(|character| character.is_ascii_alphanumeric() || character == '-' || character == '_')
            {
                return Err(error("a tier name must be letters, digits, '-' or '_'"));
            }
            let limit: u32 = limit
                .trim()
                .parse()
                .map_err(|_| error("a limit is not a whole number"))?;
            if limit == 0 {
                return Err(error("a limit must be at least 1"));
            }
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
}
