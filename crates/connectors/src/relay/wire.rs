//! What nodes tell the lease holder on the announcements channel. Updates themselves travel
//! as `MarketUpdate` JSON (`marketlens_domain::stream`), unchanged.

use marketlens_domain::stream::StreamMarket;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub(super) enum Announcement {
    /// `node` follows `market` from now on: the holder follows it on the exchange if no node
    /// did, else sends `node` the whole book it keeps.
    Follow { node: String, market: StreamMarket },
    /// `node` needs `market`'s whole book again (it reconnected to Redis, or dropped updates
    /// because its hub fell behind).
    Resync { node: String, market: StreamMarket },
    /// `node` follows `market` no more.
    Unfollow { node: String, market: Uuid },
}

#[cfg(test)]
mod tests {
    use super::*;
    use marketlens_domain::Exchange;

    #[test]
    fn announcements_survive_a_round_trip_through_json() {
        let market = StreamMarket {
            id: Uuid::from_u128(3),
            exchange: Exchange::Polymarket,
            external_id: "12".into(),
            outcomes: vec!["Yes".into(), "No".into()],
            tokens: vec!["1".into(), "2".into()],
        };
        for announcement in [
            Announcement::Follow {
                node: "a".into(),
                market: market.clone(),
            },
            Announcement::Resync {
                node: "a".into(),
                market: market.clone(),
            },
            Announcement::Unfollow {
                node: "a".into(),
                market: market.id,
            },
        ] {
            let json = serde_json::to_string(&announcement).unwrap();
            assert_eq!(
                serde_json::from_str::<Announcement>(&json).unwrap(),
                announcement,
                "{json}"
            );
        }
    }
}
