//! Cursor pagination shared by the five listings, and the query parameters that drive it.
//!
//! A listing is a fixed order of records; a filter keeps some of them. A page is the next
//! `limit` kept records from a position, and its cursor points at the first kept record after
//! the page, so walking the cursors visits every kept record exactly once, and the last page
//! is known without serving an empty one.
//!
//! A cursor is opaque to clients: the hex of one byte naming its listing and the position as
//! a big-endian `u64`. A cursor that does not decode, names another listing or points past
//! the end is rejected, as the real APIs reject cursors they did not issue.

use crate::error::ReplayError;

/// The five paginated listings; a cursor of one is refused by the others.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Listing {
    GammaEvents = 1,
    GammaMarkets = 2,
    KalshiEvents = 3,
    KalshiMarkets = 4,
    KalshiTrades = 5,
}

impl Listing {
    fn cursor(self, position: usize) -> String {
        let mut bytes = vec![self as u8];
        bytes.extend((position as u64).to_be_bytes());
        hex::encode(bytes)
    }

    /// The position `cursor` points at, if it is a cursor of this listing of `len` records.
    fn position(self, cursor: &str, len: usize) -> Option<usize> {
        let bytes = hex::decode(cursor).ok()?;
        let (&tag, position) = bytes.split_first()?;
        let position = u64::from_be_bytes(position.try_into().ok()?);
        let position = usize::try_from(position).ok()?;
        (tag == self as u8 && position <= len).then_some(position)
    }
}

/// One page: the positions of its records and the cursor of the next page, if any.
#[derive(Debug, PartialEq)]
pub(crate) struct Page {
    pub(crate) positions: Vec<usize>,
    pub(crate) next_cursor: Option<String>,
}

/// The next `limit` positions from `start` among `0..len` that `keep` accepts.
pub(crate) fn paginate(
    listing: Listing,
    len: usize,
    start: usize,
    limit: usize,
    keep: impl FnMut(&usize) -> bool,
) -> Page {
    let mut kept = (start..len).filter(keep);
    let positions = kept.by_ref().take(limit).collect();
    let next_cursor = kept.next().map(|position| listing.cursor(position));
    Page { positions, next_cursor }
}

/// A request's query parameters in order, repeated names included (Gamma's `id=1&id=2`).
/// Parameters no endpoint reads are ignored, as the real APIs ignore them.
pub(crate) struct Params(Vec<(String, String)>);

impl Params {
    pub(crate) fn new(pairs: Vec<(String, String)>) -> Params {
        Params(pairs)
    }

    /// The first value of `name`.
    pub(crate) fn first(&self, name: &str) -> Option<&str> {
        self.all(name).next()
    }

    /// Every value of `name`, in order.
    pub(crate) fn all<'a, 'n>(&'a self, name: &'n str) -> impl Iterator<Item = &'a str> + use<'a, 'n> {
        self.0
            .iter()
            .filter(move |(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// A comma-separated list (Kalshi's `tickers=A,B`), empty items dropped; `None` when absent.
    pub(crate) fn list(&self, name: &str) -> Option<Vec<&str>> {
        let value = self.first(name)?;
        Some(
            value
                .split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .collect(),
        )
    }

    /// Refuses the request when `name` is present at all.
    pub(crate) fn forbid(&self, name: &'static str, message: &str) -> Result<(), ReplayError> {
        match self.first(name) {
            Some(_) => Err(ReplayError::BadParameter {
                parameter: name,
                message: message.to_owned(),
            }),
            None => Ok(()),
        }
    }

    /// `limit`: `default` when absent, else an integer from 1 to `maximum`.
    pub(crate) fn limit(&self, default: usize, maximum: usize) -> Result<usize, ReplayError> {
        let Some(value) = self.first("limit") else {
            return Ok(default);
        };
        match value.parse::<usize>() {
            Ok(limit) if (1..=maximum).contains(&limit) => Ok(limit),
            _ => Err(ReplayError::BadParameter {
                parameter: "limit",
                message: format!("must be an integer from 1 to {maximum}, got {value:?}"),
            }),
        }
    }

    /// A `true`/`false` parameter; `None` when absent.
    pub(crate) fn flag(&self, name: &'static str) -> Result<Option<bool>, ReplayError> {
        match self.first(name) {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(value) => Err(ReplayError::BadParameter {
                parameter: name,
                message: format!("must be true or false, got {value:?}"),
            }),
        }
    }

    /// The position the cursor parameter `name` points at in `listing` of `len` records: the
    /// start when absent or empty (Kalshi clients send `cursor=` on the first page).
    pub(crate) fn start(&self, name: &'static str, listing: Listing, len: usize) -> Result<usize, ReplayError> {
        match self.first(name) {
            None | Some("") => Ok(0),
            Some(cursor) => listing
                .position(cursor, len)
                .ok_or(ReplayError::BadCursor { parameter: name }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> Params {
        Params::new(
            pairs
                .iter()
                .map(|(key, value)| (key.to_string(), value.to_string()))
                .collect(),
        )
    }

    #[test]
    fn cursors_round_trip_only_within_their_listing() {
        let cursor = Listing::GammaEvents.cursor(42);
        assert_eq!(cursor, "01000000000000002a");
        assert_eq!(Listing::GammaEvents.position(&cursor, 100), Some(42));
        assert_eq!(Listing::GammaEvents.position(&cursor, 41), None);
        assert_eq!(Listing::KalshiEvents.position(&cursor, 100), None);
        assert_eq!(Listing::GammaEvents.position("zz", 100), None);
        assert_eq!(Listing::GammaEvents.position("01", 100), None);
        assert_eq!(Listing::GammaEvents.position("", 100), None);
    }

    #[test]
    fn pages_hold_kept_records_and_point_at_the_next_kept_one() {
        let even = |position: &usize| position.is_multiple_of(2);
        let first = paginate(Listing::KalshiMarkets, 10, 0, 2, even);
        assert_eq!(first.positions, [0, 2]);
        assert_eq!(first.next_cursor, Some(Listing::KalshiMarkets.cursor(4)));
        let last = paginate(Listing::KalshiMarkets, 10, 6, 2, even);
        assert_eq!(
            last,
            Page {
                positions: vec![6, 8],
                next_cursor: None
            }
        );
        let empty = paginate(Listing::KalshiMarkets, 0, 0, 5, even);
        assert_eq!(
            empty,
            Page {
                positions: vec![],
                next_cursor: None
            }
        );
    }

    #[test]
    fn limits_flags_and_cursors_are_validated() {
        assert_eq!(params(&[]).limit(20, 500), Ok(20));
        assert_eq!(params(&[("limit", "500")]).limit(20, 500), Ok(500));
        for bad in ["0", "501", "-1", "ten", ""] {
            assert!(params(&[("limit", bad)]).limit(20, 500).is_err(), "limit={bad}");
        }
        assert_eq!(params(&[("closed", "true")]).flag("closed"), Ok(Some(true)));
        assert!(params(&[("closed", "yes")]).flag("closed").is_err());
        assert_eq!(
            params(&[("cursor", "")]).start("cursor", Listing::KalshiEvents, 3),
            Ok(0)
        );
        assert!(
            params(&[("cursor", "abc")])
                .start("cursor", Listing::KalshiEvents, 3)
                .is_err()
        );
        assert_eq!(
            params(&[("tickers", "A, B,,C")]).list("tickers"),
            Some(vec!["A", "B", "C"])
        );
        assert_eq!(
            params(&[("id", "1"), ("id", "2")]).all("id").collect::<Vec<_>>(),
            ["1", "2"]
        );
    }
}
