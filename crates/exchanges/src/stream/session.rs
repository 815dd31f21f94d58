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

#[cfg(test)]
impl Reaction {
    /// The messages to send, read as JSON.
    pub(crate) fn sent(&self) -> Vec<serde_json::Value> {
        self.messages
            .iter()
            .map(|text| serde_json::from_str(text).unwrap())
            .collect()
    }
}

/// One exchange's stream protocol over one connection at a time.
pub trait StreamSession: Send {
    fn exchange(&self) -> Exchange;

    /// The markets followed, kept alike by every session.
    fn following(&self) -> &Following;

    fn following_mut(&mut self) -> &mut Following;

    /// Follows `market` (already followed: nothing changes). The connector counts the
    /// follows of [`LiveFeed`](marketlens_domain::stream::LiveFeed) and calls this on the
    /// first only. Nothing is sent until [`StreamSession::flush`].
    fn follow(&mut self, market: &StreamMarket) {
        self.following_mut().follow(market);
    }

    /// Stops following `market` (the connector calls this on its last unfollow).
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

    /// Called every few hundred milliseconds: what is due now (a book asked for that did not
    /// come is reported interrupted and asked for again; a failed subscription is retried).
    fn tick(&mut self, now: Timestamp) -> Reaction;

    /// The reader of the updates missed some of `markets`' (it lagged and they were dropped):
    /// each is reported interrupted, even if it was before, and its whole book asked for
    /// afresh, so that the reader can rebuild it.
    fn resync(&mut self, markets: &[Uuid], now: Timestamp) -> Reaction;

    /// A text frame, received at `received`. An unreadable frame is an error and changes
    /// nothing; frames of kinds the session does not use are read and ignored.
    fn frame(&mut self, text: &str, received: Timestamp) -> Result<Reaction, DepthPayloadError>;

    /// The text to send every few seconds to keep the connection open, if the exchange wants
    /// one (Polymarket's `PING`; Kalshi pings the client instead).
    fn heartbeat(&self) -> Option<&'static str>;
}
