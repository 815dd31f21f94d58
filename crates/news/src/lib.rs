//! News for explain: the pure core of issue 5.
//!
//! Explain promises "a quick summary plus key factors taken from recent news", answered from
//! news the service has already gathered. This crate turns feed bytes into clean articles,
//! tells which ones are repeats, finds the recent articles that concern a market (and refuses
//! the ones that merely share its words), and picks a few sentences from them as key factors.
//!
//! Architecture invariant: like the domain crate, this crate does no I/O. It never fetches a
//! feed, opens a database or reads the clock: callers pass bytes in and "now" in, so every
//! function here is deterministic and testable over recorded feeds.
//!
//! - [`feed`]: feed bytes → [`Article`]s, with the ways real feeds break named in [`FeedError`].
//!   Helpers: [`feed_bytes`] (encodings, HTML pages, cut-off downloads), [`feed_date`]
//!   (dates as feeds write them), [`plain_text`] and [`sentences`] (HTML to clean sentences),
//!   [`canonical_url`] (one spelling per link).
//! - [`dedup`]: repeats by canonical URL and by near-identical headline, incrementally.
//! - [`query`]: what a market is about, as words and subject entities.
//! - [`index`]: a BM25 index over recent articles that refuses articles not about the subject.
//! - [`key_factors`]: at most five short, distinct, extracted statements, each with its article.
//! - [`default_feeds`]: the public feeds polled when none are configured.

pub mod canonical_url;
pub mod dedup;
pub mod default_feeds;
pub mod feed;
pub mod feed_bytes;
pub mod feed_date;
pub mod index;
pub mod key_factors;
pub mod plain_text;
pub mod query;
pub mod sentences;

pub use dedup::{Deduplicator, Repeat, deduplicate};
pub use default_feeds::{DEFAULT_FEEDS, DefaultFeed};
pub use feed::{FeedError, ParsedFeed, Skipped, parse_feed};
pub use index::{Found, IndexedArticle, MarketLife, NewsIndex, RankedArticle, Recency};
pub use key_factors::{FactorSource, KeyFactor, MAX_KEY_FACTORS, key_factors};
pub use query::{Entity, NewsQuery};
