//! Lenient readers for the values both exchanges spell inconsistently: numbers that arrive as
//! JSON numbers or as numeric strings, ids that are strings or numbers, and dates in four
//! formats. They are shared so that both normalizers accept and refuse exactly the same
//! things.
//!
//! Lenient does not mean forgiving of nonsense: a string that is not a number, a non-finite
//! number ("NaN", "inf") and a date in no known format are errors, which skip the record
//! that holds them. Only the *absence* of a value is quietly mapped to a default.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Datelike, DurationRound, NaiveDate, Utc};
use marketlens_domain::time::Timestamp;
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use serde_with::{DeserializeAs, DisplayFromStr, PickFirst, Same};

/// The `serde_as` adapter for "a JSON number, or a string holding one": Polymarket sends
/// `volume` as `"1018500.561838"` and `volumeNum` as `1018500.561838`, Kalshi sends cents as
/// integers and dollars as `"0.0600"`.
pub(crate) type Number = PickFirst<(Same, DisplayFromStr)>;

/// The `serde_as` adapter for a flag: `true`, or the string `"true"`.
pub(crate) type Flag = PickFirst<(Same, DisplayFromStr)>;

/// A finite `f64`. Reading one from JSON (a number, or a string through [`Number`]) refuses
/// NaN and the infinities, which Rust's float parser would otherwise accept from strings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Finite(pub f64);

#[derive(Debug)]
pub(crate) struct NotFinite(String);

impl fmt::Display for NotFinite {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{} is not a finite number", preview_text(&self.0))
    }
}

impl FromStr for Finite {
    type Err = NotFinite;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().parse::<f64>() {
            Ok(number) if number.is_finite() => Ok(Finite(number)),
            _ => Err(NotFinite(text.to_owned())),
        }
    }
}

impl<'de> Deserialize<'de> for Finite {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let number = f64::deserialize(deserializer)?;
        if number.is_finite() {
            Ok(Finite(number))
        } else {
            Err(de::Error::custom(NotFinite(number.to_string())))
        }
    }
}

/// The `serde_as` adapter for an exchange id: Polymarket's ids are numeric strings (`"512272"`)
/// in every recorded payload, but a plain number means the same id and is accepted too.
pub(crate) struct IdString;

impl<'de> DeserializeAs<'de, String> for IdString {
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
        struct IdVisitor;

        impl Visitor<'_> for IdVisitor {
            type Value = String;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("an id as a string or an integer")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<String, E> {
                Ok(text.to_owned())
            }

            fn visit_u64<E: de::Error>(self, number: u64) -> Result<String, E> {
                Ok(number.to_string())
            }

            fn visit_i64<E: de::Error>(self, number: i64) -> Result<String, E> {
                Ok(number.to_string())
            }
        }

        deserializer.deserialize_any(IdVisitor)
    }
}

/// The years before this one mean "no date": Go's zero time `0001-01-01T00:00:00Z` (Kalshi's
/// `created_time` sentinel) and the Unix epoch both stand for a value that was never set.
const FIRST_REAL_YEAR: i32 = 1971;

/// Reads an optional date field. Absent, empty and sentinel dates are `None`; a date in no
/// known format is an error naming the field, which skips the record.
///
/// Formats accepted: RFC 3339 with 0 to 9 fractional digits (`2025-01-05T18:49:12.543209Z`),
/// Postgres' text form (`2025-02-28 04:58:46+00`, `2022-07-27 14:40:02.064+00`) and a bare
/// date (`2025-12-31`, read as midnight UTC).
pub(crate) fn timestamp(field: &str, text: Option<&str>) -> Result<Option<Timestamp>, String> {
    let Some(text) = text.map(str::trim).filter(|text| !text.is_empty()) else {
        return Ok(None);
    };
    let parsed = parse_timestamp(text).ok_or_else(|| format!("{field} {} is not a date", preview_text(text)))?;
    // Milliseconds are the precision of the stores and the API; finer digits (Gamma and
    // Kalshi send microseconds) are dropped here, so that a stored record equals its
    // normalized form.
    let parsed = parsed
        .duration_trunc(chrono::TimeDelta::milliseconds(1))
        .unwrap_or(parsed);
    Ok((parsed.year() >= FIRST_REAL_YEAR).then_some(parsed))
}

fn parse_timestamp(text: &str) -> Option<Timestamp> {
    if let Ok(parsed) = DateTime::parse_from_rfc3339(text) {
        return Some(parsed.with_timezone(&Utc));
    }
    // `%#z` accepts an offset with or without minutes (`+00`, `+05:30`).
    if let Ok(parsed) = DateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f%#z") {
        return Some(parsed.with_timezone(&Utc));
    }
    let date = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    Some(date.and_hms_opt(0, 0, 0)?.and_utc())
}

/// An amount the payload may leave out; absent is 0. Negative amounts are kept, for
/// `Market::validate` to refuse.
pub(crate) fn amount(value: Option<Finite>) -> f64 {
    value.map_or(0.0, |value| value.0)
}

/// The first of several date fields that holds a date.
pub(crate) fn first_date<const N: usize>(fields: [(&str, Option<&str>); N]) -> Result<Option<Timestamp>, String> {
    for (field, text) in fields {
        if let Some(date) = timestamp(field, text)? {
            return Ok(Some(date));
        }
    }
    Ok(None)
}

/// Text with its surrounding whitespace removed, or `None` when nothing is left.
pub(crate) fn non_empty(text: Option<&str>) -> Option<&str> {
    text.map(str::trim).filter(|text| !text.is_empty())
}

/// Rounds a derived price to 6 decimals, so that `1 - 0.971` is stored as `0.029` and not
/// `0.029000000000000026`.
pub(crate) fn round_price(price: f64) -> f64 {
    (price * 1e6).round() / 1e6
}

/// A best bid, kept only when there is a real order behind it: a bid of 0 is an empty book,
/// and a bid of 1 (paying the full payout) is no real order either.
pub(crate) fn real_bid(bid: Option<f64>) -> Option<f64> {
    bid.filter(|bid| *bid > 0.0 && *bid < 1.0)
}

/// A best ask, kept only when there is a real order behind it: an ask of 1 (or 0, which the
/// exchanges send for an empty book) means "no asks".
pub(crate) fn real_ask(ask: Option<f64>) -> Option<f64> {
    ask.filter(|ask| *ask > 0.0 && *ask < 1.0)
}

/// A last trade price, kept only when there was a trade: a market never traded states a last
/// price of 0 (Kalshi's `last_price`, its stream's `ticker`).
pub(crate) fn traded(last: Option<f64>) -> Option<f64> {
    last.filter(|last| *last > 0.0)
}

/// A short, one-line, quoted rendering of untrusted text for reasons and errors.
pub(crate) fn preview_text(text: &str) -> String {
    const LIMIT: usize = 60;
    let mut preview: String = text.chars().take(LIMIT).collect();
    if text.chars().nth(LIMIT).is_some() {
        preview.push('…');
    }
    format!("{preview:?}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use marketlens_domain::time::to_iso8601;
    use serde_with::serde_as;

    fn iso(field_text: &str) -> Option<String> {
        timestamp("date", Some(field_text)).unwrap().map(to_iso8601)
    }

    #[test]
    fn reads_every_recorded_date_format() {
        assert_eq!(
            iso("2025-01-05T18:49:12.543209Z").as_deref(),
            Some("2025-01-05T18:49:12.543Z")
        );
        assert_eq!(iso("2021-12-04T00:00:00Z").as_deref(), Some("2021-12-04T00:00:00.000Z"));
        assert_eq!(
            iso("2026-03-15T22:40:29.69003Z").as_deref(),
            Some("2026-03-15T22:40:29.690Z")
        );
        assert_eq!(
            iso("2026-03-15T22:40:29.123456789Z").as_deref(),
            Some("2026-03-15T22:40:29.123Z")
        );
        assert_eq!(
            iso("2026-03-15T23:40:29+01:00").as_deref(),
            Some("2026-03-15T22:40:29.000Z")
        );
        assert_eq!(iso("2025-12-31").as_deref(), Some("2025-12-31T00:00:00.000Z"));
        assert_eq!(
            iso("2025-02-28 04:58:46+00").as_deref(),
            Some("2025-02-28T04:58:46.000Z")
        );
        assert_eq!(
            iso("2022-07-27 14:40:02.064+00").as_deref(),
            Some("2022-07-27T14:40:02.064Z")
        );
    }

    #[test]
    fn sentinel_empty_and_absent_dates_are_none() {
        assert_eq!(iso("0001-01-01T00:00:00Z"), None);
        assert_eq!(iso("1970-01-01T00:00:00Z"), None);
        assert_eq!(timestamp("date", Some("")), Ok(None));
        assert_eq!(timestamp("date", Some("   ")), Ok(None));
        assert_eq!(timestamp("date", None), Ok(None));
    }

    #[test]
    fn extreme_dates_do_not_panic() {
        for text in [
            "+262143-12-31 23:59:59-23:59",
            "-262144-01-01 00:00:00+23:59",
            "262143-12-31",
            "9999-12-31T23:59:59-23:59",
            "0000-01-01T00:00:00+23:59",
            "2025-01-01T00:00:00.1234567890123Z",
        ] {
            let _ = timestamp("date", Some(text));
        }
        assert_eq!(iso("9999-12-31T23:59:59Z").as_deref(), Some("9999-12-31T23:59:59.000Z"));
    }

    #[test]
    fn unknown_date_formats_are_errors_naming_the_field() {
        assert_eq!(
            timestamp("endDate", Some("next tuesday")),
            Err("endDate \"next tuesday\" is not a date".to_owned())
        );
        assert!(timestamp("endDate", Some("2025-13-01")).is_err());
        assert!(timestamp("endDate", Some("1735689600")).is_err());
    }

    #[serde_as]
    #[derive(Debug, Deserialize)]
    struct Sample {
        #[serde_as(as = "Option<Number>")]
        #[serde(default)]
        amount: Option<Finite>,
        #[serde_as(as = "Option<IdString>")]
        #[serde(default)]
        id: Option<String>,
    }

    fn sample(json: &str) -> Result<Sample, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn numbers_may_be_numeric_strings_but_must_be_finite() {
        assert_eq!(sample(r#"{"amount": 1.5}"#).unwrap().amount, Some(Finite(1.5)));
        assert_eq!(sample(r#"{"amount": "0.0015"}"#).unwrap().amount, Some(Finite(0.0015)));
        assert_eq!(sample(r#"{"amount": 7}"#).unwrap().amount, Some(Finite(7.0)));
        assert_eq!(sample(r#"{"amount": null}"#).unwrap().amount, None);
        assert_eq!(sample(r#"{}"#).unwrap().amount, None);
        for bad in [
            r#""NaN""#,
            r#""inf""#,
            r#""-infinity""#,
            r#""abc""#,
            r#""""#,
            "true",
            "[]",
        ] {
            assert!(
                sample(&format!(r#"{{"amount": {bad}}}"#)).is_err(),
                "{bad} was accepted"
            );
        }
    }

    #[test]
    fn ids_may_be_strings_or_integers() {
        assert_eq!(sample(r#"{"id": "512272"}"#).unwrap().id.as_deref(), Some("512272"));
        assert_eq!(sample(r#"{"id": 512272}"#).unwrap().id.as_deref(), Some("512272"));
        assert!(sample(r#"{"id": 1.5}"#).is_err());
        assert!(sample(r#"{"id": {}}"#).is_err());
    }

    #[test]
    fn derived_prices_round_and_empty_quotes_drop() {
        assert_eq!(round_price(1.0 - 0.971), 0.029);
        assert_eq!(real_bid(Some(0.0)), None);
        assert_eq!(real_bid(Some(0.02)), Some(0.02));
        assert_eq!(real_ask(Some(1.0)), None);
        assert_eq!(real_ask(Some(0.0)), None);
        assert_eq!(real_ask(Some(0.038)), Some(0.038));
        assert_eq!(real_ask(None), None);
    }

    #[test]
    fn previews_are_short_and_quoted() {
        assert_eq!(preview_text("abc"), "\"abc\"");
        let long = "é".repeat(100);
        assert_eq!(preview_text(&long).chars().count(), 60 + 3);
    }
}
