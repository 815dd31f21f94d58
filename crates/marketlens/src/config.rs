//! The server's configuration, parsed and checked once at start-up from the command line
//! and the environment (which clap reads; nothing else in the program reads the
//! environment).

use anyhow::{Context, bail};
use marketlens_api::ApiSettings;
use marketlens_api::admin_token::AdminToken;
use marketlens_api::stream::{FeedOrigin, StreamSettings};
use marketlens_catalog::CatalogSettings;
use marketlens_domain::history::Retention;
use marketlens_domain::rate_limit::{StreamTierTable, TierTable};
use std::net::SocketAddr;
use std::time::Duration;

use crate::cli::{HistoryArgs, NewsFeedArgs, ServeArgs, ServeCommandArgs, SyncArgs};
use chrono::TimeDelta;
use marketlens_connectors::{
    ConnectionSettings, Connector, ExchangeFeeds, KalshiCredentials, RelayFeed, RelaySettings,
};
use marketlens_domain::stream::{LiveFeed, MarketUpdate, StreamMarkets};
use marketlens_sync::depth::{DepthSettings, RestDepth};
use marketlens_sync::live_history::LivePrices;
use marketlens_sync::schedule::SyncSchedule;
use marketlens_sync::{ExchangeSettings, SyncSettings};
use std::sync::Arc;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

/// The tiers in force: the defaults with the operator's overrides.
pub fn tiers(tier_limits: &str) -> anyhow::Result<TierTable> {
    TierTable::with_overrides(tier_limits).context("--tier-limits / MARKETLENS_TIER_LIMITS")
}

#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub bind: SocketAddr,
    pub api: ApiSettings,
    /// The shared rate-limit counters, if configured.
    pub redis_url: Option<String>,
    /// The prefix of every key and channel in Redis.
    pub redis_key_prefix: String,
    /// How the in-memory catalogue follows the store.
    pub catalog: CatalogSettings,
}

impl ServerConfig {
    pub fn from_args(args: &ServeArgs, tiers: TierTable) -> anyhow::Result<ServerConfig> {
        let bind: SocketAddr = args.bind.parse().with_context(|| {
            format!(
                "--bind / MARKETLENS_BIND: {:?} is not an address like 127.0.0.1:8080",
                args.bind
            )
        })?;
        if !(1..=600).contains(&args.request_timeout_secs) {
            bail!("--request-timeout-secs / MARKETLENS_REQUEST_TIMEOUT_SECS must be from 1 to 600");
        }
        if !(10..=10_000).contains(&args.store_slow_ms) {
            bail!("--store-slow-ms / MARKETLENS_STORE_SLOW_MS must be from 10 to 10000");
        }
        if !(1..=MAX_STALE_AFTER_SECS).contains(&args.stale_after_secs) {
            bail!("--stale-after-secs / MARKETLENS_STALE_AFTER_SECS must be from 1 to {MAX_STALE_AFTER_SECS}");
        }
        if !(1..=MAX_IDEMPOTENCY_TTL_SECS).contains(&args.idempotency_ttl_secs) {
            bail!(
                "--idempotency-ttl-secs / MARKETLENS_IDEMPOTENCY_TTL_SECS must be from 1 to {MAX_IDEMPOTENCY_TTL_SECS}"
            );
        }
        Ok(ServerConfig {
            bind,
            api: ApiSettings {
                tiers,
                request_timeout: Duration::from_secs(args.request_timeout_secs),
                store_slow_after: Duration::from_millis(args.store_slow_ms),
                benchmark: args.benchmark,
                news_window: news_window(args.news_window_days)?,
                stale_after: TimeDelta::seconds(args.stale_after_secs as i64),
                failed_auth_per_minute: args.failed_auth_per_minute,
                idempotency_ttl: Duration::from_secs(args.idempotency_ttl_secs),
                depth_max_age: depth_max_age(args.depth_max_age_ms)?,
                stream: StreamSettings {
                    limits: StreamTierTable::with_overrides(&args.stream_limits)
                        .context("--stream-limits / MARKETLENS_STREAM_LIMITS")?,
                    ..StreamSettings::default()
                },
                admin_token: args
                    .admin_token
                    .as_deref()
                    .map(AdminToken::new)
                    .transpose()
                    .map_err(|error| anyhow::anyhow!("--admin-token / MARKETLENS_ADMIN_TOKEN: {error}"))?,
            },
            redis_url: args.redis_url.clone(),
            redis_key_prefix: args.redis_key_prefix.clone(),
            catalog: CatalogSettings {
                min_interval: Duration::from_secs(args.catalog_refresh_secs),
                ..CatalogSettings::default()
            },
        })
    }
}

/// The longest stale age accepted: 30 days.
const MAX_STALE_AFTER_SECS: u64 = 30 * 86_400;

/// The longest idempotency keys are kept: 30 days.
const MAX_IDEMPOTENCY_TTL_SECS: u64 = 30 * 86_400;

/// The largest page each exchange serves: Gamma's `/events/keyset` 500, Kalshi's `/events` 200.
const POLYMARKET_MAX_PAGE: u32 = 500;
const KALSHI_MAX_PAGE: u32 = 200;

pub fn sync_settings(args: &SyncArgs) -> anyhow::Result<SyncSettings> {
    let exchange =
        |name: &str, base_url: &str, page_size: u32, max_page: u32, rps: u32| -> anyhow::Result<ExchangeSettings> {
            let url = url::Url::parse(base_url).with_context(|| format!("the {name} URL {base_url:?} is not a URL"))?;
            if !matches!(url.scheme(), "http" | "https") {
                bail!("the {name} URL must be http or https, not {}", url.scheme());
            }
            if !(1..=max_page).contains(&page_size) {
                bail!("the {name} page size must be from 1 to {max_page}");
            }
            if !(1..=1000).contains(&rps) {
                bail!("the {name} request rate must be from 1 to 1000 per second");
            }
            Ok(ExchangeSettings {
                base_url: base_url.trim_end_matches('/').to_owned(),
                page_size,
                requests_per_second: rps,
            })
        };
    if !(1..=600).contains(&args.sync_request_timeout_secs) {
        bail!("--sync-request-timeout-secs must be from 1 to 600");
    }
    if !(1..=20).contains(&args.sync_attempts) {
        bail!("--sync-attempts must be from 1 to 20");
    }
    Ok(SyncSettings {
        polymarket: exchange(
            "Polymarket",
            &args.polymarket_url,
            args.polymarket_page_size,
            POLYMARKET_MAX_PAGE,
            args.polymarket_rps,
        )?,
        kalshi: exchange(
            "Kalshi",
            &args.kalshi_url,
            args.kalshi_page_size,
            KALSHI_MAX_PAGE,
            args.kalshi_rps,
        )?,
        request_timeout: Duration::from_secs(args.sync_request_timeout_secs),
        max_attempts: args.sync_attempts,
        ..SyncSettings::default()
    })
}

fn depth_max_age(millis: u64) -> anyhow::Result<Duration> {
    if !(1..=86_400_000).contains(&millis) {
        bail!("--depth-max-age-ms must be from 1 to 86400000");
    }
    Ok(Duration::from_millis(millis))
}

/// The depth source of `serve`: the exchanges' REST endpoints on the configured base URLs,
/// unless `--no-depth`.
pub fn depth_source(args: &ServeCommandArgs) -> anyhow::Result<Option<Arc<RestDepth>>> {
    let depth = &args.depth;
    if depth.no_depth {
        return Ok(None);
    }
    for (name, url) in [
        ("--polymarket-clob-url", &depth.polymarket_clob_url),
        ("--polymarket-data-url", &depth.polymarket_data_url),
    ] {
        let parsed = url::Url::parse(url).with_context(|| format!("{name}: {url:?} is not a URL"))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            bail!("{name} must be http or https, not {}", parsed.scheme());
        }
    }
    if depth.depth_cache_ms > 60_000 {
        bail!("--depth-cache-ms must be from 0 to 60000");
    }
    if !(1..=1000).contains(&depth.depth_rps) {
        bail!("--depth-rps must be from 1 to 1000");
    }
    let settings = DepthSettings {
        polymarket_clob_url: depth.polymarket_clob_url.clone(),
        polymarket_data_url: depth.polymarket_data_url.clone(),
        cache_ttl: Duration::from_millis(depth.depth_cache_ms),
        requests_per_second: depth.depth_rps,
        ..DepthSettings::default()
    };
    let source = RestDepth::new(&sync_settings(&args.sync)?, &settings).context("the depth HTTP client")?;
    Ok(Some(Arc::new(source)))
}

/// A live stream's parts: the feed that follows markets, the updates it sends, what turns
/// a stored market into one the feed follows, and the prices its exchange connections receive.
pub struct LiveStream {
    pub feed: Arc<dyn LiveFeed>,
    /// The exchanges, or a recording (the demo's).
    pub origin: FeedOrigin,
    pub updates: tokio::sync::mpsc::Receiver<MarketUpdate>,
    pub markets: Arc<dyn StreamMarkets>,
    /// To be told the sync lease's deadline while this node holds it (the background sync
    /// does): with the relay, only the holder connects to the exchanges; and only the holder
    /// writes the prices received to the history.
    pub lease: watch::Sender<Option<Instant>>,
    /// Every price the exchange connections of this process receive, for the history; none
    /// when the stream plays recordings (the demo's).
    pub prices: Option<LivePrices>,
}

/// Updates the connectors may hold for the stream's hub before they drop some (and resync the
/// markets they dropped them for).
pub const STREAM_UPDATES_CAPACITY: usize = 16_384;

/// One feed over both exchanges' connectors at these URLs, sending to `updates`: Kalshi's only
/// with credentials (its stream requires them).
pub fn exchange_feeds(
    polymarket_url: &str,
    kalshi_url: &str,
    kalshi_credentials: Option<KalshiCredentials>,
    updates: mpsc::Sender<MarketUpdate>,
) -> Arc<dyn LiveFeed> {
    let settings = ConnectionSettings::default();
    // Fails only without credentials, which were given.
    let kalshi = kalshi_credentials.and_then(|credentials| {
        Connector::kalshi(kalshi_url, Some(credentials), updates.clone(), settings.clone()).ok()
    });
    let polymarket = Connector::polymarket(polymarket_url, updates.clone(), settings);
    Arc::new(ExchangeFeeds::new(Some(polymarket), kalshi, updates))
}

/// The live stream of `serve`: the exchanges' WebSocket connectors, with `depth` looking up
/// the markets' channel keys; none with `--no-stream` or without a depth source. On a shared
/// store (PostgreSQL) with Redis, the connectors are the lease holder's, relayed to every node
/// through Redis ([`RelayFeed`]); otherwise this node's own. Either way the exchange
/// connections' updates pass through [`LivePrices::tap`] on their way. Must be called within the
/// runtime (the connectors and the relay start their tasks on it).
pub fn live_stream(
    args: &ServeCommandArgs,
    database_url: &str,
    depth: Option<&Arc<RestDepth>>,
) -> anyhow::Result<Option<LiveStream>> {
    let stream = &args.depth;
    let Some(depth) = depth.filter(|_| !stream.no_stream) else {
        return Ok(None);
    };
    for (name, url) in [
        ("--polymarket-ws-url", &stream.polymarket_ws_url),
        ("--kalshi-ws-url", &stream.kalshi_ws_url),
    ] {
        let parsed = url::Url::parse(url).with_context(|| format!("{name}: {url:?} is not a URL"))?;
        if !matches!(parsed.scheme(), "ws" | "wss") {
            bail!("{name} must be ws or wss, not {}", parsed.scheme());
        }
    }
    // The credentials first: a bad key path is refused before any connector starts.
    let kalshi_credentials = match (&stream.kalshi_api_key_id, &stream.kalshi_private_key_path) {
        (Some(key_id), Some(path)) => Some(
            KalshiCredentials::from_pem_file(&key_id.0, path)
                .context("--kalshi-private-key-path / MARKETLENS_KALSHI_PRIVATE_KEY_PATH")?,
        ),
        _ => {
            tracing::info!(
                "Kalshi markets are not streamed: no Kalshi API key (MARKETLENS_KALSHI_API_KEY_ID and MARKETLENS_KALSHI_PRIVATE_KEY_PATH)"
            );
            None
        }
    };
    let (polymarket_url, kalshi_url) = (stream.polymarket_ws_url.clone(), stream.kalshi_ws_url.clone());
    let prices = LivePrices::default();
    let tap = prices.clone();
    let connect = move |updates: mpsc::Sender<MarketUpdate>| -> Arc<dyn LiveFeed> {
        exchange_feeds(
            &polymarket_url,
            &kalshi_url,
            kalshi_credentials.clone(),
            tap.tap(updates),
        )
    };
    let (updates, received) = mpsc::channel(STREAM_UPDATES_CAPACITY);
    let redis_url = args.serve.redis_url.as_deref();
    let (lease, leading) = watch::channel(None);
    let feed = match redis_url.filter(|_| marketlens_storage::is_shared(database_url)) {
        Some(redis_url) => {
            let lease_secs = Duration::from_secs(args.sync_lease_secs);
            let settings = RelaySettings {
                prefix: args.serve.redis_key_prefix.clone(),
                refresh_every: lease_secs / 3,
                follows_expire_after: lease_secs,
            };
            let relay = RelayFeed::start(redis_url, settings, Box::new(connect), leading, updates)
                .context("--redis-url / MARKETLENS_REDIS_URL")?;
            tracing::info!(
                "the live stream is relayed through Redis: the sync lease's holder connects to the exchanges"
            );
            Arc::new(relay) as Arc<dyn LiveFeed>
        }
        None => connect(updates),
    };
    Ok(Some(LiveStream {
        feed,
        origin: FeedOrigin::Exchanges,
        updates: received,
        markets: depth.clone(),
        lease,
        prices: Some(prices),
    }))
}

/// How long articles count as news when the operator does not say.
const DEFAULT_NEWS_WINDOW_DAYS: u32 = 14;
/// The longest news window accepted: a century, which is to say any age (the demo's).
pub const MAX_NEWS_WINDOW_DAYS: u32 = 36_525;

/// The news window in force: `--news-window-days`, or 14 days.
pub fn news_window(days: Option<u32>) -> anyhow::Result<TimeDelta> {
    let days = days.unwrap_or(DEFAULT_NEWS_WINDOW_DAYS);
    if !(1..=MAX_NEWS_WINDOW_DAYS).contains(&days) {
        bail!("--news-window-days / MARKETLENS_NEWS_WINDOW_DAYS must be from 1 to {MAX_NEWS_WINDOW_DAYS}");
    }
    Ok(TimeDelta::days(i64::from(days)))
}

/// The feeds to poll: the operator's list, or the default one. Each must be an http(s) URL.
pub fn news_feeds(args: &NewsFeedArgs) -> anyhow::Result<Vec<String>> {
    let Some(list) = &args.news_feeds else {
        return Ok(marketlens_news::DEFAULT_FEEDS
            .iter()
            .map(|feed| feed.url.to_owned())
            .collect());
    };
    let mut feeds = Vec::new();
    for entry in list.split(',').map(str::trim).filter(|entry| !entry.is_empty()) {
        let url = url::Url::parse(entry)
            .with_context(|| format!("--news-feeds / MARKETLENS_NEWS_FEEDS: {entry:?} is not a URL"))?;
        if !matches!(url.scheme(), "http" | "https") {
            bail!("--news-feeds / MARKETLENS_NEWS_FEEDS: {entry:?} must be http or https");
        }
        if !feeds.iter().any(|known| known == entry) {
            feeds.push(entry.to_owned());
        }
    }
    Ok(feeds)
}

/// The background sync of `serve`, or `None` with `--no-sync`.
pub fn sync_schedule(args: &ServeCommandArgs) -> anyhow::Result<Option<SyncSchedule>> {
    if args.no_sync {
        return Ok(None);
    }
    if args.sync_interval_secs < 10 || args.full_sync_interval_secs < args.sync_interval_secs {
        bail!("sync intervals: incremental at least 10 s, and full at least as long as incremental");
    }
    if args.news_poll_secs < 60 {
        bail!("--news-poll-secs / MARKETLENS_NEWS_POLL_SECS must be at least 60");
    }
    Ok(Some(SyncSchedule {
        settings: sync_settings(&args.sync)?,
        incremental_every: Duration::from_secs(args.sync_interval_secs),
        full_every: Duration::from_secs(args.full_sync_interval_secs),
        news_feeds: news_feeds(&args.news)?,
        news_every: Duration::from_secs(args.news_poll_secs),
        news_window: news_window(args.serve.news_window_days)?,
        retention: retention(&args.history)?,
        // From 3 to 600 (`cli`).
        lease: Duration::from_secs(args.sync_lease_secs),
    }))
}

/// The longest five-minute and hourly bars may be kept: a year. Bounds the rows one history
/// call reads (four-hour candles are merged from all the hourly bars of their range: at most
/// 8,784).
const MAX_RETENTION_DAYS: u32 = 366;

/// The price history's retention: `--history-five-minute-days` and `--history-hourly-days`.
pub fn retention(args: &HistoryArgs) -> anyhow::Result<Retention> {
    let (five_minutes, hours) = (args.history_five_minute_days, args.history_hourly_days);
    if !(1..=MAX_RETENTION_DAYS).contains(&five_minutes) || !(five_minutes..=MAX_RETENTION_DAYS).contains(&hours) {
        bail!(
            "--history-five-minute-days must be from 1 to {MAX_RETENTION_DAYS}, and --history-hourly-days from it to {MAX_RETENTION_DAYS}"
        );
    }
    Ok(Retention {
        five_minutes: TimeDelta::days(i64::from(five_minutes)),
        hours: TimeDelta::days(i64::from(hours)),
    })
}
