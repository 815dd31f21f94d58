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
//! trade that cannot be asked for again; it is reported and the stream goes on.) A delta
//! that would take a level below zero shows the book is out of step just as surely: that
//! market alone is resynchronised the same way.
//!
//! An `error` reply to a `subscribe` fails some of its channels, and the others may still
//! answer `subscribed`: the command is kept until its retry is due, every sid it was given is
//! recorded, and the channels that never answered are subscribed again for each market on
//! its own (so that one market Kalshi refuses cannot keep a batch out), waiting twice as long
//! after each failure.

use std::collections::HashMap;
use std::time::Duration;

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

/// The wait before the first retry of a failed subscription; it doubles with each failure.
const RETRY_FIRST: Duration = Duration::from_secs(1);
/// How many times the wait before a retry doubles at most (to 64 times the first).
const RETRY_DOUBLINGS: u32 = 6;

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
    /// The tickers asked for.
    tickers: Vec<String>,
    /// Tickers taken out of every channel before the answer came (unfollowed).
    withdrawn: Vec<String>,
    /// Tickers taken out of the book channel before its answer came (resubscribed apart).
    withdrawn_books: Vec<String>,
    /// The channels asked for: each answers `subscribed` with its own sid, or an `error`.
    channels: Vec<String>,
    /// The channels that answered `subscribed`.
    answered: Vec<String>,
    /// How many times these markets' subscription failed before this command.
    failures: u32,
    /// Set by an `error` reply: when the channels that did not answer are asked for again.
    retry_at: Option<Timestamp>,
}

impl Pending {
    /// Whether the subscription of `channel` this command makes still wants `ticker`.
    fn holds(&self, channel: &str, ticker: &String) -> bool {
        let withdrawn_book = channel == BOOK_CHANNEL && self.withdrawn_books.contains(ticker);
        !(self.withdrawn.contains(ticker) || withdrawn_book)
    }
}

#[derive(Debug)]
struct Subscription {
    channel: String,
    tickers: Vec<String>,
    last_seq: Option<u64>,
}

impl KalshiSession {
    /// A session that reports a market interrupted when its first snapshot has not come
    /// within `first_book_within` of its subscription.
    pub fn new(first_book_within: Duration) -> KalshiSession {
        KalshiSession {
            following: Following::new(first_book_within),
            ..KalshiSession::default()
        }
    }

    fn command(&mut self, cmd: &str, params: serde_json::Value) -> (u64, String) {
        self.next_id += 1;
        let id = self.next_id;
        (id, json!({"id": id, "cmd": cmd, "params": params}).to_string())
    }

    /// Subscribes `tickers` to `channels`, after `failures` failed attempts; a snapshot of
    /// each is awaited when the book channel is asked for.
    fn subscribe(&mut self, channels: &[&str], tickers: Vec<String>, now: Timestamp, failures: u32) -> Option<String> {
        if tickers.is_empty() {
            return None;
        }
        if channels.contains(&BOOK_CHANNEL) {
            for ticker in &tickers {
                if let Some(market) = self.tickers.get(ticker).copied() {
                    self.following.await_book(market, now);
                }
            }
        }
        let (id, message) = self.command("subscribe", json!({"channels": channels, "market_tickers": tickers}));
        let pending = Pending {
            tickers,
            withdrawn: Vec::new(),
            withdrawn_books: Vec::new(),
            channels: channels.iter().map(|channel| (*channel).to_owned()).collect(),
            answered: Vec::new(),
            failures,
            retry_at: None,
        };
        self.pending.insert(id, pending);
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

    /// Takes `tickers` out of every subscription (of `channel` only, when given): the
    /// commands that tell Kalshi, each subscription trimmed of the tickers it held.
    fn leave(&mut self, tickers: &[String], channel: Option<&str>) -> Vec<String> {
        for pending in self.pending.values_mut() {
            let asked = pending
                .tickers
                .iter()
                .filter(|ticker| tickers.contains(ticker))
                .cloned();
            match channel {
                None => pending.withdrawn.extend(asked),
                Some(_) => pending.withdrawn_books.extend(asked),
            }
        }
        let mut emptied = Vec::new();
        let mut trimmed = Vec::new();
        for (sid, subscription) in &mut self.subscriptions {
            if channel.is_some_and(|channel| channel != subscription.channel) {
                continue;
            }
            let (left, kept): (Vec<String>, Vec<String>) = std::mem::take(&mut subscription.tickers)
                .into_iter()
                .partition(|ticker| tickers.contains(ticker));
            subscription.tickers = kept;
            if subscription.tickers.is_empty() {
                emptied.push(*sid);
            } else if !left.is_empty() {
                trimmed.push((*sid, left));
            }
        }
        emptied.sort_unstable();
        trimmed.sort_unstable();
        let mut messages: Vec<String> = trimmed
            .into_iter()
            .map(|(sid, left)| {
                let params = json!({"sids": [sid], "market_tickers": left, "action": "delete_markets"});
                self.command("update_subscription", params).1
            })
            .collect();
        messages.extend(self.unsubscribe(emptied));
        messages
    }

    /// The books of `tickers` cannot be trusted: they are dropped, their markets interrupted
    /// (`forced`: even if they were already), taken out of their book subscriptions and
    /// subscribed afresh for new snapshots.
    fn resync_books(&mut self, tickers: Vec<String>, now: Timestamp, forced: bool, reaction: &mut Reaction) {
        for ticker in &tickers {
            let Some(market) = self.tickers.get(ticker).copied() else {
                continue;
            };
            self.books.remove(&market);
            let interrupted = if forced {
                self.following.interrupt(market, now)
            } else {
                self.following.set_state(market, FeedState::Interrupted, now)
            };
            reaction.updates.extend(interrupted);
        }
        if self.connected {
            reaction.messages.extend(self.leave(&tickers, Some(BOOK_CHANNEL)));
            reaction
                .messages
                .extend(self.subscribe(&[BOOK_CHANNEL], tickers, now, 0));
        }
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
        self.resync_books(tickers, received, false, reaction);
        false
    }

    fn on_message(&mut self, message: Message, received: Timestamp, reaction: &mut Reaction) {
        match message {
            Message::Subscribed { id, channel, sid } => self.subscribed(id, channel, sid, reaction),
            Message::Error { id, reason } => {
                reaction.problems.push(reason);
                self.failed(id, received, reaction);
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
        let (tickers, gone): (Vec<String>, Vec<String>) = pending
            .tickers
            .iter()
            .cloned()
            .partition(|ticker| pending.holds(&channel, ticker));
        // Every channel of one command answers with its id; the command is done with the last.
        pending.answered.push(channel.clone());
        if pending.answered.len() >= pending.channels.len() {
            self.pending.remove(&id);
        }
        if tickers.is_empty() {
            // Every market of the command was unfollowed (or resubscribed) before the answer.
            reaction.messages.extend(self.unsubscribe(vec![sid]));
            return;
        }
        if !gone.is_empty() {
            let params = json!({"sids": [sid], "market_tickers": gone, "action": "delete_markets"});
            reaction.messages.push(self.command("update_subscription", params).1);
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

    /// An `error` reply to command `id`: its markets are interrupted unless their book
    /// channel answered, and the channels that did not answer are retried after a wait.
    fn failed(&mut self, id: Option<u64>, received: Timestamp, reaction: &mut Reaction) {
        let Some(pending) = id.and_then(|id| self.pending.get_mut(&id)) else {
            return;
        };
        if pending.retry_at.is_some() {
            return;
        }
        let wait = RETRY_FIRST.saturating_mul(1 << pending.failures.min(RETRY_DOUBLINGS));
        pending.retry_at = Some(received + chrono::TimeDelta::from_std(wait).unwrap_or(chrono::TimeDelta::MAX));
        let book_failed = pending.channels.iter().any(|channel| channel == BOOK_CHANNEL)
            && !pending.answered.iter().any(|channel| channel == BOOK_CHANNEL);
        if !book_failed {
            return;
        }
        let held: Vec<String> = pending
            .tickers
            .iter()
            .filter(|ticker| pending.holds(BOOK_CHANNEL, ticker))
            .cloned()
            .collect();
        for ticker in held {
            if let Some(market) = self.tickers.get(&ticker).copied() {
                // The retry asks for the book again; until then none is awaited.
                self.following.stop_awaiting(market);
                reaction
                    .updates
                    .extend(self.following.set_state(market, FeedState::Interrupted, received));
            }
        }
    }

    /// Commands whose retry is due: the channels that never answered, asked for again for
    /// each market on its own.
    fn retry_failed(&mut self, now: Timestamp, reaction: &mut Reaction) {
        let mut due: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, pending)| pending.retry_at.is_some_and(|at| at <= now))
            .map(|(id, _)| *id)
            .collect();
        due.sort_unstable();
        for id in due {
            let Some(pending) = self.pending.remove(&id) else {
                continue;
            };
            for ticker in &pending.tickers {
                let channels: Vec<&str> = CHANNELS
                    .into_iter()
                    .filter(|channel| pending.channels.iter().any(|asked| asked == channel))
                    .filter(|channel| !pending.answered.iter().any(|answered| answered == channel))
                    .filter(|channel| pending.holds(channel, ticker))
                    .collect();
                if !channels.is_empty() {
                    reaction.messages.extend(self.subscribe(
                        &channels,
                        vec![ticker.clone()],
                        now,
                        pending.failures + 1,
                    ));
                }
            }
        }
    }

    fn delta(&mut self, delta: Delta, received: Timestamp, reaction: &mut Reaction) {
        let Some(market) = self.market_of(&delta.ticker) else {
            return;
        };
        let Some(first_outcome) = market.outcomes.first() else {
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
        let Some(size) = bids.add(delta.price, delta.delta) else {
            reaction.problems.push(format!(
                "a delta of {} at {} takes a {:?} bid of {} below zero: resynchronising its book",
                delta.delta, delta.price, delta.side, delta.ticker
            ));
            self.resync_books(vec![delta.ticker], received, false, reaction);
            return;
        };
        // A YES bid is the first outcome's bid and the second's ask at 1 - p; a NO bid the
        // first outcome's ask at 1 - p and the second's bid.
        let (first_price, second_price) = match delta.side {
            BidSide::Yes => (delta.price, 1.0 - delta.price),
            BidSide::No => (1.0 - delta.price, delta.price),
        };
        let mut changes = vec![LevelChange {
            outcome: first_outcome.clone(),
            side: first_side,
            price: round_price(first_price),
            size,
        }];
        if let [_, second_outcome] = market.outcomes.as_slice() {
            changes.push(LevelChange {
                outcome: second_outcome.clone(),
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

    fn ticker(&mut self, ticker: Ticker, received: Timestamp, reaction: &mut Reaction) {
        let Some(market) = self.market_of(&ticker.ticker) else {
            return;
        };
        let stated = Stated {
            last: ticker.last,
            best_bid: ticker.yes_bid,
            best_ask: ticker.yes_ask,
        };
        let time = ticker.time.unwrap_or(received);
        // What a frame states of the first outcome's (YES) price, and so of the second.
        reaction
            .updates
            .extend(self.prices.updates(&market, 0, stated, time, received));
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
            ..Stated::default()
        };
        reaction
            .updates
            .extend(self.prices.updates(&market, 0, stated, trade.time, received));
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

    fn flush(&mut self, now: Timestamp) -> Reaction {
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
            reaction.messages.extend(self.leave(&removed_tickers, None));
            reaction
                .messages
                .extend(self.subscribe(&CHANNELS, added_tickers, now, 0));
        }
        reaction
    }

    fn connected(&mut self, now: Timestamp) -> Reaction {
        let mut reaction = self.flush(now);
        self.connected = true;
        let mut tickers: Vec<String> = self.tickers.keys().cloned().collect();
        tickers.sort_unstable();
        reaction.messages.extend(self.subscribe(&CHANNELS, tickers, now, 0));
        reaction
    }

    fn tick(&mut self, now: Timestamp) -> Reaction {
        let mut reaction = Reaction::default();
        if !self.connected {
            return reaction;
        }
        self.retry_failed(now, &mut reaction);
        let overdue: Vec<String> = self
            .following
            .overdue(now)
            .into_iter()
            .map(|market| market.external_id)
            .collect();
        if !overdue.is_empty() {
            reaction
                .problems
                .push(format!("no snapshot in time for {}: asking again", overdue.join(", ")));
            self.resync_books(overdue, now, false, &mut reaction);
        }
        reaction
    }

    fn resync(&mut self, markets: &[Uuid], now: Timestamp) -> Reaction {
        let mut tickers: Vec<String> = markets
            .iter()
            .filter_map(|id| self.following.get(*id))
            .map(|market| market.external_id.clone())
            .collect();
        tickers.sort_unstable();
        let mut reaction = Reaction::default();
        self.resync_books(tickers, now, true, &mut reaction);
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
