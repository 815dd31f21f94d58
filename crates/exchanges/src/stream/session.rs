//! What the connectors of `marketlens_connectors` drive: one exchange's protocol as a state
//! machine without I/O. The connector owns the socket, the clock and the timers; a session
//! says what to send and what to deliver, so every rule of the protocol is tested on literal
//! frames.

use marketlens_domain::Exchange;
use marketlens_domain::stream::{MarketUpdate, StreamMarket};
use marketlens_domain::time::Timestamp;
use uuid::Uuid;

use super::following::Following;
use crate::depth::DepthPayloadError;

/// What a session wants done after an event.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Reaction {
    /// Updates to deliver, in order.
    pub updates: Vec<MarketUpdate>,
    /// Text messages to send to the exchange, in order.
    pub messages: Vec<String>,
    /// What the exchange said went wrong (an `error` reply, a sequence gap), worth a warning.
    pub problems: Vec<String>,
}

/// One exchange's stream protocol over one connection at a time.
pub trait StreamSession: Send {
    fn exchange(&self) -> Exchange;

    /// The markets followed and their counts, kept alike by every session.
    fn following(&self) -> &Following;

    fn following_mut(&mut self) -> &mut Following;

    /// Follows `market` once more (see [`LiveFeed`](marketlens_domain::stream::LiveFeed)).
    /// Nothing is sent until [`StreamSession::flush`].
    fn follow(&mut self, market: &StreamMarket) {
        self.following_mut().follow(market);
    }

    /// Follows `market` once less.
    fn unfollow(&mut self, market: Uuid) {
        self.following_mut().unfollow(market);
    }

    /// Whether any market is followed (a connector connects only then).
    fn is_following(&self) -> bool {
        !self.following().is_empty()
    }

    /// The follows and unfollows since the last flush, in as few messages as the exchange
    /// allows; nothing while disconnected (the next connection subscribes everything).
    fn flush(&mut self, now: Timestamp) -> Reaction;

    /// A connection opened: the messages that subscribe every followed market.
    fn connected(&mut self, now: Timestamp) -> Reaction;

    /// The connection dropped or stalled: every followed market is interrupted until its
    /// next whole book.
    fn disconnected(&mut self, now: Timestamp) -> Reaction;

    /// A text frame, received at `received`. An unreadable frame is an error and changes
    /// nothing; frames of kinds the session does not use are read and ignored.
    fn frame(&mut self, text: &str, received: Timestamp) -> Result<Reaction, DepthPayloadError>;

    /// The text to send every few seconds to keep the connection open, if the exchange wants
    /// one (Polymarket's `PING`; Kalshi pings the client instead).
    fn heartbeat(&self) -> Option<&'static str>;
}
