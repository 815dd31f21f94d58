//! Books and trades fetched from the exchanges' REST endpoints, shared per node.
//!
//! | exchange | book | trades |
//! |---|---|---|
//! | Polymarket | CLOB `GET /book?token_id=<first token>` | Data API `GET /trades?market=<condition id>&limit=&offset=` |
//! | Kalshi | `GET /markets/<ticker>/orderbook` | `GET /markets/trades?ticker=<ticker>&limit=&cursor=` |
//!
//! Polymarket's token and condition ids are looked up once per market on Gamma
//! (`/markets/keyset?id=…`, the sync's look-up) and kept: they never change. The store keeps
//! neither, and a look-up is one request per market per node lifetime. The live stream's
//! connectors need the same tokens, so this source is also the stream's [`StreamMarkets`].
//!
//! Books and trade pages sit in `moka` caches whose `try_get_with` runs one fetch per key at a
//! time: the callers that arrive while it runs wait for it and share its answer (an error
//! included, which is not kept). An answer is kept for [`DepthSettings::cache_ttl`], so a book
//! served is at most that old plus the fetch; the API states its age and flags it stale past
//! its configured bound.
//!
//! Requests are paced per exchange and retried once (a caller waits on them): a book that
//! cannot be fetched is an error, never an older book passed off as new.

use async_trait::async_trait;
use chrono::Utc;
use marketlens_domain::Exchange;
use marketlens_domain::depth::{
    BookSource, DepthError, DepthMarket, DepthSource, Ladder, OrderBook, TradePage, binary_books,
};
use marketlens_domain::stream::{StreamMarket, StreamMarkets};
use marketlens_exchanges::depth::polymarket::MarketTokens;
use marketlens_exchanges::depth::{BookReading, DepthPayloadError, TradesReading, kalshi, polymarket};
use moka::future::Cache;
use std::sync::Arc;
use std::time::Duration;
use url::form_urlencoded::Serializer;
use uuid::Uuid;

use super::{DepthSettings, named_trades};
use crate::http::{FetchError, Reading, Retrying};
use crate::settings::SyncSettings;
use crate::source::market_lookup;

/// The largest depth body accepted: Polymarket's deepest recorded book is 6 KB, a Gamma
/// look-up page of one market a few KB.
const MAX_BODY_BYTES: usize = 4 << 20;
/// Books and pages of trades kept per node, at most.
const CACHE_CAPACITY: u64 = 50_000;

/// Depth from the exchanges, cached per node. Cheap to share behind an `Arc`.
pub struct RestDepth {
    gamma_url: String,
    clob_url: String,
    data_url: String,
    kalshi_url: String,
    polymarket: Retrying,
    kalshi: Retrying,
    tokens: Cache<Uuid, Arc<MarketTokens>>,
    books: Cache<Uuid, Arc<OrderBook>>,
    trades: Cache<(Uuid, Option<String>, u32), Arc<TradePage>>,
}

impl RestDepth {
    /// The exchanges' base URLs are the sync's (`sync`, Gamma and Kalshi) and `depth`'s (CLOB
    /// and Data API).
    pub fn new(sync: &SyncSettings, depth: &DepthSettings) -> Result<RestDepth, FetchError> {
        let http_settings = SyncSettings {
            request_timeout: depth.request_timeout,
            max_attempts: 2,
            first_retry_delay: Duration::from_millis(100),
            max_retry_delay: Duration::from_millis(500),
            longest_retry_after: Duration::from_millis(500),
            ..sync.clone()
        };
        let trim = |url: &str| url.trim_end_matches('/').to_owned();
        Ok(RestDepth {
            gamma_url: trim(&sync.polymarket.base_url),
            clob_url: trim(&depth.polymarket_clob_url),
            data_url: trim(&depth.polymarket_data_url),
            kalshi_url: trim(&sync.kalshi.base_url),
            polymarket: Retrying::new(&http_settings, depth.requests_per_second, MAX_BODY_BYTES)?,
            kalshi: Retrying::new(&http_settings, depth.requests_per_second, MAX_BODY_BYTES)?,
            tokens: Cache::builder().max_capacity(CACHE_CAPACITY).build(),
            books: shared_cache(depth.cache_ttl),
            trades: shared_cache(depth.cache_ttl),
        })
    }

    async fn fetch_book(&self, market: &DepthMarket) -> Result<OrderBook, DepthError> {
        let (reading, arrived) = match market.exchange {
            Exchange::Polymarket => {
                let tokens = self.tokens(market).await?;
                let token = tokens.token_ids.first().ok_or(DepthError::NotAvailable)?;
                let path = format!("/book?{}", query(&[("token_id", token.as_str())]));
                let url = format!("{}{path}", self.clob_url);
                match self
                    .polymarket
                    .get(&path, &url, |body| read(polymarket::book(body)))
                    .await
                {
                    Ok(reading) => (reading, Utc::now()),
                    // "No orderbook exists for the requested token id": a closed market's book.
                    Err(FetchError::Refused { status: 404, .. }) => (
                        BookReading {
                            ladder: Ladder::default(),
                            timestamp: None,
                        },
                        Utc::now(),
                    ),
                    Err(error) => return Err(upstream(error)),
                }
            }
            Exchange::Kalshi => {
                let path = format!("/markets/{}/orderbook", path_segment(&market.external_id));
                let url = format!("{}{path}", self.kalshi_url);
                let reading = self
                    .kalshi
                    .get(&path, &url, |body| read(kalshi::orderbook(body)))
                    .await
                    .map_err(upstream)?;
                (reading, Utc::now())
            }
        };
        Ok(OrderBook {
            timestamp: reading.timestamp.unwrap_or(arrived),
            source: BookSource::Rest,
            recorded_from: None,
            outcomes: binary_books(&market.outcomes, reading.ladder),
        })
    }

    /// The market's CLOB tokens, looked up on Gamma once.
    async fn tokens(&self, market: &DepthMarket) -> Result<Arc<MarketTokens>, DepthError> {
        self.tokens
            .try_get_with(market.id, async {
                let path = market_lookup(Exchange::Polymarket, std::slice::from_ref(&market.external_id));
                let url = format!("{}{path}", self.gamma_url);
                let external_id = market.external_id.as_str();
                let tokens = self
                    .polymarket
                    .get(&path, &url, |body| read(polymarket::market_tokens(body, external_id)))
                    .await
                    .map_err(upstream)?;
                tokens.map(Arc::new).ok_or(DepthError::NotAvailable)
            })
            .await
            .map_err(unshared)
    }

    async fn fetch_trades(
        &self,
        market: &DepthMarket,
        after: Option<&str>,
        limit: u32,
    ) -> Result<TradePage, DepthError> {
        let limit_text = limit.to_string();
        let (reading, next) = match market.exchange {
            Exchange::Polymarket => {
                let offset = after.map_or(Ok(0), |token| token.parse::<u32>().map_err(|_| DepthError::BadCursor))?;
                let tokens = self.tokens(market).await?;
                let offset_text = offset.to_string();
                let path = format!(
                    "/trades?{}",
                    query(&[
                        ("market", tokens.condition_id.as_str()),
                        ("limit", limit_text.as_str()),
                        ("offset", offset_text.as_str())
                    ])
                );
                let url = format!("{}{path}", self.data_url);
                let reading = self
                    .polymarket
                    .get(&path, &url, |body| read(polymarket::trades(body)))
                    .await
                    .map_err(upstream)?;
                // The Data API pages by offset: a full page may have more behind it.
                let next = (reading.records >= limit as usize)
                    .then(|| offset.checked_add(limit).map(|next| next.to_string()))
                    .flatten();
                (reading, next)
            }
            Exchange::Kalshi => {
                let mut pairs = vec![("ticker", market.external_id.as_str()), ("limit", limit_text.as_str())];
                if let Some(cursor) = after {
                    if !is_kalshi_cursor(cursor) {
                        return Err(DepthError::BadCursor);
                    }
                    pairs.push(("cursor", cursor));
                }
                let path = format!("/markets/trades?{}", query(&pairs));
                let url = format!("{}{path}", self.kalshi_url);
                let reading: TradesReading = self
                    .kalshi
                    .get(&path, &url, |body| read(kalshi::trades(body)))
                    .await
                    .map_err(upstream)?;
                let next = reading.cursor.clone().filter(|_| reading.records > 0);
                (reading, next)
            }
        };
        Ok(TradePage {
            trades: named_trades(market, reading.trades),
            next,
            source: BookSource::Rest,
            recorded_from: None,
        })
    }
}

#[async_trait]
impl DepthSource for RestDepth {
    async fn book(&self, market: &DepthMarket) -> Result<OrderBook, DepthError> {
        let book = self
            .books
            .try_get_with(market.id, async {
                counted(market.exchange, "book", self.fetch_book(market).await).map(Arc::new)
            })
            .await
            .map_err(unshared)?;
        Ok(OrderBook::clone(&book))
    }

    async fn trades(&self, market: &DepthMarket, after: Option<&str>, limit: u32) -> Result<TradePage, DepthError> {
        let key = (market.id, after.map(str::to_owned), limit);
        let page = self
            .trades
            .try_get_with(key, async {
                counted(market.exchange, "trades", self.fetch_trades(market, after, limit).await).map(Arc::new)
            })
            .await
            .map_err(unshared)?;
        Ok(TradePage::clone(&page))
    }
}

#[async_trait]
impl StreamMarkets for RestDepth {
    async fn stream_market(&self, market: &DepthMarket) -> Result<StreamMarket, DepthError> {
        let tokens = match market.exchange {
            Exchange::Polymarket => {
                let tokens = self.tokens(market).await?;
                if tokens.token_ids.is_empty() {
                    return Err(DepthError::NotAvailable);
                }
                tokens.token_ids.clone()
            }
            Exchange::Kalshi => Vec::new(),
        };
        Ok(StreamMarket {
            id: market.id,
            exchange: market.exchange,
            external_id: market.external_id.clone(),
            outcomes: market.outcomes.clone(),
            tokens,
        })
    }
}

/// A cache whose entries live `ttl`; at least a millisecond, so that `--depth-cache-ms 0` keeps nothing
/// but still gives the callers of one fetch its one answer.
fn shared_cache<K, V>(ttl: Duration) -> Cache<K, V>
where
    K: std::hash::Hash + Eq + Send + Sync + 'static,
    V: Clone + Send + Sync + 'static,
{
    Cache::builder()
        .max_capacity(CACHE_CAPACITY)
        .time_to_live(ttl.max(Duration::from_millis(1)))
        .build()
}

/// A body that parses is read; one that does not is garbled if it is not JSON (worth one
/// more try), refused otherwise.
fn read<T>(result: Result<T, DepthPayloadError>) -> Reading<T> {
    match result {
        Ok(value) => Reading::Read(value),
        Err(error) if error.garbled => Reading::Garbled(error.to_string()),
        Err(error) => Reading::Refused(error.to_string()),
    }
}

/// Counts one shared fetch in `marketlens_depth_fetches_total`: beside the requests' own count,
/// it shows how many callers each upstream fetch served.
fn counted<T>(exchange: Exchange, what: &'static str, result: Result<T, DepthError>) -> Result<T, DepthError> {
    metrics::counter!(
        "marketlens_depth_fetches_total",
        "exchange" => exchange.as_str(),
        "what" => what,
        "outcome" => if result.is_ok() { "success" } else { "failure" }
    )
    .increment(1);
    result
}

fn upstream(error: FetchError) -> DepthError {
    DepthError::Upstream(error.to_string())
}

/// The error a shared fetch ended with, for each of its callers.
fn unshared(error: Arc<DepthError>) -> DepthError {
    DepthError::clone(&error)
}

fn query(pairs: &[(&str, &str)]) -> String {
    let mut query = Serializer::new(String::new());
    for (name, value) in pairs {
        query.append_pair(name, value);
    }
    query.finish()
}

/// A ticker as one path segment: Kalshi's tickers are letters, digits, `-` and `.`; anything
/// else is percent-encoded, so that no stored id can change the path.
fn path_segment(ticker: &str) -> String {
    url::form_urlencoded::byte_serialize(ticker.as_bytes()).collect()
}

/// Kalshi's cursors are URL-safe base64 (`EhIKEGiNwc3pm3X2QYbRDgixEEEaDAjN9pPLBhDIivDDAQ`).
fn is_kalshi_cursor(cursor: &str) -> bool {
    !cursor.is_empty()
        && cursor.len() <= 512
        && cursor
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'=' | b'+' | b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_ticker_cannot_change_the_path() {
        assert_eq!(path_segment("KXBTCD-26JUL2502-T74299.99"), "KXBTCD-26JUL2502-T74299.99");
        assert_eq!(path_segment("../x?y"), "..%2Fx%3Fy");
        assert!(is_kalshi_cursor("EhIKEGiNwc3pm3X2QYbRDgixEEEaDAjN9pPLBhDIivDDAQ"));
        assert!(!is_kalshi_cursor("a&b"));
    }
}
