//! Market depth as the exchanges send it: REST order books and trades, read into
//! `marketlens_domain::depth`'s one form. Pure, like the rest of the crate: bytes in, a ladder
//! or trades out; fetching and caching belong to `marketlens_sync::depth`.
//!
//! - `polymarket`: a CLOB `/book` (one token's bids and asks, best level last), the Data
//!   API's `/trades`, and the token and condition ids a Gamma market record carries.
//! - `kalshi`: `/markets/{ticker}/orderbook` in each of its three generations (cents,
//!   `*_dollars`, `orderbook_fp`; `null` arrays for an empty book), where both arrays hold
//!   bids (YES bids and NO bids), and `/markets/trades`.
//! - `recordings`: the manifest of recorded bodies the demo and the replay server serve.
//!
//! A book is read as its first outcome's [`Ladder`] (YES on Kalshi, the first token on
//! Polymarket); `marketlens_domain::depth::binary_books` derives the second outcome's.
//! A level that makes no sense (a price outside `[0, 1]`, a size of zero) is dropped by
//! [`Ladder::new`]; a body that is not the expected shape is a [`DepthPayloadError`].

pub mod kalshi;
pub mod polymarket;
pub mod recordings;

use marketlens_domain::depth::Ladder;

/// A depth body that cannot be read. Never a panic: a connector maps it to an upstream
/// error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}: {reason}")]
pub struct DepthPayloadError {
    /// Which payload (`Kalshi orderbook`, `Polymarket /book`, ...).
    pub what: &'static str,
    pub reason: String,
    /// Not JSON at all, or cut short: a garbled transfer, worth fetching again.
    pub garbled: bool,
}

impl DepthPayloadError {
    pub(crate) fn new(what: &'static str, error: impl std::fmt::Display) -> DepthPayloadError {
        DepthPayloadError {
            what,
            reason: error.to_string(),
            garbled: false,
        }
    }

    /// A body serde could not read: garbled when it is not JSON, else the wrong shape.
    pub(crate) fn json(what: &'static str, error: serde_json::Error) -> DepthPayloadError {
        DepthPayloadError {
            garbled: error.is_syntax() || error.is_eof(),
            ..DepthPayloadError::new(what, error)
        }
    }
}

/// A book's first-outcome ladder and the exchange's time for it, if the body says.
#[derive(Debug, Clone, PartialEq)]
pub struct BookReading {
    pub ladder: Ladder,
    pub timestamp: Option<marketlens_domain::time::Timestamp>,
}

/// One trade as the exchange states it, before its outcome is named by the market's
/// outcomes: `outcome_index` 0 is the first outcome (YES on Kalshi).
#[derive(Debug, Clone, PartialEq)]
pub struct TradeReading {
    pub id: String,
    pub time: marketlens_domain::time::Timestamp,
    pub outcome_index: usize,
    pub price: f64,
    pub size: f64,
    pub taker_side: marketlens_domain::depth::TakerSide,
}

/// A page of trades and the exchange's token for the next one.
#[derive(Debug, Clone, PartialEq)]
pub struct TradesReading {
    pub trades: Vec<TradeReading>,
    /// How many records the page held, read or not: whether a page was full, and so whether
    /// more may follow, is the exchange's count, not ours (a record skipped as unreadable must
    /// not end the paging).
    pub records: usize,
    /// Kalshi's `cursor` (`None` when empty or absent). Polymarket's Data API pages by
    /// offset and sends no token.
    pub cursor: Option<String>,
}
