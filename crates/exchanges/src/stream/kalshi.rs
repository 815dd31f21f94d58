//! Kalshi's WebSocket API v2 as a [`StreamSession`].
//!
//! Each batch of newly followed markets is one `subscribe` command to three channels,
//! `orderbook_delta` (private: the connection must be authenticated), `ticker` and `trade`;
//! Kalshi answers one `subscribed` per channel, each with its own subscription id (`sid`),
//! then an `orderbook_snapshot` per market. Unfollowed markets leave their subscriptions by
//! `update_subscription` (`delete_markets`), or by `unsubscribe` when nothing is left in one.
//!
//! A book holds **bids only**: YES bids and NO bids. A NO bid at `p` is an ask at `1 - p` of
//! the first outcome (YES) and a bid at `p` of the second (NO); a YES bid at `p` is a bid of
//! the first outcome and an ask at `1 - p` of the second. A delta is a difference: it is
//! applied, and the size now is sent.
//!
//! Every message of a subscription carries the next `seq`. A gap in an `orderbook_delta`
//! subscription means a lost change: its markets are interrupted, the subscription is
//! dropped, and they are subscribed afresh for a new snapshot. (A gap in `trade` loses a
//! trade that cannot be asked for again; it is reported and the stream goes on.)

use std::collections::HashMap;

use marketlens_domain::Exchange;
use marketlens_domain::depth::{Ladder, Level, Trade, binary_books, round_price};
use marketlens_domain::stream::{BookSide, FeedState, LevelChange, MarketChange, MarketUpdate, StreamMarket};
use marketlens_domain::time::Timestamp;
use serde_json::json;
use uuid::Uuid;

use super::following::Following;
use super::kalshi_frames::{self as frames, BidSide, Delta, Frame, Message, Ticker};
use super::levels::LevelMap;
use super::session::{Reaction, StreamSession};
use super::ticks::{PriceBoard, Stated};
use crate::depth::{DepthPayloadError, TradeReading};

const BOOK_CHANNEL: &str = "orderbook_delta";
const CHANNELS: [&str; 3] = [BOOK_CHANNEL, "ticker", "trade"];

/// The WebSocket API session (see the module documentation).
#[derive(Debug, Default)]
pub struct KalshiSession {
    following: Following,
    /// Every followed market by its ticker.
    tickers: HashMap<String, Uuid>,
    /// YES and NO bids of each market whose snapshot has arrived on this connection.
    books: HashMap<Uuid, BidBook>,
    prices: PriceBoard,
    /// The id of the next command (ids are per connection).
    next_id: u64,
    /// Subscribe commands not yet answered by every channel, by command id.
    pending: HashMap<u64, Pending>,
    subscriptions: HashMap<u64, Subscription>,
    connected: bool,
}

#[derive(Debug, Default)]
struct BidBook {
    yes: LevelMap,
    no: LevelMap,
}

impl BidBook {
    /// The first outcome's ladder: YES bids, and NO bids at `1 - p` as asks.
    fn ladder(&self) -> Ladder {
        let asks = self.no.levels().map(|level| Level {
            price: 1.0 - level.price,
            size: level.size,
        });
        Ladder::new(self.yes.levels(), asks)
    }
}

#[derive(Debug)]
struct Pending {
    tickers: Vec<String>,
    /// Channels that have not answered yet: each answers `subscribed` with its own sid.
    channels_left: usize,
}

#[derive(Debug)]
struct Subscription {
    channel: String,
    tickers: Vec<String>,
    last_seq: Option<u64>,
}

impl KalshiSession {
    pub fn new() -> KalshiSession {
        KalshiSession::default()
    }

    fn command(&mut self, cmd: &str, params: serde_json::Value) -> (u64, String) {
        self.next_id += 1;
        let id = self.next_id;
        (id, json!({"id": id, "cmd": cmd, "params": params}).to_string())
    }

    fn subscribe(&mut self, channels: &[&str], tickers: Vec<String>) -> Option<String> {
        if tickers.is_empty() {
            return None;
        }
        let (id, message) = self.command("subscribe", json!({"channels": channels, "market_tickers": tickers}));
        let channels_left = channels.len();
        self.pending.insert(id, Pending { tickers, channels_left });
        Some(message)
    }

    fn unsubscribe(&mut self, sids: Vec<u64>) -> Option<String> {
        if sids.is_empty() {
            return None;
        }
        for sid in &sids {
            self.subscriptions.remove(sid);
        }
        Some(self.command("unsubscribe", json!({"sids": sids})).1)
    }

    /// Takes `tickers` out of every subscription: the commands that tell Kalshi.
    fn leave(&mut self, tickers: &[String]) -> Vec<String> {
        for pending in self.pending.values_mut() {
            pending.tickers.retain(|ticker| !tickers.contains(ticker));
        }
        let mut emptied = Vec::new();
        let mut trimmed = Vec::new();
        for (sid, subscription) in &mut self.subscriptions {
            let before = subscription.tickers.len();
            subscription.tickers.retain(|ticker| !tickers.contains(ticker));
            if subscription.tickers.is_empty() {
                emptied.push(*sid);
            } else if subscription.tickers.len() < before {
                trimmed.push(*sid);
            }
        }
        emptied.sort_unstable();
        trimmed.sort_unstable();
        let mut messages: Vec<String> = trimmed
            .into_iter()
            .map(|sid| {
                let params = json!({"sids": [sid], "market_tickers": tickers, "action": "delete_markets"});
                self.command("update_subscription", params).1
            })
            .collect();
        messages.extend(self.unsubscribe(emptied));
        messages
    }

    fn market_of(&self, ticker: &str) -> Option<StreamMarket> {
        let id = self.tickers.get(ticker)?;
        self.following.get(*id).cloned()
    }

    /// Checks `frame`'s sequence number; on a gap in a book subscription, resubscribes its
    /// markets and says the frame is to be dropped.
    fn in_sequence(&mut self, frame: &Frame, received: Timestamp, reaction: &mut Reaction) -> bool {
        let (Some(sid), Some(seq)) = (frame.sid, frame.seq) else {
            return true;
        };
        let Some(subscription) = self.subscriptions.get_mut(&sid) else {
            return true;
        };
        let expected = subscription.last_seq.map(|last| last + 1);
        subscription.last_seq = Some(seq);
        if expected.is_none_or(|expected| expected == seq) {
            return true;
        }
        reaction.problems.push(format!(
            "sequence gap on subscription {sid} ({}): expected {}, got {seq}",
            subscription.channel,
            expected.unwrap_or_default()
        ));
        if subscription.channel != BOOK_CHANNEL {
            return true;
        }
        let tickers = subscription.tickers.clone();
        for ticker in &tickers {
            if let Some(market) = self.tickers.get(ticker).copied() {
                self.books.remove(&market);
                reaction
                    .updates
                    .extend(self.following.set_state(market, FeedState::Interrupted, received));
            }
        }
        reaction.messages.extend(self.unsubscribe(vec![sid]));
        reaction.messages.extend(self.subscribe(&[BOOK_CHANNEL], tickers));
        false
    }

    fn on_message(&mut self, message: Message, received: Timestamp, reaction: &mut Reaction) {
        match message {
            Message::Subscribed { id, channel, sid } => self.subscribed(id, channel, sid, reaction),
            Message::Error { id, reason } => {
                reaction.problems.push(reason);
                let Some(pending) = id.and_then(|id| self.pending.remove(&id)) else {
                    return;
                };
                for ticker in pending.tickers {
                    if let Some(market) = self.tickers.get(&ticker).copied() {
                        reaction
                            .updates
                            .extend(self.following.set_state(market, FeedState::Interrupted, received));
                    }
                }
            }
            Message::Snapshot {
                ticker,
                yes_bids,
                no_bids,
            } => {
                let Some(market) = self.market_of(&ticker) else {
                    return;
                };
                let book = BidBook {
                    yes: LevelMap::from_levels(yes_bids),
                    no: LevelMap::from_levels(no_bids),
                };
                reaction
                    .updates
                    .extend(self.following.set_state(market.id, FeedState::Live, received));
                reaction.updates.push(MarketUpdate {
                    market: market.id,
                    time: received,
                    received,
                    change: MarketChange::Book {
                        outcomes: binary_books(&market.outcomes, book.ladder()),
                    },
                });
                self.books.insert(market.id, book);
            }
            Message::Delta(delta) => self.delta(delta, received, reaction),
            Message::Ticker(ticker) => self.ticker(ticker, received, reaction),
            Message::Trade { ticker, trade } => self.trade(&ticker, trade, received, reaction),
            Message::Acknowledged | Message::Ignored => {}
        }
    }

    fn subscribed(&mut self, id: Option<u64>, channel: String, sid: u64, reaction: &mut Reaction) {
        let Some(id) = id else {
            return;
        };
        let Some(pending) = self.pending.get_mut(&id) else {
            return;
        };
        let tickers = pending.tickers.clone();
        // Every channel of one command answers with its id; the command is done with the last.
        pending.channels_left = pending.channels_left.saturating_sub(1);
        if pending.channels_left == 0 {
            self.pending.remove(&id);
        }
        if tickers.is_empty() {
            // Every market of the command was unfollowed before the answer came.
            reaction.messages.extend(self.unsubscribe(vec![sid]));
            return;
        }
        self.subscriptions.insert(
            sid,
            Subscription {
                channel,
                tickers,
                last_seq: None,
            },
        );
    }

    fn delta(&mut self, delta: Delta, received: Timestamp, reaction: &mut Reaction) {
        let Some(market) = self.market_of(&delta.ticker) else {
            return;
        };
        // Deltas before the snapshot (or after a gap, before the new one) have no base.
        let Some(book) = self.books.get_mut(&market.id) else {
            return;
        };
        let (bids, first_side) = match delta.side {
            BidSide::Yes => (&mut book.yes, BookSide::Bid),
            BidSide::No => (&mut book.no, BookSide::Ask),
        };
        let size = bids.add(delta.price, delta.delta);
        // A YES bid is the first outcome's bid and the second's ask at 1 - p; a NO bid the
        // first outcome's ask at 1 - p and the second's bid.
        let (first_price, second_price) = match delta.side {
            BidSide::Yes => (delta.price, 1.0 - delta.price),
            BidSide::No => (1.0 - delta.price, delta.price),
        };
        let mut changes = vec![LevelChange {
            outcome: market.outcomes[0].clone(),
            side: first_side,
            price: round_price(first_price),
            size,
        }];
        if market.outcomes.len() == 2 {
            changes.push(LevelChange {
                outcome: market.outcomes[1].clone(),
                side: match first_side {
                    BookSide::Bid => BookSide::Ask,
                    BookSide::Ask => BookSide::Bid,
                },
                price: round_price(second_price),
                size,
            });
        }
        reaction.updates.push(MarketUpdate {
            market: market.id,
            time: delta.time.unwrap_or(received),
            received,
            change: MarketChange::Levels { changes },
        });
    }

    /// Reports what a frame states of the first outcome's (YES) price, and its complement
    /// for the second (NO).
    fn state_prices(
        &mut self,
        market: &StreamMarket,
        first: Stated,
        time: Timestamp,
        received: Timestamp,
    ) -> Vec<MarketUpdate> {
        let second = Stated {
            last: first.last.map(|last| 1.0 - last),
            best: first
                .best
                .map(|(bid, ask)| (ask.map(|ask| 1.0 - ask), bid.map(|bid| 1.0 - bid))),
        };
        [(0, first), (1, second)]
            .into_iter()
            .filter_map(|(index, stated)| self.prices.state(market, index, stated))
            .map(|change| MarketUpdate {
                market: market.id,
                time,
                received,
                change,
            })
            .collect()
    }

    fn ticker(&mut self, ticker: Ticker, received: Timestamp, reaction: &mut Reaction) {
        let Some(market) = self.market_of(&ticker.ticker) else {
            return;
        };
        let stated = Stated {
            last: ticker.last,
            best: Some((ticker.yes_bid, ticker.yes_ask)),
        };
        let time = ticker.time.unwrap_or(received);
        reaction
            .updates
            .extend(self.state_prices(&market, stated, time, received));
    }

    fn trade(&mut self, ticker: &str, trade: TradeReading, received: Timestamp, reaction: &mut Reaction) {
        let Some(market) = self.market_of(ticker) else {
            return;
        };
        let Some(outcome) = market.outcomes.get(trade.outcome_index) else {
            return;
        };
        reaction.updates.push(MarketUpdate {
            market: market.id,
            time: trade.time,
            received,
            change: MarketChange::Trade(Trade {
                id: trade.id,
                time: trade.time,
                outcome: outcome.clone(),
                price: trade.price,
                size: trade.size,
                taker_side: trade.taker_side,
            }),
        });
        let yes_price = if trade.outcome_index == 0 {
            trade.price
        } else {
            1.0 - trade.price
        };
        let stated = Stated {
            last: Some(yes_price),
            best: None,
        };
        reaction
            .updates
            .extend(self.state_prices(&market, stated, trade.time, received));
    }
}

impl StreamSession for KalshiSession {
    fn exchange(&self) -> Exchange {
        Exchange::Kalshi
    }

    fn following(&self) -> &Following {
        &self.following
    }

    fn following_mut(&mut self) -> &mut Following {
        &mut self.following
    }

    fn flush(&mut self, _now: Timestamp) -> Reaction {
        let (added, removed) = self.following.take_changes();
        let removed_tickers: Vec<String> = removed.iter().map(|market| market.external_id.clone()).collect();
        for market in &removed {
            self.tickers.remove(&market.external_id);
            self.books.remove(&market.id);
            self.prices.forget(market.id);
        }
        let added_tickers: Vec<String> = added.iter().map(|market| market.external_id.clone()).collect();
        for market in &added {
            self.tickers.insert(market.external_id.clone(), market.id);
        }
        let mut reaction = Reaction::default();
        if self.connected {
            reaction.messages.extend(self.leave(&removed_tickers));
            reaction.messages.extend(self.subscribe(&CHANNELS, added_tickers));
        }
        reaction
    }

    fn connected(&mut self, now: Timestamp) -> Reaction {
        let mut reaction = self.flush(now);
        self.connected = true;
        let mut tickers: Vec<String> = self.tickers.keys().cloned().collect();
        tickers.sort_unstable();
        reaction.messages.extend(self.subscribe(&CHANNELS, tickers));
        reaction
    }

    fn disconnected(&mut self, now: Timestamp) -> Reaction {
        self.connected = false;
        self.books.clear();
        self.pending.clear();
        self.subscriptions.clear();
        self.next_id = 0;
        let mut reaction = self.flush(now);
        reaction.updates.extend(self.following.interrupt_all(now));
        reaction
    }

    fn frame(&mut self, text: &str, received: Timestamp) -> Result<Reaction, DepthPayloadError> {
        let frame = frames::read(text)?;
        let mut reaction = Reaction::default();
        if self.in_sequence(&frame, received, &mut reaction) {
            self.on_message(frame.message, received, &mut reaction);
        }
        Ok(reaction)
    }

    fn heartbeat(&self) -> Option<&'static str> {
        None
    }
}

#[cfg(test)]
mod tests;
