//! The server's configuration, parsed and checked once at start-up from the command line
//! and the environment (which clap reads; nothing else in the program reads the
//! environment).

use anyhow::{Context, bail};
use marketlens_api::ApiSettings;
use marketlens_domain::rate_limit::TierTable;
use std::net::SocketAddr;
use std::time::Duration;

use crate::cli::ServeArgs;

/// The tiers in force: the defaults with the operator's overrides.
pub fn tiers(tier_limits: &str) -> anyhow::Result<TierTable> {
    TierTable::with_overrides(tier_limits).context("--tier-limits / MARKETLENS_TIER_LIMITS")
}

#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub bind: SocketAddr,
    pub api: ApiSettings,
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
            },
        })
    }
}
