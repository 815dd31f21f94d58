//! Live market updates in one form for both exchanges.
//!
//! The exchanges push changes over WebSockets in their own shapes: Polymarket a `book` per
//! token and `price_change` levels, Kalshi an `orderbook_snapshot` then `orderbook_delta`s of
//! YES and NO bids with a sequence number. A connector (`marketlens_exchanges::stream`) keeps
//! each followed market's book and turns every frame into a [`MarketUpdate`] in the form of
//! [`crate::depth`]: books per outcome, levels as fractions and contracts, Kalshi's NO bids
//! seen as YES asks. What serves them (`marketlens_api`'s stream hub) needs only this module:
//! it asks a [`LiveFeed`] to follow markets and reads the updates the feed sends back, whether
//! the feed is an exchange connection in this process or a relay of another node's.
//!
//! A level change carries the size now at its price, not a difference: a client that missed
//! nothing rebuilds the book by setting levels, and one that sees a gap in its sequence waits
//! for the next whole [`MarketChange::Book`] (sent after every reconnect and resync).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::depth::{DepthError, DepthMarket, Level, OutcomeBook, Trade, round_price};
use crate::exchange::Exchange;
use crate::time::Timestamp;

/// A market as a live feed follows it: ids come from the store, never from a caller.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StreamMarket {
    pub id: Uuid,
    pub exchange: Exchange,
    /// Polymarket's numeric market id, or Kalshi's ticker (the channel key on Kalshi).
    pub external_id: String,
    /// The market's outcome names, in order.
    pub outcomes: Vec<String>,
    /// Polymarket's CLOB token ids, one per outcome in the order of `outcomes` (the channel
    /// keys on Polymarket); empty for Kalshi.
    pub tokens: Vec<String>,
}

/// Which side of an outcome's book a level is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookSide {
    Bid,
    Ask,
}

/// One level of one outcome's book as it is now: `size` contracts at `price`; a size of 0
/// means the level is gone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LevelChange {
    pub outcome: String,
    pub side: BookSide,
    pub price: f64,
    pub size: f64,
}

/// An outcome's price as the exchange last reported it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PriceTick {
    pub outcome: String,
    /// The outcome's price as its exchange displays it, from the three below
    /// ([`crate::market::displayed_price`]): the price the catalogue states, and the one the
    /// price history records. `None` while they give none.
    pub price: Option<f64>,
    /// The last traded price, when the exchange sent one.
    pub last: Option<f64>,
    pub best_bid: Option<f64>,
    pub best_ask: Option<f64>,
}

/// Whether a feed is currently receiving a market's updates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FeedState {
    /// Receiving; a whole book follows every return to this state.
    Live,
    /// The connection dropped or stalled, or a gap was seen: the last book may be stale until
    /// the next [`MarketChange::Book`].
    Interrupted,
}

/// What changed in a market.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum MarketChange {
    /// The whole book, one per outcome in the market's outcome order.
    Book { outcomes: Vec<OutcomeBook> },
    /// Levels whose size changed, in the order the exchange changed them.
    Levels { changes: Vec<LevelChange> },
    /// An outcome's price moved.
    Price(PriceTick),
    /// A trade.
    Trade(Trade),
    /// The feed's state changed.
    State { state: FeedState },
}

/// One change of one market, as a feed delivers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MarketUpdate {
    pub market: Uuid,
    /// The exchange's time of the change when it says, else when the frame arrived.
    pub time: Timestamp,
    /// When this process received the exchange's frame: what the fan-out delay is measured from.
    pub received: Timestamp,
    pub change: MarketChange,
}

impl MarketUpdate {
    /// `market` reported interrupted at `time` (also its time received).
    pub fn interrupted(market: Uuid, time: Timestamp) -> MarketUpdate {
        MarketUpdate {
            market,
            time,
            received: time,
            change: MarketChange::State {
                state: FeedState::Interrupted,
            },
        }
    }
}

/// Something that follows markets live and sends their [`MarketUpdate`]s to the channel it was
/// made with. Following is by count: a market followed twice stays followed until unfollowed
/// twice, so that several subscribers can come and go independently. Neither call waits for
/// the exchange; a market that cannot be followed, or whose first book does not come in
/// time, is reported as [`FeedState::Interrupted`].
///
/// A feed sends a whole [`MarketChange::Book`] only on a market's first follow, after each
/// reconnect and after each resync (a sequence gap, a book out of step, a reader that fell
/// behind): a repeated follow of a market already followed only counts, and sends nothing.
/// Whoever fans one feed out to several subscribers therefore keeps each market's latest book
/// itself, to give a late subscriber (as the API's stream hub does).
pub trait LiveFeed: Send + Sync {
    fn follow(&self, market: &StreamMarket);
    fn unfollow(&self, market: Uuid);
}

/// Sets each level of `changes` in `books`: the size now at its price on its side of its
/// outcome's book, a size of 0 removing the level, each side kept best first. A change naming
/// an outcome `books` does not hold, or with a price outside `[0, 1]`, is left out.
pub fn apply_levels(books: &mut [OutcomeBook], changes: &[LevelChange]) {
    for change in changes {
        if !(0.0..=1.0).contains(&change.price) {
            continue;
        }
        let Some(book) = books.iter_mut().find(|book| book.outcome == change.outcome) else {
            continue;
        };
        let price = round_price(change.price);
        let side = change.side;
        let levels = match side {
            BookSide::Bid => &mut book.ladder.bids,
            BookSide::Ask => &mut book.ladder.asks,
        };
        // Where `price` is or would be, best first: bids by falling price, asks by rising.
        let position = levels.binary_search_by(|level| match side {
            BookSide::Bid => price.total_cmp(&level.price),
            BookSide::Ask => level.price.total_cmp(&price),
        });
        let keep = change.size.is_finite() && change.size > 0.0;
        match (position, keep) {
            (Ok(index), true) => levels[index].size = change.size,
            (Ok(index), false) => {
                levels.remove(index);
            }
            (Err(index), true) => levels.insert(
                index,
                Level {
                    price,
                    size: change.size,
                },
            ),
            (Err(_), false) => {}
        }
    }
}

/// What whoever fans a feed out keeps of one followed market: its latest whole book with the
/// later levels applied, and whether the feed is receiving it (set by a whole book, cleared by
/// an interruption), so that a late subscriber can be given the book at once.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LatestBook {
    /// The book, with the time of the last change applied to it.
    book: Option<(Timestamp, Vec<OutcomeBook>)>,
    live: bool,
}

impl LatestBook {
    /// Applies one update of the market: a book replaces the book, levels change it, a state
    /// sets whether it is live.
    pub fn apply(&mut self, update: &MarketUpdate) {
        match &update.change {
            MarketChange::Book { outcomes } => {
                self.book = Some((update.time, outcomes.clone()));
                self.live = true;
            }
            MarketChange::Levels { changes } => {
                if let Some((time, outcomes)) = &mut self.book {
                    apply_levels(outcomes, changes);
                    *time = update.time;
                }
            }
            MarketChange::State { state } => self.live = *state == FeedState::Live && self.book.is_some(),
            MarketChange::Price(_) | MarketChange::Trade(_) => {}
        }
    }

    /// The book and the time of its last change, once a whole book came.
    pub fn book(&self) -> Option<(Timestamp, &[OutcomeBook])> {
        self.book.as_ref().map(|(time, outcomes)| (*time, outcomes.as_slice()))
    }

    /// Whether the feed is receiving the market, so that the book is current.
    pub fn is_live(&self) -> bool {
        self.live
    }
}

/// Turns a stored market into the market a feed follows: Polymarket's CLOB token ids, the
/// channel keys of its market channel, are not in the catalogue, and are looked up where the
/// exchange's REST API is (`marketlens_sync::depth`), so that what serves streams fetches
/// nothing itself.
#[async_trait::async_trait]
pub trait StreamMarkets: Send + Sync {
    /// The market as a feed follows it: [`DepthError::NotAvailable`] when it cannot be
    /// streamed (a Polymarket market without CLOB tokens), [`DepthError::Upstream`] when the
    /// look-up failed.
    async fn stream_market(&self, market: &DepthMarket) -> Result<StreamMarket, DepthError>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::depth::{Ladder, Level, TakerSide};
    use crate::time::from_epoch_millis;

    fn update(change: MarketChange) -> MarketUpdate {
        MarketUpdate {
            market: Uuid::from_u128(7),
            time: from_epoch_millis(1_770_000_000_000),
            received: from_epoch_millis(1_770_000_000_123),
            change,
        }
    }

    #[test]
    fn levels_set_remove_and_insert_in_order() {
        let level = |price, size| Level { price, size };
        let mut books = vec![OutcomeBook {
            outcome: "Yes".into(),
            ladder: Ladder::new([level(0.4, 1.0), level(0.3, 2.0)], [level(0.6, 3.0)]),
        }];
        let change = |side, price, size| LevelChange {
            outcome: "Yes".into(),
            side,
            price,
            size,
        };
        apply_levels(
            &mut books,
            &[
                change(BookSide::Bid, 0.35, 5.0),
                change(BookSide::Bid, 0.4, 0.0),
                change(BookSide::Ask, 0.55, 1.0),
                change(BookSide::Ask, 0.6, 4.0),
                change(BookSide::Ask, 0.7, 0.0),
                change(BookSide::Ask, 1.5, 1.0),
                LevelChange {
                    outcome: "Maybe".into(),
                    ..change(BookSide::Bid, 0.1, 1.0)
                },
            ],
        );
        let ladder = &books[0].ladder;
        assert_eq!(ladder.bids, vec![level(0.35, 5.0), level(0.3, 2.0)]);
        assert_eq!(ladder.asks, vec![level(0.55, 1.0), level(0.6, 4.0)]);
    }

    #[test]
    fn every_change_survives_a_round_trip_through_json() {
        // A relay between nodes carries updates as JSON.
        let level = Level {
            price: 0.42,
            size: 10.0,
        };
        let changes = [
            MarketChange::Book {
                outcomes: vec![OutcomeBook {
                    outcome: "Yes".into(),
                    ladder: Ladder::new([level], []),
                }],
            },
            MarketChange::Levels {
                changes: vec![LevelChange {
                    outcome: "No".into(),
                    side: BookSide::Ask,
                    price: 0.58,
                    size: 0.0,
                }],
            },
            MarketChange::Price(PriceTick {
                outcome: "Yes".into(),
                price: Some(0.41),
                last: Some(0.41),
                best_bid: None,
                best_ask: Some(0.43),
            }),
            MarketChange::Trade(Trade {
                id: "t1".into(),
                time: from_epoch_millis(1_770_000_000_000),
                outcome: "Yes".into(),
                price: 0.41,
                size: 3.5,
                taker_side: TakerSide::Buy,
            }),
            MarketChange::State {
                state: FeedState::Interrupted,
            },
        ];
        for change in changes {
            let sent = update(change);
            let json = serde_json::to_string(&sent).unwrap();
            assert_eq!(serde_json::from_str::<MarketUpdate>(&json).unwrap(), sent, "{json}");
        }
    }
}
