//! The demo's depth: recorded books and trades (`demo-data/depth/recordings.json`), each served
//! for the demo market the manifest names, as [`BookSource::Recording`] with its recording
//! time and the market it was really recorded on. A market without a recording has no depth
//! (`DepthError::NotAvailable`, which the API answers 404).
//!
//! It is also the demo's [`StreamMarkets`]: a demo market with a recorded stream (the
//! manifest's `streams`) is followed under the channel keys it was recorded by, so that the
//! demo's exchange connections, pointed at the replay's recorded streams, receive that
//! recording as the market's.

use async_trait::async_trait;
use marketlens_domain::Exchange;
use marketlens_domain::depth::{BookSource, DepthError, DepthMarket, DepthSource, OrderBook, TradePage, binary_books};
use marketlens_domain::stream::{StreamMarket, StreamMarkets};
use marketlens_exchanges::depth::recordings::{Recording, Recordings, StreamRecording};
use marketlens_exchanges::depth::{BookReading, DepthPayloadError, TradeReading, kalshi, polymarket};
use std::collections::HashMap;

use super::named_trades;

/// Recordings read once, keyed by exchange and the exchange's market id.
pub struct RecordedDepth {
    books: HashMap<(Exchange, String), (Recording, BookReading)>,
    trades: HashMap<(Exchange, String), (Recording, Vec<TradeReading>)>,
    streams: HashMap<(Exchange, String), StreamRecording>,
}

impl RecordedDepth {
    /// Reads every recording of `manifest`; `file` gives a file's bytes by its name in the
    /// manifest. A recording that does not read is an error: the demo's data is ours.
    pub fn new<'a>(
        manifest: &[u8],
        file: impl Fn(&str) -> Option<&'a [u8]>,
    ) -> Result<RecordedDepth, DepthPayloadError> {
        let recordings = Recordings::parse(manifest)?;
        let body = |recording: &Recording| {
            let bytes = file(&recording.file).ok_or_else(|| DepthPayloadError {
                what: "depth recordings manifest",
                reason: format!("no file {}", recording.file),
                garbled: false,
            })?;
            recording.body(bytes).map(|body| body.to_string())
        };
        let mut books = HashMap::new();
        for recording in recordings.books {
            let body = body(&recording)?;
            let reading = match recording.exchange {
                Exchange::Polymarket => polymarket::book(body.as_bytes())?,
                Exchange::Kalshi => kalshi::orderbook(body.as_bytes())?,
            };
            books.insert((recording.exchange, recording.market.clone()), (recording, reading));
        }
        let mut trades = HashMap::new();
        for recording in recordings.trades {
            let body = body(&recording)?;
            let reading = match recording.exchange {
                Exchange::Polymarket => polymarket::trades(body.as_bytes())?,
                Exchange::Kalshi => kalshi::trades(body.as_bytes())?,
            };
            trades.insert(
                (recording.exchange, recording.market.clone()),
                (recording, reading.trades),
            );
        }
        let mut streams = HashMap::new();
        for recording in recordings.streams {
            let channels_expected = match recording.exchange {
                Exchange::Polymarket => !recording.channels.is_empty(),
                Exchange::Kalshi => recording.channels.len() == 1,
            };
            if !channels_expected {
                return Err(DepthPayloadError {
                    what: "depth recordings manifest",
                    reason: format!("the stream of {} names the wrong channels", recording.market),
                    garbled: false,
                });
            }
            streams.insert((recording.exchange, recording.market.clone()), recording);
        }
        Ok(RecordedDepth { books, trades, streams })
    }

    /// The recorded streams, by exchange and market.
    pub fn streams(&self) -> Vec<&StreamRecording> {
        let mut streams: Vec<&StreamRecording> = self.streams.values().collect();
        streams.sort_by_key(|stream| (stream.exchange, &stream.market));
        streams
    }
}

fn key(market: &DepthMarket) -> (Exchange, String) {
    (market.exchange, market.external_id.clone())
}

#[async_trait]
impl DepthSource for RecordedDepth {
    async fn book(&self, market: &DepthMarket) -> Result<OrderBook, DepthError> {
        let (recording, reading) = self.books.get(&key(market)).ok_or(DepthError::NotAvailable)?;
        Ok(OrderBook {
            timestamp: recording.recorded_at,
            source: BookSource::Recording,
            recorded_from: recording.recorded_from.clone(),
            outcomes: binary_books(&market.outcomes, reading.ladder.clone()),
        })
    }

    /// Pages by offset over the recorded list; the page token is the next offset.
    async fn trades(&self, market: &DepthMarket, after: Option<&str>, limit: u32) -> Result<TradePage, DepthError> {
        let (recording, trades) = self.trades.get(&key(market)).ok_or(DepthError::NotAvailable)?;
        let offset = match after {
            Some(token) => token.parse::<usize>().map_err(|_| DepthError::BadCursor)?,
            None => 0,
        };
        let end = offset.saturating_add(limit as usize).min(trades.len());
        let page = trades.get(offset.min(end)..end).unwrap_or_default().to_vec();
        Ok(TradePage {
            trades: named_trades(market, page),
            next: (end < trades.len()).then(|| end.to_string()),
            source: BookSource::Recording,
            recorded_from: recording.recorded_from.clone(),
        })
    }
}

#[async_trait]
impl StreamMarkets for RecordedDepth {
    /// The market under its recorded stream's channel keys: the recorded market's tokens
    /// (Polymarket) or ticker (Kalshi). [`DepthError::NotAvailable`] without a recorded stream.
    async fn stream_market(&self, market: &DepthMarket) -> Result<StreamMarket, DepthError> {
        let recording = self.streams.get(&key(market)).ok_or(DepthError::NotAvailable)?;
        let (external_id, tokens) = match market.exchange {
            Exchange::Polymarket => (market.external_id.clone(), recording.channels.clone()),
            // One channel, checked when the manifest is read: the ticker.
            Exchange::Kalshi => (recording.channels[0].clone(), Vec::new()),
        };
        Ok(StreamMarket {
            id: market.id,
            exchange: market.exchange,
            external_id,
            outcomes: market.outcomes.clone(),
            tokens,
        })
    }
}
