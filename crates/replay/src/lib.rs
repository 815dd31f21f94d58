//! A local HTTP and WebSocket server that replays the recorded Polymarket and Kalshi payloads with each
//! exchange's pagination, and injects faults, so that the sync engine's real HTTP code paths
//! can be tested without the internet. Test support only: deterministic, in memory, bound to
//! `127.0.0.1`.
//!
//! - [`ReplayData`] holds the records, as recorded on the wire: [`ReplayData::recorded`] reads
//!   `demo-data/`; [`ReplayData::scaled`] repeats it with renamed ids for throughput tests.
//! - [`ReplayServer`] serves them in a background task until dropped; a test queues
//!   [`Fault`]s, edits records between two syncs and reads back the requests it received.
//! - The `marketlens-replay` binary serves scaled data for benchmarks.
//!
//! # Endpoints
//!
//! Under [`ReplayServer::polymarket_url`] (Gamma):
//!
//! | endpoint | records | page size | filters |
//! |---|---|---|---|
//! | `GET /events/keyset` | `polymarket_events`, with nested `markets` | 20, at most 500 | `closed`, `active`, `archived` |
//! | `GET /markets/keyset` | see below | 20, at most 100 | repeated `id=`, `closed`, `active`, `archived` |
//!
//! Pages answer `{"events" | "markets": [...], "next_cursor": "..."}`, without `next_cursor`
//! on the last page; `after_cursor` asks for the next one, and `offset` is refused. The
//! markets served are every top-level market as recorded, then every market nested in an
//! event whose id is not listed yet, given an `"events": [<its event without markets>]`
//! back-reference like the real `/markets` endpoint gives.
//!
//! Under [`ReplayServer::kalshi_url`] (Kalshi Trade API v2):
//!
//! | endpoint | records | page size | filters |
//! |---|---|---|---|
//! | `GET /events` | `kalshi_events` | 100, at most 200 | `with_nested_markets`, `status` |
//! | `GET /markets` | `kalshi_markets` | 100, at most 1000 | `tickers`, `event_ticker`, `status` |
//!
//! Pages answer `{"cursor": "...", "events" | "markets": [...]}` (events add `"milestones":
//! []`) with `"cursor": ""` on the last page; `cursor` asks for the next one. Events lose
//! their `markets` unless `with_nested_markets=true`, and then an event recorded without
//! markets gets `"markets": []`, as the real API always nests a list. `status=open` keeps
//! markets (events: with a nested market) whose status is `active` or `open`;
//! `status=closed` and `status=settled` those `closed`, `finalized` or `settled`.
//!
//! Order books and trades (Polymarket's CLOB `/book` and Data API `/trades` under
//! [`ReplayServer::polymarket_clob_url`] and [`ReplayServer::polymarket_data_url`], Kalshi's
//! `/markets/{ticker}/orderbook` and `/markets/trades`) are served from the recordings of
//! `demo-data/depth/` for the markets their manifest names (see the `depth` module).
//!
//! Under `/news/` ([`ReplayServer::news_url`]): each recorded feed file of `demo-data/news/`
//! (`GET /news/bbc-news-home-2020-08.xml`), byte for byte, broken captures included.
//!
//! WebSocket streams (the `stream` module): Polymarket's CLOB market channel at
//! [`ReplayServer::polymarket_ws_url`] and Kalshi's WebSocket API v2 at
//! [`ReplayServer::kalshi_ws_url`] answer subscriptions as the exchanges do and play the
//! recorded frames (and frames written from the documentation where none was recorded) at the
//! speed [`ReplayServer::set_stream_speed`] sets, with [`StreamFault`]s.
//!
//! Every listing ignores parameters it does not know, as the real APIs do. A bad `limit`
//! (0, above the maximum, not a number), a flag other than `true`/`false`, an unknown
//! `status`, or a cursor the server did not issue for that listing get a 400 with a JSON
//! error body; an unknown path gets a 404. Cursors are opaque hex strings.
//!
//! # The recorded data
//!
//! [`ReplayData::recorded`] reads the files at run time from `demo-data/` (see each folder's
//! `SOURCES.md`):
//!
//! - **Polymarket events**: 110 (100 of `gamma-events-1.json`, then 10 of
//!   `gamma-events-2.json`), nesting 301 markets. 10 events are closed.
//! - **Polymarket markets**: 1,000 top-level (500 of `gamma-markets-1.json`, then 500 of
//!   `gamma-markets-2.json`). 9 nested markets are also top-level markets, so
//!   `/markets/keyset` serves 1,292 markets: 1,000 + 292.
//! - **Kalshi events**: 203, de-duplicated by `event_ticker`, first recording kept: 6 of
//!   `events-nested-1.json` (nesting 16 markets), then 197 new of `events-2.json`. All of
//!   `events-1.json` and the event of `event-single-1.json` were seen already (the nested
//!   recording of `KXELONMARS-99` wins).
//! - **Kalshi markets**: 775, de-duplicated by `ticker`: 754 of `markets-1.json`, 5 of
//!   `markets-2.json`, and the 16 nested in events.
//!
//! So one copy serves 313 events and **2,067 markets** (1,292 + 775):
//! [`ReplayData::scaled`]`(25)` serves 51,675 markets, `scaled(49)` just over 100,000.

mod catalog;
mod data;
mod depth;
mod error;
mod fault;
mod kalshi;
mod news;
mod page;
mod polymarket;
mod server;
mod stream;

pub use data::ReplayData;
pub use depth::DepthRecordings;
pub use fault::{Fault, MALFORMED_BODY};
pub use server::ReplayServer;
pub use stream::{MALFORMED_FRAME, StreamFault};
