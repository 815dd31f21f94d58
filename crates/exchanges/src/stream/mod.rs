//! The exchanges' live streams as they arrive over WebSocket, turned into
//! `marketlens_domain::stream`'s one form. Pure, like the rest of the crate: a session is a
//! state machine fed text frames and told when a connection opens or drops; it answers with
//! the updates to deliver and the messages to send. The sockets, timers, reconnects and
//! authentication belong to `marketlens_connectors`, so every rule here is tested on literal
//! frames without a network.
//!
//! - `session`: [`StreamSession`], what a connector drives, and its [`Reaction`].
//! - [`polymarket`] ([`PolymarketSession`]) over `polymarket_frames` (the CLOB market
//!   channel's events); [`kalshi`] ([`KalshiSession`]) over `kalshi_frames` (WebSocket API
//!   v2 messages). The frame readers reuse the REST depth readers (`crate::depth`) for what
//!   the two share: book levels, Kalshi's cents and dollars forms, Kalshi trades.
//! - `following`: counts of follows, pending subscription changes and each market's state;
//!   `levels`: one side of a kept book; `ticks`: each outcome's price as last stated.
//!
//! Each session keeps the books of the markets it follows, so that a level change is sent
//! as the size now (Kalshi sends differences), a whole book follows every (re)subscription,
//! and a market whose stream cannot be trusted (a dropped connection, a sequence gap) is
//! reported `Interrupted` until its next whole book.

mod following;
pub mod kalshi;
mod kalshi_frames;
mod levels;
pub mod polymarket;
mod polymarket_frames;
mod session;
mod ticks;

pub use following::Following;
pub use kalshi::KalshiSession;
pub use polymarket::PolymarketSession;
pub use session::{Reaction, StreamSession};
