//! Polymarket's market channel as a [`StreamSession`].
//!
//! A market is followed through both its tokens (one per outcome): trades come from each
//! token, named after its outcome. Its book is read from the first token only and the second
//! outcome's is the complement (`marketlens_domain::depth`), as the REST books are, so a
//! `price_change` of the first token changes a level of each outcome: a bid at `p` of the
//! first is an ask at `1 - p` of the second. The second token's own `book`, level changes and
//! best prices state the same liquidity again and are not used; its trades are its outcome's,
//! and set both outcomes' last price (`ticks`: the second's is the first's complement). The
//! best bid and ask of each outcome's price are those of the first token's book as kept (a
//! `price_change`'s own `best_bid`/`best_ask` until that book comes), so that the price sent
//! is the one Polymarket displays: the middle of a book whose spread is at most 0.10, else
//! the last trade (`marketlens_domain::market::displayed_price`).
//!
//! Subscribing: the first message of a connection is `{"assets_ids": [...], "type":
//! "market"}`; later ones add or remove tokens with `"operation": "subscribe"` or
//! `"unsubscribe"`. The exchange answers each subscribed token with a `book`. The client
//! sends `PING` every ten seconds and the exchange answers `PONG`. There is no sequence
//! number: a lost frame cannot be seen, only a dropped or stalled connection.
//!
//! A market is resynchronised (its book overdue, or its updates missed by a lagging reader)
//! by unsubscribing its tokens and subscribing them again, which brings a fresh `book`.

use std::collections::HashMap;
use std::time::Duration;

use marketlens_domain::Exchange;
use marketlens_domain::depth::{Ladder, Trade, binary_books};
use marketlens_domain::stream::{BookSide, FeedState, LevelChange, MarketChange, MarketUpdate, StreamMarket};
use marketlens_domain::time::Timestamp;
use serde_json::json;
use uuid::Uuid;

use super::following::Following;
use super::levels::LevelMap;
use super::polymarket_frames::{self as frames, Event, LastTrade, PriceChange};
use super::session::{Reaction, StreamSession};
use super::ticks::{PriceBoard, Stated};
use crate::depth::DepthPayloadError;

/// The market channel session (see the module documentation).
#[derive(Debug, Default)]
pub struct PolymarketSession {
    following: Following,
    /// Every followed token: its market and its outcome's index.
    tokens: HashMap<String, (Uuid, usize)>,
    /// The first token's book of each market whose `book` has arrived on this connection.
    books: HashMap<Uuid, TokenBook>,
    prices: PriceBoard,
    connected: bool,
}

#[derive(Debug, Default)]
struct TokenBook {
    bids: LevelMap,
    asks: LevelMap,
}

impl TokenBook {
    fn ladder(&self) -> Ladder {
        Ladder::new(self.bids.levels(), self.asks.levels())
    }

    /// What the book states of its token's price: its best bid and ask.
    fn best_prices(&self) -> Stated {
        Stated {
            last: None,
            best_bid: Some(self.bids.highest()),
            best_ask: Some(self.asks.lowest()),
        }
    }
}

impl PolymarketSession {
    /// A session that reports a market interrupted when its first `book` has not come within
    /// `first_book_within` of its subscription.
    pub fn new(first_book_within: Duration) -> PolymarketSession {
        PolymarketSession {
            following: Following::new(first_book_within),
            ..PolymarketSession::default()
        }
    }

    /// Awaits the first book of each of `markets` (those with tokens), asked for at `now`.
    fn await_books(&mut self, markets: &[StreamMarket], now: Timestamp) {
        for market in markets.iter().filter(|market| !market.tokens.is_empty()) {
            self.following.await_book(market.id, now);
        }
    }

    /// Drops the books of `markets`, interrupts them (`forced`: even if they were already)
    /// and unsubscribes and subscribes their tokens again for fresh books.
    fn resync_books(&mut self, markets: &[StreamMarket], now: Timestamp, forced: bool) -> Reaction {
        let mut reaction = Reaction::default();
        for market in markets {
            self.books.remove(&market.id);
            let interrupted = if forced {
                self.following.interrupt(market.id, now)
            } else {
                self.following.set_state(market.id, FeedState::Interrupted, now)
            };
            reaction.updates.extend(interrupted);
        }
        if self.connected {
            reaction
                .messages
                .extend(self.subscription(markets, Some("unsubscribe")));
            reaction.messages.extend(self.subscription(markets, Some("subscribe")));
            self.await_books(markets, now);
        }
        reaction
    }

    fn subscription(&self, markets: &[StreamMarket], operation: Option<&str>) -> Option<String> {
        let tokens: Vec<&String> = markets.iter().flat_map(|market| &market.tokens).collect();
        if tokens.is_empty() {
            return None;
        }
        let message = match operation {
            None => json!({"assets_ids": tokens, "type": "market"}),
            Some(operation) => json!({"assets_ids": tokens, "operation": operation}),
        };
        Some(message.to_string())
    }

    /// Indexes the tokens of newly followed markets; a market without tokens cannot be
    /// followed and is reported interrupted.
    fn index(&mut self, added: &[StreamMarket], now: Timestamp, reaction: &mut Reaction) {
        for market in added {
            if market.tokens.is_empty() {
                reaction
                    .updates
                    .extend(self.following.set_state(market.id, FeedState::Interrupted, now));
                reaction
                    .problems
                    .push(format!("market {} has no CLOB tokens to follow", market.external_id));
            }
            for (index, token) in market.tokens.iter().enumerate() {
                self.tokens.insert(token.clone(), (market.id, index));
            }
        }
    }

    fn on_event(&mut self, event: Event, received: Timestamp, reaction: &mut Reaction) {
        match event {
            Event::Book { asset_id, book } => {
                let Some((market, 0)) = self.tokens.get(&asset_id).copied() else {
                    return;
                };
                let Some(followed) = self.following.get(market).cloned() else {
                    return;
                };
                let token_book = TokenBook {
                    bids: LevelMap::from_levels(book.ladder.bids.iter().copied()),
                    asks: LevelMap::from_levels(book.ladder.asks.iter().copied()),
                };
                let time = book.timestamp.unwrap_or(received);
                reaction
                    .updates
                    .extend(self.following.set_state(market, FeedState::Live, received));
                reaction.updates.push(MarketUpdate {
                    market,
                    time,
                    received,
                    change: MarketChange::Book {
                        outcomes: binary_books(&followed.outcomes, token_book.ladder()),
                    },
                });
                let best_prices = token_book.best_prices();
                self.books.insert(market, token_book);
                let prices = self.prices.updates(&followed, 0, best_prices, time, received);
                reaction.updates.extend(prices);
            }
            Event::PriceChange { time, changes } => {
                let time = time.unwrap_or(received);
                let mut levels: HashMap<Uuid, Vec<LevelChange>> = HashMap::new();
                let mut stated: Vec<((Uuid, usize), Stated)> = Vec::new();
                for change in changes {
                    self.price_change(change, &mut stated, &mut levels);
                }
                // The frame's best prices of each token as its last entry left them.
                for ((market, index), stated) in stated {
                    if let Some(followed) = self.following.get(market) {
                        let prices = self.prices.updates(followed, index, stated, time, received);
                        reaction.updates.extend(prices);
                    }
                }
                for (market, changes) in levels {
                    reaction.updates.push(MarketUpdate {
                        market,
                        time,
                        received,
                        change: MarketChange::Levels { changes },
                    });
                    // The best prices of the book as the frame left it.
                    if let (Some(followed), Some(book)) = (self.following.get(market), self.books.get(&market)) {
                        let prices = self.prices.updates(followed, 0, book.best_prices(), time, received);
                        reaction.updates.extend(prices);
                    }
                }
            }
            Event::LastTrade(trade) => self.last_trade(trade, received, reaction),
            Event::Ignored => {}
        }
    }

    /// Applies one entry of a `price_change` frame: its level to the kept book, or, where the
    /// book's best prices are not the ones stated, its best prices to `stated` (the token's
    /// latest, stated once the frame is read).
    fn price_change(
        &mut self,
        change: PriceChange,
        stated: &mut Vec<((Uuid, usize), Stated)>,
        levels: &mut HashMap<Uuid, Vec<LevelChange>>,
    ) {
        let Some((market, index)) = self.tokens.get(&change.asset_id).copied() else {
            return;
        };
        let Some(followed) = self.following.get(market).cloned() else {
            return;
        };
        // The first token's best prices are its kept book's, stated once the frame's changes
        // are applied; until its book comes, and for a token of a market of more than two
        // outcomes, they are the frame's. In a binary market the second token's best prices
        // state the first's again.
        let book_kept = index == 0 && self.books.contains_key(&market);
        if !book_kept && (index == 0 || followed.outcomes.len() != 2) {
            let best = Stated {
                last: None,
                best_bid: change.best_bid,
                best_ask: change.best_ask,
            };
            // A later entry overlays what it states on the earlier ones' (an entry stating no
            // best bid leaves the one stated before).
            match stated.iter_mut().find(|(token, _)| *token == (market, index)) {
                Some((_, latest)) => {
                    latest.best_bid = best.best_bid.or(latest.best_bid);
                    latest.best_ask = best.best_ask.or(latest.best_ask);
                }
                None => stated.push(((market, index), best)),
            }
        }
        // Levels are kept from the first token's book, once it has arrived.
        let (0, Some(book), Some(first_outcome)) = (index, self.books.get_mut(&market), followed.outcomes.first())
        else {
            return;
        };
        let side = match change.side {
            BookSide::Bid => &mut book.bids,
            BookSide::Ask => &mut book.asks,
        };
        let size = side.set(change.price, change.size);
        let changed = levels.entry(market).or_default();
        changed.push(LevelChange {
            outcome: first_outcome.clone(),
            side: change.side,
            price: marketlens_domain::depth::round_price(change.price),
            size,
        });
        if let [_, second] = followed.outcomes.as_slice() {
            changed.push(LevelChange {
                outcome: second.clone(),
                side: match change.side {
                    BookSide::Bid => BookSide::Ask,
                    BookSide::Ask => BookSide::Bid,
                },
                price: marketlens_domain::depth::round_price(1.0 - change.price),
                size,
            });
        }
    }

    fn last_trade(&mut self, trade: LastTrade, received: Timestamp, reaction: &mut Reaction) {
        let Some((market, index)) = self.tokens.get(&trade.asset_id).copied() else {
            return;
        };
        let Some(followed) = self.following.get(market).cloned() else {
            return;
        };
        let Some(outcome) = followed.outcomes.get(index) else {
            return;
        };
        let price = marketlens_domain::depth::round_price(trade.price);
        reaction.updates.push(MarketUpdate {
            market,
            time: trade.time,
            received,
            change: MarketChange::Trade(Trade {
                id: trade.id,
                time: trade.time,
                outcome: outcome.clone(),
                price,
                size: trade.size,
                taker_side: trade.taker_side,
            }),
        });
        let stated = Stated {
            last: Some(price),
            ..Stated::default()
        };
        let prices = self.prices.updates(&followed, index, stated, trade.time, received);
        reaction.updates.extend(prices);
    }
}

impl StreamSession for PolymarketSession {
    fn exchange(&self) -> Exchange {
        Exchange::Polymarket
    }

    fn following(&self) -> &Following {
        &self.following
    }

    fn following_mut(&mut self) -> &mut Following {
        &mut self.following
    }

    fn flush(&mut self, now: Timestamp) -> Reaction {
        let (added, removed) = self.following.take_changes();
        let mut reaction = Reaction::default();
        self.index(&added, now, &mut reaction);
        for market in &removed {
            self.tokens.retain(|_, (id, _)| *id != market.id);
            self.books.remove(&market.id);
            self.prices.forget(market.id);
        }
        if self.connected {
            reaction.messages.extend(self.subscription(&added, Some("subscribe")));
            self.await_books(&added, now);
            reaction
                .messages
                .extend(self.subscription(&removed, Some("unsubscribe")));
        }
        reaction
    }

    fn connected(&mut self, now: Timestamp) -> Reaction {
        let mut reaction = self.flush(now);
        self.connected = true;
        let markets: Vec<StreamMarket> = self.following.markets().cloned().collect();
        reaction.messages.extend(self.subscription(&markets, None));
        self.await_books(&markets, now);
        reaction
    }

    fn tick(&mut self, now: Timestamp) -> Reaction {
        let overdue = self.following.overdue(now);
        if overdue.is_empty() || !self.connected {
            return Reaction::default();
        }
        let mut reaction = self.resync_books(&overdue, now, false);
        let names: Vec<&str> = overdue.iter().map(|market| market.external_id.as_str()).collect();
        reaction
            .problems
            .push(format!("no book in time for {}: asking again", names.join(", ")));
        reaction
    }

    fn resync(&mut self, markets: &[Uuid], now: Timestamp) -> Reaction {
        let markets: Vec<StreamMarket> = markets
            .iter()
            .filter_map(|id| self.following.get(*id).cloned())
            .collect();
        self.resync_books(&markets, now, true)
    }

    fn disconnected(&mut self, now: Timestamp) -> Reaction {
        self.connected = false;
        self.books.clear();
        let mut reaction = self.flush(now);
        reaction.updates.extend(self.following.interrupt_all(now));
        reaction
    }

    fn frame(&mut self, text: &str, received: Timestamp) -> Result<Reaction, DepthPayloadError> {
        let mut reaction = Reaction::default();
        if text.trim() == "PONG" {
            return Ok(reaction);
        }
        for event in frames::read(text)? {
            self.on_event(event, received, &mut reaction);
        }
        Ok(reaction)
    }

    fn heartbeat(&self) -> Option<&'static str> {
        Some("PING")
    }
}

#[cfg(test)]
mod tests;
