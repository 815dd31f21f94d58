//! What each call costs (`docs/contract/interface.md#i1`). Charging itself is done by the stores,
//! atomically; this module only names the operations.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Operation {
    ListMarkets,
    GetMarket,
    ListEvents,
    GetEvent,
    Explain,
    GetAccount,
    /// `GET /api/v1/markets/lookup`: a market by its exchange URL.
    LookupMarket,
    /// `GET /api/v1/markets/{id}/history`: a market's candles.
    MarketHistory,
    /// `GET /api/v1/spreads`: matched pairs' prices side by side.
    ListSpreads,
    /// `GET /api/v1/markets/{id}/orderbook`: a market's order book.
    GetOrderBook,
    /// `GET /api/v1/orderbooks`: several markets' books, charged per book.
    ListOrderBooks,
    /// `GET /api/v1/markets/{id}/trades`: a page of a market's trades.
    ListTrades,
    /// `GET /api/v1/stream`: one market followed live for one started minute.
    StreamMinute,
}

impl Operation {
    pub const ALL: [Operation; 13] = [
        Operation::ListMarkets,
        Operation::GetMarket,
        Operation::ListEvents,
        Operation::GetEvent,
        Operation::Explain,
        Operation::GetAccount,
        Operation::LookupMarket,
        Operation::MarketHistory,
        Operation::ListSpreads,
        Operation::GetOrderBook,
        Operation::ListOrderBooks,
        Operation::ListTrades,
        Operation::StreamMinute,
    ];

    pub fn cost(self) -> i64 {
        match self {
            Operation::ListMarkets
            | Operation::GetMarket
            | Operation::ListEvents
            | Operation::GetEvent
            | Operation::LookupMarket
            | Operation::MarketHistory
            | Operation::ListSpreads
            | Operation::GetOrderBook
            | Operation::ListTrades
            // Per market subscribed, per started minute.
            | Operation::StreamMinute
            // Per book: the call costs this times the books it returns.
            | Operation::ListOrderBooks => 1,
            Operation::Explain => 5,
            Operation::GetAccount => 0,
        }
    }

    /// The name written to the ledger.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::ListMarkets => "listMarkets",
            Operation::GetMarket => "getMarket",
            Operation::ListEvents => "listEvents",
            Operation::GetEvent => "getEvent",
            Operation::Explain => "explain",
            Operation::GetAccount => "getAccount",
            Operation::LookupMarket => "lookupMarket",
            Operation::MarketHistory => "marketHistory",
            Operation::ListSpreads => "listSpreads",
            Operation::GetOrderBook => "getOrderBook",
            Operation::ListOrderBooks => "listOrderBooks",
            Operation::ListTrades => "listTrades",
            Operation::StreamMinute => "streamMinute",
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

impl FromStr for Operation {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Operation::ALL
            .into_iter()
            .find(|operation| operation.as_str() == text)
            .ok_or_else(|| format!("unknown operation {text:?}"))
    }
}

/// The data fetch inside explain is itself worth one credit; `data.meta.creditsUsed`
/// reports that figure while the envelope reports the whole charge (`docs/contract/decisions.md#d8-fields`).
pub const EXPLAIN_DATA_FETCH_CREDITS: i64 = 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_match_the_interface() {
        let costs: Vec<i64> = Operation::ALL.iter().map(|operation| operation.cost()).collect();
        // The interface's six calls, then the additive lookup, history and spreads (1 each,
        // like get and list), the depth calls (1 each; a list of books 1 per book) and a
        // streamed market's minute.
        assert_eq!(costs, [1, 1, 1, 1, 5, 0, 1, 1, 1, 1, 1, 1, 1]);
        for operation in Operation::ALL {
            assert_eq!(operation.as_str().parse::<Operation>().unwrap(), operation);
        }
    }
}
