//! Publication dates as feeds write them, which is not always as their formats say.
//!
//! RSS asks for RFC 822 dates and Atom for RFC 3339, but real feeds write `PDT` (ESPN), drop
//! the seconds (CNBC), spell weekdays and months in Portuguese (UOL: `Seg, 24 Set 2018`), or
//! write full month names. feed-rs takes one timestamp parser for a whole feed, so this one
//! replaces its default: it tries both standards as chrono reads them (chrono already accepts
//! the obsolete North American zones and a missing seconds field), then again after dropping
//! the weekday and translating month names to English. A date none of this reads is `None`,
//! and the article is kept without one.

use chrono::{DateTime, NaiveDate, Utc};
use marketlens_domain::text::fold;
use marketlens_domain::time::Timestamp;

/// Month names and abbreviations in English, Portuguese, Spanish, French and German, folded
/// to lower-case ASCII, with the English abbreviation chrono reads.
const MONTHS: &[(&str, &str)] = &[
    ("january", "Jan"),
    ("janeiro", "Jan"),
    ("enero", "Jan"),
    ("janvier", "Jan"),
    ("januar", "Jan"),
    ("jan", "Jan"),
    ("ene", "Jan"),
    ("janv", "Jan"),
    ("february", "Feb"),
    ("fevereiro", "Feb"),
    ("febrero", "Feb"),
    ("fevrier", "Feb"),
    ("februar", "Feb"),
    ("feb", "Feb"),
    ("fev", "Feb"),
    ("fevr", "Feb"),
    ("march", "Mar"),
    ("marco", "Mar"),
    ("marzo", "Mar"),
    ("mars", "Mar"),
    ("marz", "Mar"),
    ("mar", "Mar"),
    ("april", "Apr"),
    ("abril", "Apr"),
    ("avril", "Apr"),
    ("apr", "Apr"),
    ("abr", "Apr"),
    ("avr", "Apr"),
    ("may", "May"),
    ("maio", "May"),
    ("mayo", "May"),
    ("mai", "May"),
    ("june", "Jun"),
    ("junho", "Jun"),
    ("junio", "Jun"),
    ("juin", "Jun"),
    ("juni", "Jun"),
    ("jun", "Jun"),
    ("july", "Jul"),
    ("julho", "Jul"),
    ("julio", "Jul"),
    ("juillet", "Jul"),
    ("juli", "Jul"),
    ("jul", "Jul"),
    ("juil", "Jul"),
    ("august", "Aug"),
    ("agosto", "Aug"),
    ("aout", "Aug"),
    ("aug", "Aug"),
    ("ago", "Aug"),
    ("september", "Sep"),
    ("setembro", "Sep"),
    ("septiembre", "Sep"),
    ("septembre", "Sep"),
    ("sep", "Sep"),
    ("sept", "Sep"),
    ("set", "Sep"),
    ("october", "Oct"),
    ("outubro", "Oct"),
    ("octubre", "Oct"),
    ("octobre", "Oct"),
    ("oktober", "Oct"),
    ("oct", "Oct"),
    ("out", "Oct"),
    ("okt", "Oct"),
    ("november", "Nov"),
    ("novembro", "Nov"),
    ("noviembre", "Nov"),
    ("novembre", "Nov"),
    ("nov", "Nov"),
    ("december", "Dec"),
    ("dezembro", "Dec"),
    ("diciembre", "Dec"),
    ("decembre", "Dec"),
    ("dezember", "Dec"),
    ("dec", "Dec"),
    ("dez", "Dec"),
    ("dic", "Dec"),
];

/// The instant `text` names, or `None` when no known form reads it.
pub fn parse_feed_date(text: &str) -> Option<Timestamp> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    standard(text)
        .or_else(|| standard(&normalized(text)?))
        .or_else(|| date_only(text))
}

fn standard(text: &str) -> Option<Timestamp> {
    DateTime::parse_from_rfc3339(text)
        .or_else(|_| DateTime::parse_from_rfc2822(text))
        .ok()
        .map(|parsed| parsed.with_timezone(&Utc))
}

/// RFC 822 rewritten: the weekday dropped, the month as chrono's English abbreviation, and
/// `UTC` or `Z` as an offset. `None` when the text names no month.
fn normalized(text: &str) -> Option<String> {
    let without_weekday = match text.split_once(',') {
        Some((weekday, rest)) if weekday.chars().all(char::is_alphabetic) => rest,
        _ => text,
    };
    let mut found_month = false;
    let parts: Vec<String> = without_weekday
        .split_whitespace()
        .map(|part| {
            let folded = fold(part.trim_end_matches('.'));
            match MONTHS.iter().find(|(name, _)| *name == folded) {
                Some((_, english)) if !found_month => {
                    found_month = true;
                    (*english).to_owned()
                }
                _ if matches!(folded.as_str(), "utc" | "z") => "+0000".to_owned(),
                _ => part.to_owned(),
            }
        })
        .collect();
    found_month.then(|| parts.join(" "))
}

/// A bare `2025-11-05`, read as midnight UTC.
fn date_only(text: &str) -> Option<Timestamp> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .and_then(|date| date.and_hms_opt(0, 0, 0))
        .map(|midnight| midnight.and_utc())
}

#[cfg(test)]
mod tests {
    use super::*;
    use marketlens_domain::time::to_iso8601;

    fn parsed(text: &str) -> Option<String> {
        parse_feed_date(text).map(to_iso8601)
    }

    #[test]
    fn reads_both_standards() {
        assert_eq!(
            parsed("Sat, 22 Aug 2020 10:11:08 GMT").as_deref(),
            Some("2020-08-22T10:11:08.000Z")
        );
        assert_eq!(
            parsed("2017-11-08T18:15:58-05:00").as_deref(),
            Some("2017-11-08T23:15:58.000Z")
        );
        assert_eq!(
            parsed("2023-03-13T10:13:50.123Z").as_deref(),
            Some("2023-03-13T10:13:50.123Z")
        );
    }

    #[test]
    fn reads_what_real_feeds_write() {
        // ESPN: a North American zone name and a one-digit day.
        assert_eq!(
            parsed("Sun, 2 Sep 2012 08:24:08 PDT").as_deref(),
            Some("2012-09-02T15:24:08.000Z")
        );
        // CNBC: no seconds.
        assert_eq!(
            parsed("Mon, 29 Jul 2019 13:55 GMT").as_deref(),
            Some("2019-07-29T13:55:00.000Z")
        );
        // UOL: Portuguese weekday and month.
        assert_eq!(
            parsed("Seg, 24 Set 2018 19:42:40 -0300").as_deref(),
            Some("2018-09-24T22:42:40.000Z")
        );
        assert_eq!(
            parsed("Ter, 02 Out 2018 08:00:00 -0300").as_deref(),
            Some("2018-10-02T11:00:00.000Z")
        );
        // Full English month names and a UTC suffix.
        assert_eq!(
            parsed("Tuesday, 05 November 2025 12:00:00 UTC").as_deref(),
            Some("2025-11-05T12:00:00.000Z")
        );
        assert_eq!(parsed("2025-11-05").as_deref(), Some("2025-11-05T00:00:00.000Z"));
    }

    #[test]
    fn unreadable_dates_are_none() {
        assert_eq!(parsed(""), None);
        assert_eq!(parsed("yesterday"), None);
        assert_eq!(parsed("32 Foo 2020 25:61:00"), None);
    }
}
