//! The server's configuration, parsed and checked once at start-up from the command line
//! and the environment (which clap reads; nothing else in the program reads the
//! environment).

use anyhow::{Context, bail};
use marketlens_api::ApiSettings;
use marketlens_catalog::CatalogSettings;
use marketlens_domain::rate_limit::TierTable;
use std::net::SocketAddr;
use std::time::Duration;

use crate::cli::{ServeArgs, ServeCommandArgs, SyncArgs};
use marketlens_sync::{ExchangeSettings, SyncSettings};

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
        Ok(ServerConfig {
            bind,
            api: ApiSettings {
                tiers,
                request_timeout: Duration::from_secs(args.request_timeout_secs),
                benchmark: args.benchmark,
            },
            redis_url: args.redis_url.clone(),
            catalog: CatalogSettings {
                min_interval: Duration::from_secs(args.catalog_refresh_secs),
                ..CatalogSettings::default()
            },
        })
    }
}

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

/// When `serve` syncs in the background.
#[derive(Debug, Clone)]
pub struct SyncSchedule {
    pub settings: SyncSettings,
    pub incremental_every: Duration,
    pub full_every: Duration,
}

/// The background sync of `serve`, or `None` with `--no-sync`.
pub fn sync_schedule(args: &ServeCommandArgs) -> anyhow::Result<Option<SyncSchedule>> {
    if args.no_sync {
        return Ok(None);
    }
    if args.sync_interval_secs < 10 || args.full_sync_interval_secs < args.sync_interval_secs {
        bail!("sync intervals: incremental at least 10 s, and full at least as long as incremental");
    }
    Ok(Some(SyncSchedule {
        settings: sync_settings(&args.sync)?,
        incremental_every: Duration::from_secs(args.sync_interval_secs),
        full_every: Duration::from_secs(args.full_sync_interval_secs),
    }))
}
