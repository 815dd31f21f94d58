//! The command line. Every option that configures the service can also come from an
//! environment variable, named beside it; the command line wins.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use uuid::Uuid;

#[derive(Debug, Parser)]
#[command(
    name = "marketlens",
    version,
    about = "Polymarket and Kalshi prediction markets through one paid JSON API"
)]
pub struct Cli {
    /// Where the store lives: sqlite://PATH (created if missing).
    #[arg(
        long,
        global = true,
        env = "MARKETLENS_DATABASE_URL",
        default_value = "sqlite://marketlens.db"
    )]
    pub database_url: String,

    /// Log format: text for people, json for log collectors.
    #[arg(long, global = true, env = "MARKETLENS_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Requests per minute per tier, overriding or adding to the defaults
    /// (free=60, starter=300, pro=1200, enterprise=6000), e.g. "free=30,team=600".
    #[arg(long, global = true, env = "MARKETLENS_TIER_LIMITS", default_value = "")]
    pub tier_limits: String,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Load the bundled recorded exchange data if the store is empty, make a demo key, and serve.
    Demo(ServeArgs),
    /// Serve the API.
    Serve(ServeArgs),
    /// Load saved exchange API responses (Polymarket Gamma or Kalshi v2, /events or /markets).
    Import(ImportArgs),
    /// Manage accounts.
    #[command(subcommand)]
    Accounts(AccountsCommand),
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Manage credits.
    #[command(subcommand)]
    Credits(CreditsCommand),
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, env = "MARKETLENS_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,

    /// The longest a request may take before it is answered 503 and its charge refunded.
    #[arg(long, env = "MARKETLENS_REQUEST_TIMEOUT_SECS", default_value_t = 30)]
    pub request_timeout_secs: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExchangeArg {
    Polymarket,
    Kalshi,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Which exchange the files come from; each file's shape is checked against it.
    #[arg(long, value_enum)]
    pub exchange: ExchangeArg,

    /// JSON files as the exchange's API returned them.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum AccountsCommand {
    /// Create an account and its first key (printed once).
    Create {
        #[arg(long)]
        tier: String,
        /// Credits to start with.
        #[arg(long)]
        credits: i64,
        /// The user's wallet address, if any.
        #[arg(long, default_value = "")]
        wallet: String,
        /// An operator's name for the account.
        #[arg(long, default_value = "")]
        label: String,
    },
    /// List every account with its balance.
    List,
    /// Refuse every call of an account (403) until it is activated again.
    Suspend { account: Uuid },
    /// Let a suspended account call again.
    Activate { account: Uuid },
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Make a new key for an account (printed once).
    Create { account: Uuid },
    /// List an account's keys, truncated.
    List { account: Uuid },
    /// Revoke a key; it fails from its next request on.
    Revoke { key: Uuid },
}

#[derive(Debug, Subcommand)]
pub enum CreditsCommand {
    /// Add credits to an account.
    Add { account: Uuid, credits: i64 },
}
