//! Timestamps on the wire: ISO 8601 in UTC with milliseconds, e.g. `2025-06-24T23:58:33.606Z`.

use chrono::{DateTime, SecondsFormat, Utc};

pub type Timestamp = DateTime<Utc>;

pub fn to_iso8601(timestamp: Timestamp) -> String {
    timestamp.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Milliseconds since the Unix epoch: how the stores keep timestamps, so they sort as numbers.
pub fn to_epoch_millis(timestamp: Timestamp) -> i64 {
    timestamp.timestamp_millis()
}

/// The inverse of [`to_epoch_millis`]; out-of-range values clamp to the representable range.
pub fn from_epoch_millis(millis: i64) -> Timestamp {
    DateTime::from_timestamp_millis(millis).unwrap_or(if millis < 0 {
        DateTime::<Utc>::MIN_UTC
    } else {
        DateTime::<Utc>::MAX_UTC
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_with_millis_and_z() {
        let timestamp = from_epoch_millis(1_750_809_513_606);
        assert_eq!(to_iso8601(timestamp), "2025-06-24T23:58:33.606Z");
        assert_eq!(to_epoch_millis(timestamp), 1_750_809_513_606);
    }
}
