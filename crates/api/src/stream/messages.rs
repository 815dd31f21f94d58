//! The stream's messages, both ways, as JSON text frames in the REST API's vocabulary (camelCase,
//! books as `GET /markets/{id}/orderbook` shows them, errors as the one error shape's object).
//!
//! A market message is serialized once per update, whatever the number of its subscribers,
//! with a `seq` of 0 that is then cut out ([`Unsequenced`]): each subscriber's copy is that
//! text with its own `seq` put back, which is what serializing the message with that `seq`
//! would give, at the cost of a copy.

use marketlens_domain::depth::OutcomeBook;
use marketlens_domain::stream::{BookSide, FeedState, MarketChange, MarketUpdate};
use marketlens_domain::time::Timestamp;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::error::{ApiError, ErrorObject};
use crate::routes::depth::{outcome_views, trade_view};
use crate::views::{Iso8601, OutcomeBookView, TradeView};

/// What a client sends: its key (when it could not send the `Authorization` header), then
/// subscriptions.
#[derive(Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
#[schema(as = StreamClientMessage)]
pub enum ClientMessage {
    /// The API key, as the first message of a connection opened without an `Authorization`
    /// header (browsers cannot set one on a WebSocket). Never logged.
    Auth { key: String },
    /// Follow these markets (their Marketlens ids): 1 credit each now, and 1 more at the start
    /// of each further minute.
    Subscribe { markets: Vec<String> },
    /// Stop following these markets.
    Unsubscribe { markets: Vec<String> },
}

/// A change of a subscribed market. `seq` numbers a subscription's messages 1, 2, 3…: a number
/// skipped means messages were lost, and the next `book` is whole again.
#[derive(Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
#[schema(as = StreamMarketMessage)]
pub enum MarketMessage<'a> {
    /// The whole book, one per outcome: after subscribing, and after every interruption.
    Book {
        seq: u64,
        market: Uuid,
        time: Iso8601,
        outcomes: Vec<OutcomeBookView<'a>>,
    },
    /// Levels of the book whose size changed: the size now at the price, 0 when it is gone.
    Levels {
        seq: u64,
        market: Uuid,
        time: Iso8601,
        changes: Vec<LevelView<'a>>,
    },
    /// An outcome's price, and the last trade and best bid and ask it comes from.
    Price {
        seq: u64,
        market: Uuid,
        time: Iso8601,
        outcome: &'a str,
        /// The outcome's price as its exchange displays it, the one the market calls state and
        /// the price history records: on Polymarket the middle of the best bid and ask when
        /// they are at most 0.10 apart, else the last trade; on Kalshi the last trade, else
        /// the middle of the best bid and ask. `null` while neither gives a price.
        price: Option<f64>,
        /// The last traded price, when the exchange sent one.
        last: Option<f64>,
        #[serde(rename = "bestBid")]
        best_bid: Option<f64>,
        #[serde(rename = "bestAsk")]
        best_ask: Option<f64>,
    },
    /// A trade.
    Trade {
        seq: u64,
        market: Uuid,
        time: Iso8601,
        trade: TradeView<'a>,
    },
    /// Whether the server is receiving the market: `interrupted` means the book may be stale
    /// until the next `book`.
    State {
        seq: u64,
        market: Uuid,
        time: Iso8601,
        #[schema(value_type = String, pattern = "^(live|interrupted)$")]
        state: &'static str,
    },
}

/// One level of one outcome's book as it is now.
#[derive(Serialize, ToSchema)]
#[schema(as = StreamLevel)]
pub struct LevelView<'a> {
    pub outcome: &'a str,
    #[schema(value_type = String, pattern = "^(bid|ask)$")]
    pub side: &'static str,
    pub price: f64,
    /// Contracts now at this price; 0: the level is gone.
    pub size: f64,
}

/// A message that is not a market's change.
#[derive(Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
#[schema(as = StreamControlMessage)]
pub enum ControlMessage<'a> {
    /// A market is followed: its `book` follows when the server has it.
    Subscribed {
        market: Uuid,
        #[schema(value_type = crate::schemas::Exchange)]
        exchange: &'static str,
        outcomes: &'a [String],
        /// The account's balance after this market's first minute.
        #[serde(rename = "creditsRemaining")]
        credits_remaining: i64,
    },
    /// A market is no longer followed, as the client asked.
    Unsubscribed { market: Uuid },
    /// Sent every few seconds, so that a client can tell a quiet market from a dead connection.
    Heartbeat { time: Iso8601 },
    /// Something went wrong: with `market`, that market is not (or no longer) subscribed.
    Error {
        #[serde(skip_serializing_if = "Option::is_none")]
        market: Option<Uuid>,
        error: ErrorObject,
    },
}

impl ControlMessage<'_> {
    pub fn error(market: Option<Uuid>, error: &ApiError) -> ControlMessage<'static> {
        ControlMessage::Error {
            market,
            error: ErrorObject::of(error),
        }
    }

    pub fn heartbeat(now: Timestamp) -> ControlMessage<'static> {
        ControlMessage::Heartbeat { time: Iso8601(now) }
    }

    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a stream message serializes")
    }
}

/// A market message without its `seq`, shared by every subscriber: its text with `"seq":0,`
/// cut out at `seq_at`.
#[derive(Debug, Clone)]
pub struct Unsequenced {
    text: Arc<str>,
    seq_at: usize,
}

/// What the serializer writes for the placeholder `seq`.
const NO_SEQ: &str = "\"seq\":0,";

impl Unsequenced {
    fn of(message: &MarketMessage) -> Unsequenced {
        let text = serde_json::to_string(message).expect("a stream message serializes");
        // The tag comes first, then the variant's fields in order: `seq` is the first field.
        let seq_at = text.find(NO_SEQ).expect("a market message has a seq");
        let text = format!("{}{}", &text[..seq_at], &text[seq_at + NO_SEQ.len()..]);
        Unsequenced {
            text: text.into(),
            seq_at,
        }
    }

    /// The message a subscriber receives, numbered `seq`.
    pub fn with_seq(&self, seq: u64) -> String {
        let (head, tail) = self.text.split_at(self.seq_at);
        format!("{head}\"seq\":{seq},{tail}")
    }
}

/// An update as its subscribers receive it, serialized once.
pub fn market_message(update: &MarketUpdate) -> Unsequenced {
    let (seq, market, time) = (0, update.market, Iso8601(update.time));
    let message = match &update.change {
        MarketChange::Book { outcomes } => return book_message(market, update.time, outcomes),
        MarketChange::Levels { changes } => MarketMessage::Levels {
            seq,
            market,
            time,
            changes: changes
                .iter()
                .map(|change| LevelView {
                    outcome: &change.outcome,
                    side: match change.side {
                        BookSide::Bid => "bid",
                        BookSide::Ask => "ask",
                    },
                    price: change.price,
                    size: change.size,
                })
                .collect(),
        },
        MarketChange::Price(tick) => MarketMessage::Price {
            seq,
            market,
            time,
            outcome: &tick.outcome,
            price: tick.price,
            last: tick.last,
            best_bid: tick.best_bid,
            best_ask: tick.best_ask,
        },
        MarketChange::Trade(trade) => MarketMessage::Trade {
            seq,
            market,
            time,
            trade: trade_view(trade),
        },
        MarketChange::State { state } => MarketMessage::State {
            seq,
            market,
            time,
            state: match state {
                FeedState::Live => "live",
                FeedState::Interrupted => "interrupted",
            },
        },
    };
    Unsequenced::of(&message)
}

/// A whole book's message, as [`market_message`] makes it.
pub fn book_message(market: Uuid, time: Timestamp, outcomes: &[OutcomeBook]) -> Unsequenced {
    Unsequenced::of(&MarketMessage::Book {
        seq: 0,
        market,
        time: Iso8601(time),
        outcomes: outcome_views(outcomes),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use marketlens_domain::depth::{Ladder, Level, TakerSide, Trade};
    use marketlens_domain::stream::{LevelChange, PriceTick};
    use marketlens_domain::time::from_epoch_millis;
    use serde_json::json;

    fn update(change: MarketChange) -> MarketUpdate {
        MarketUpdate {
            market: Uuid::from_u128(7),
            time: from_epoch_millis(1_770_000_000_000),
            received: from_epoch_millis(1_770_000_000_010),
            change,
        }
    }

    #[test]
    fn a_numbered_copy_is_the_message_serialized_with_its_seq() {
        let trade = Trade {
            id: "t1".into(),
            time: from_epoch_millis(1_770_000_000_000),
            outcome: "Yes".into(),
            price: 0.41,
            size: 3.5,
            taker_side: TakerSide::Buy,
        };
        let sent = update(MarketChange::Trade(trade.clone()));
        let expected = serde_json::to_string(&MarketMessage::Trade {
            seq: 12,
            market: sent.market,
            time: Iso8601(sent.time),
            trade: trade_view(&trade),
        })
        .unwrap();
        assert_eq!(market_message(&sent).with_seq(12), expected);
        assert!(expected.contains("\"takerSide\":\"BUY\""), "{expected}");
    }

    #[test]
    fn messages_speak_the_rest_apis_json() {
        let text =
            |change| serde_json::from_str::<serde_json::Value>(&market_message(&update(change)).with_seq(1)).unwrap();
        let book = text(MarketChange::Book {
            outcomes: vec![OutcomeBook {
                outcome: "Yes".into(),
                ladder: Ladder::new([Level { price: 0.4, size: 2.0 }], []),
            }],
        });
        assert_eq!(
            book,
            json!({"seq": 1, "type": "book", "market": Uuid::from_u128(7), "time": "2026-02-02T02:40:00.000Z",
                   "outcomes": [{"outcome": "Yes", "bids": [{"price": 0.4, "size": 2.0}], "asks": []}]})
        );
        let levels = text(MarketChange::Levels {
            changes: vec![LevelChange {
                outcome: "No".into(),
                side: BookSide::Ask,
                price: 0.6,
                size: 0.0,
            }],
        });
        assert_eq!(
            levels["changes"],
            json!([{"outcome": "No", "side": "ask", "price": 0.6, "size": 0.0}])
        );
        let price = text(MarketChange::Price(PriceTick {
            outcome: "Yes".into(),
            price: Some(0.41),
            last: None,
            best_bid: Some(0.4),
            best_ask: Some(0.42),
        }));
        assert_eq!(
            (
                price["type"].as_str(),
                price["price"].as_f64(),
                price["bestAsk"].as_f64()
            ),
            (Some("price"), Some(0.41), Some(0.42))
        );
        let state = text(MarketChange::State {
            state: FeedState::Interrupted,
        });
        assert_eq!(state["state"], "interrupted");
    }

    #[test]
    fn a_clients_message_names_its_type() {
        let subscribe: ClientMessage = serde_json::from_str(r#"{"type":"subscribe","markets":["a"]}"#).unwrap();
        assert!(matches!(subscribe, ClientMessage::Subscribe { markets } if markets == ["a"]));
        assert!(serde_json::from_str::<ClientMessage>(r#"{"type":"dance"}"#).is_err());
    }
}
