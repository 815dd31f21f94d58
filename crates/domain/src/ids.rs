//! Deterministic identifiers. A market's `id` is a UUID v5 of its exchange and the exchange's
//! own id, so it is the same on every node and after every re-import
//! (`docs/contract/decisions.md#d1-ids`). Events and outcomes are derived the same way.

use uuid::Uuid;

use crate::exchange::Exchange;

/// The namespace of all Marketlens v5 UUIDs (itself a v5 UUID of the project's name in the
/// URL namespace, fixed here so that it can never change).
pub const NAMESPACE: Uuid = Uuid::from_u128(0x6d1b_8c3e_4f0a_5b6e_9c2d_7a8f_1e3b_5c40);

pub fn market_id(exchange: Exchange, external_id: &str) -> Uuid {
    Uuid::new_v5(
        &NAMESPACE,
        format!("market:{}:{external_id}", exchange.as_str()).as_bytes(),
    )
}

pub fn event_id(exchange: Exchange, external_id: &str) -> Uuid {
    Uuid::new_v5(
        &NAMESPACE,
        format!("event:{}:{external_id}", exchange.as_str()).as_bytes(),
    )
}

/// An outcome's id: derived from its market and its position, which the exchanges keep
/// stable (Polymarket's `outcomes` order, Kalshi's Yes/No).
pub fn outcome_id(market_id: Uuid, position: usize) -> Uuid {
    Uuid::new_v5(&NAMESPACE, format!("outcome:{market_id}:{position}").as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_distinct() {
        let first = market_id(Exchange::Kalshi, "KXELONMARS-99");
        assert_eq!(first, market_id(Exchange::Kalshi, "KXELONMARS-99"));
        assert_ne!(first, market_id(Exchange::Polymarket, "KXELONMARS-99"));
        assert_ne!(first, event_id(Exchange::Kalshi, "KXELONMARS-99"));
        assert_eq!(first.get_version_num(), 5);
        // Pinned: changing the derivation would change every id users have stored.
        assert_eq!(first.to_string(), "ea1e5627-27b0-59b3-9cfb-460fa539d477");
    }
}
