//! Frames that cannot be read: counted (a `metrics` counter and the connector's own count)
//! and logged at most once per interval, so a stream of garbage cannot flood the log.
//! Never fatal: the frame is skipped and the stream goes on.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use marketlens_domain::Exchange;
use marketlens_exchanges::depth::DepthPayloadError;

use crate::feed::ConnectorStats;

const LOG_EVERY: Duration = Duration::from_secs(10);

pub(crate) struct MalformedFrames {
    exchange: Exchange,
    stats: Arc<ConnectorStats>,
    last_logged: Option<Instant>,
    /// Frames skipped without a log line since the last one.
    unlogged: u64,
}

impl MalformedFrames {
    pub(crate) fn new(exchange: Exchange, stats: Arc<ConnectorStats>) -> MalformedFrames {
        MalformedFrames {
            exchange,
            stats,
            last_logged: None,
            unlogged: 0,
        }
    }

    pub(crate) fn skip(&mut self, error: &DepthPayloadError) {
        self.stats.malformed_frames.fetch_add(1, Ordering::Relaxed);
        metrics::counter!("marketlens_stream_malformed_frames_total", "exchange" => self.exchange.as_str())
            .increment(1);
        if self.last_logged.is_some_and(|logged| logged.elapsed() < LOG_EVERY) {
            self.unlogged += 1;
            return;
        }
        tracing::warn!(
            exchange = self.exchange.as_str(),
            %error,
            skipped_since_last_log = self.unlogged,
            "skipped a stream frame that cannot be read"
        );
        self.last_logged = Some(Instant::now());
        self.unlogged = 0;
    }
}
