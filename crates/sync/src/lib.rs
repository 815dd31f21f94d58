//! Live exchange sync: keeps the store fresh from the exchanges' public HTTP APIs.
//!
//! - [`settings`]: base URLs, page sizes, request rates, timeouts and retries per exchange.
//! - [`http`]: one HTTP GET, paced, retried with exponential backoff and jitter on timeouts,
//!   5xx, 429 (honouring `Retry-After`) and garbled bodies, with a cap on the body's size.
//! - [`fetch`]: an exchange's pages through it, normalized.
//! - [`source`]: what to ask each exchange for: the pages of a full or incremental walk and the
//!   look-ups of single markets.
//! - [`engine`]: one run for one exchange: walk the pages, normalize and upsert each (one
//!   transaction per page), then check the markets stored as open that the walk did not see.
//! - [`news`]: the configured news feeds into the store, repeats cleared, old articles aged out.
//!
//! Fetched pages go through the same normalizers as imported files, so a live sync and an
//! import of a recording are the same operation. A run that dies half-way leaves every page it
//! finished stored and nothing half-written; the next run completes it, because upserts are
//! idempotent.

pub mod engine;
pub mod fetch;
pub mod http;
pub mod news;
pub mod settings;
pub mod source;

pub use engine::{SyncReport, sync_exchange};
pub use fetch::Fetcher;
pub use http::FetchError;
pub use news::{FeedFetcher, NewsReport, StoredNews, poll_feeds};
pub use settings::{ExchangeSettings, SyncSettings};
