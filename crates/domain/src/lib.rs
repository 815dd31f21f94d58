//! The Marketlens domain: what a market, an outcome, an event and an account are, and the
//! rules that hold for them whatever stores or serves them.
//!
//! Architecture invariant: this crate does no I/O. It never touches the network, the disk or
//! the clock (callers pass "now" in), so every function here is deterministic and cannot fail
//! for reasons outside its arguments. The one exception is key generation, which takes its
//! random source as a parameter.
//!
//! - [`exchange`]: the two source exchanges and their canonical spellings.
//! - [`market`], [`event`]: the normalized catalogue records every exchange is mapped onto,
//!   and the price each exchange displays for an outcome.
//! - [`category`]: the fixed category set and the mapping of exchange labels onto it.
//! - [`ids`]: deterministic UUIDs, so a market keeps its id on every node and re-import.
//! - [`text`]: word splitting shared by search, matching and explain.
//! - [`market_url`]: parsing (never fetching) public market URLs of both exchanges.
//! - [`redact`]: URLs and error messages fit to show, without credentials.
//! - [`matching`]: the cross-exchange matcher that fills `matchedMarkets`.
//! - [`account`]: accounts, keys and the ledger.
//! - [`api_key`], [`billing`], [`rate_limit`]: the rules of paid access.
//! - [`upsert`]: when an incoming record replaces a stored one.
//! - [`depth`]: order books per outcome and trades, one form for both exchanges, and the
//!   [`depth::DepthSource`] the API reads them from.
//! - [`stream`]: live market updates in one form for both exchanges, and the
//!   [`stream::LiveFeed`] that delivers them.
//! - [`history`]: price history as bars of three resolutions, their retention, and candles.

pub mod account;
pub mod api_key;
pub mod article;
pub mod billing;
pub mod category;
pub mod depth;
pub mod event;
pub mod exchange;
pub mod history;
pub mod ids;
pub mod market;
pub mod market_url;
pub mod matching;
pub mod rate_limit;
pub mod redact;
pub mod stream;
pub mod text;
pub mod time;
pub mod upsert;

pub use category::Category;
pub use event::Event;
pub use exchange::Exchange;
pub use market::{Market, MarketStatus, Outcome};
