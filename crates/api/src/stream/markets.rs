//! What a live feed needs to follow a market that the store does not hold: Polymarket's CLOB
//! token ids, the channel keys of its market channel, which the catalogue does not keep. The
//! hub asks a [`StreamMarkets`] for them (`serve` gives it the REST depth source, which looks
//! them up on Gamma), so that the API does not fetch anything itself.

use async_trait::async_trait;
use marketlens_domain::depth::{DepthError, DepthMarket};
use marketlens_domain::stream::StreamMarket;

pub use marketlens_domain::stream::StreamMarkets;

/// The stored market as it is, without Polymarket's tokens: for a feed that needs no more than
/// the ids (Kalshi's channels are its tickers; a relay of another node's feed, the node that
/// holds the exchange connections looks the tokens up; tests and benchmarks).
pub struct WithoutTokens;

#[async_trait]
impl StreamMarkets for WithoutTokens {
    async fn stream_market(&self, market: &DepthMarket) -> Result<StreamMarket, DepthError> {
        Ok(StreamMarket {
            id: market.id,
            exchange: market.exchange,
            external_id: market.external_id.clone(),
            outcomes: market.outcomes.clone(),
            tokens: Vec::new(),
        })
    }
}
