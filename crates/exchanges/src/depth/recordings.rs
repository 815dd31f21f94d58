//! Recorded depth bodies and which market each is served for: `demo-data/depth/recordings.json`,
//! read by the demo (`marketlens_sync::depth::RecordedDepth`) and by the replay server, so that both
//! serve the same recording for the same market.
//!
//! Each entry names a file of `demo-data/depth/`, the JSON pointer of the exchange's body in it
//! (`""` for the whole file, `/response` where the recorder wrapped the body), the demo market
//! it is served for (Polymarket id or Kalshi ticker), the market it was really recorded on
//! (`recordedFrom`: the recordings are of markets the demo catalogue does not hold) and when.
//! `streams` names, per demo market, the recorded WebSocket stream the demo plays for it (the
//! replay server's, `crates/replay/src/stream/`): the channel keys it was recorded under.

use marketlens_domain::Exchange;
use marketlens_domain::time::Timestamp;
use serde::Deserialize;

use super::DepthPayloadError;

const MANIFEST: &str = "depth recordings manifest";

/// The manifest: recorded books, trade lists and streams.
#[derive(Debug, Clone, Deserialize)]
pub struct Recordings {
    pub books: Vec<Recording>,
    pub trades: Vec<Recording>,
    #[serde(default)]
    pub streams: Vec<StreamRecording>,
}

/// A recorded WebSocket stream, played for a demo market.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamRecording {
    pub exchange: Exchange,
    /// The market it is played for: a Polymarket id or a Kalshi ticker.
    pub market: String,
    /// What the recording was subscribed by: Polymarket's token ids, in the market's outcome
    /// order, or one Kalshi ticker.
    pub channels: Vec<String>,
    /// The market it was recorded on, as the exchange names it.
    pub recorded_from: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recording {
    pub exchange: Exchange,
    /// The market it is served for: a Polymarket id or a Kalshi ticker.
    pub market: String,
    /// The file, relative to `demo-data/depth/`.
    pub file: String,
    /// Where the exchange's body is in the file (RFC 6901; `""` is the whole file).
    pub pointer: String,
    /// The market it was recorded on, as the exchange names it, when known.
    pub recorded_from: Option<String>,
    pub recorded_at: Timestamp,
}

impl Recordings {
    pub fn parse(bytes: &[u8]) -> Result<Recordings, DepthPayloadError> {
        serde_json::from_slice(bytes).map_err(|error| DepthPayloadError::json(MANIFEST, error))
    }
}

impl Recording {
    /// The exchange's body inside `file_bytes`. A Kalshi trade list whose envelope the
    /// recorder dropped (`trades-2.json` is a bare list) is put back in `{"trades": [...]}`.
    pub fn body(&self, file_bytes: &[u8]) -> Result<serde_json::Value, DepthPayloadError> {
        let whole: serde_json::Value =
            serde_json::from_slice(file_bytes).map_err(|error| DepthPayloadError::json(MANIFEST, error))?;
        let body = whole.pointer(&self.pointer).cloned().ok_or_else(|| {
            DepthPayloadError::new(MANIFEST, format!("{} has nothing at {:?}", self.file, self.pointer))
        })?;
        Ok(match body {
            serde_json::Value::Array(trades) if self.exchange == Exchange::Kalshi => {
                serde_json::json!({ "trades": trades, "cursor": "" })
            }
            body => body,
        })
    }
}
