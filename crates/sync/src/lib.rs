//! The write path: everything that puts exchange data into the store, live from the exchanges'
//! public HTTP APIs or from recorded files, and keeps the matches and the history current.
//!
//! - [`settings`]: base URLs, page sizes, request rates, timeouts and retries per exchange.
//! - [`http`]: one HTTP GET, paced, retried with exponential backoff and jitter on timeouts,
//!   5xx, 429 (honouring `Retry-After`) and garbled bodies, with a cap on the body's size.
//! - [`fetch`]: an exchange's pages through it, normalized.
//! - [`source`]: what to ask each exchange for: the pages of a full or incremental walk and the
//!   look-ups of single markets.
//! - [`engine`]: one run for one exchange: walk the pages, normalize and upsert each (one
//!   transaction per page), then check the markets stored as open that the walk did not see.
//! - [`depth`]: order books and trades for the API, from the exchanges' REST endpoints with a
//!   short shared cache, or from recordings (the demo).
//! - [`news`]: the configured news feeds into the store, repeats cleared, old articles aged out.
//! - [`write`]: normalized records into the store, the step a sync's page and an imported
//!   file share.
//! - [`import`]: recorded payload and feed files into the store (`import`, `demo`).
//! - [`matching`]: cross-exchange matches, from scratch or kept current after each sync.
//! - [`live_history`]: a live stream's prices into the price history, once a second, by the
//!   node holding the sync lease.
//! - [`schedule`]: the background loops of a serving node (one per exchange, news, history
//!   expiry), on one node at a time under the store's sync lease.
//!
//! Fetched pages go through the same normalizers as imported files, so a live sync and an
//! import of a recording are the same operation. A run that dies half-way leaves every page it
//! finished stored and nothing half-written; the next run completes it, because upserts are
//! idempotent.

pub mod depth;
pub mod engine;
pub mod fetch;
pub mod http;
pub mod import;
pub mod live_history;
pub mod matching;
pub mod news;
pub mod schedule;
pub mod settings;
pub mod source;
pub mod write;

pub use engine::{SyncReport, sync_exchange};
pub use fetch::Fetcher;
pub use http::FetchError;
pub use news::{FeedFetcher, NewsReport, StoredNews, poll_feeds};
pub use settings::{ExchangeSettings, SyncSettings};
