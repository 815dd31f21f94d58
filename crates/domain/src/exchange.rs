//! The two source exchanges. The original interface wrote them as `EXCHANGE_A`/`EXCHANGE_B`;
//! `docs/contract/decisions.md#d1` fixes the spellings used here, the same everywhere.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Exchange {
    Polymarket,
    Kalshi,
}

impl Exchange {
    pub const ALL: [Exchange; 2] = [Exchange::Polymarket, Exchange::Kalshi];

    /// The canonical id used in `exchangeId`, `exchange` and filters: `POLYMARKET`, `KALSHI`.
    pub fn as_str(self) -> &'static str {
        match self {
            Exchange::Polymarket => "POLYMARKET",
            Exchange::Kalshi => "KALSHI",
        }
    }

    /// The lower-case platform name used by explain: `polymarket`, `kalshi`.
    pub fn platform(self) -> &'static str {
        match self {
            Exchange::Polymarket => "polymarket",
            Exchange::Kalshi => "kalshi",
        }
    }

    /// The display name: `Polymarket`, `Kalshi`.
    pub fn display_name(self) -> &'static str {
        match self {
            Exchange::Polymarket => "Polymarket",
            Exchange::Kalshi => "Kalshi",
        }
    }

    pub fn other(self) -> Exchange {
        match self {
            Exchange::Polymarket => Exchange::Kalshi,
            Exchange::Kalshi => Exchange::Polymarket,
        }
    }
}

impl fmt::Display for Exchange {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown exchange {0:?}: expected POLYMARKET or KALSHI")]
pub struct UnknownExchange(pub String);

impl FromStr for Exchange {
    type Err = UnknownExchange;

    /// Case-insensitive, as the filters are (`docs/contract/decisions.md#d1-case`).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Exchange::ALL
            .into_iter()
            .find(|exchange| exchange.as_str().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownExchange(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_case_insensitively_and_prints_canonically() {
        assert_eq!("kalshi".parse::<Exchange>().unwrap(), Exchange::Kalshi);
        assert_eq!("PolyMarket".parse::<Exchange>().unwrap(), Exchange::Polymarket);
        assert_eq!(Exchange::Kalshi.to_string(), "KALSHI");
        assert!("kalshi2".parse::<Exchange>().is_err());
    }
}
