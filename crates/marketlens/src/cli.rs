//! The command line. Every option that configures the service can also come from an
//! environment variable, named beside it; the command line wins.

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use uuid::Uuid;

#[derive(Debug, Parser)]
#[command(
    name = "marketlens",
    version,
    about = "Polymarket and Kalshi prediction markets through one paid JSON API"
)]
pub struct Cli {
    /// Where the store lives: sqlite://PATH (created if missing) or postgres://USER:PASSWORD@HOST/DATABASE.
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
    /// Serve the API, and keep the store fresh from the exchanges unless --no-sync.
    Serve(Box<ServeCommandArgs>),
    /// Sync from the exchanges' APIs once, with progress, then report.
    Sync(SyncCommandArgs),
    /// Load saved exchange API responses (Polymarket Gamma or Kalshi v2, /events or /markets).
    Import(ImportArgs),
    /// Measure the cross-exchange matcher, or show why two markets match or not.
    Match(MatchArgs),
    /// Manage accounts.
    #[command(subcommand)]
    Accounts(AccountsCommand),
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Manage credits.
    #[command(subcommand)]
    Credits(CreditsCommand),
    /// Fill the store with synthetic markets and events drawn from the recorded ones, or news
    /// articles drawn from the recorded feeds (benchmarks).
    #[command(group(ArgGroup::new("what").required(true).multiple(true).args(["synthetic", "articles", "history"])))]
    Seed {
        /// How many markets.
        #[arg(long)]
        synthetic: Option<u64>,
        /// How many news articles, dated over the last 14 days.
        #[arg(long)]
        articles: Option<u64>,
        /// How many stored markets (the first by id) get a year of price history, as a market
        /// observed every five minutes holds it under the default retention.
        #[arg(long)]
        history: Option<u64>,
        /// The random seed: the same seed and size give the same catalogue.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Bring the store named by --database-url to this version's schema, then exit (serve and
    /// every other command do this by themselves too).
    Migrate,
    /// Copy a whole store into a new, empty one (e.g. SQLite into PostgreSQL), then check the copy.
    Copy {
        /// The store to copy: sqlite://PATH or postgres://...
        #[arg(long)]
        from: String,
        /// The new store, which must be empty.
        #[arg(long)]
        to: String,
    },
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, env = "MARKETLENS_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,

    /// The longest a request may take, authentication and charging included, before it is
    /// answered 503 (uncharged).
    #[arg(long, env = "MARKETLENS_REQUEST_TIMEOUT_SECS", default_value_t = 30)]
    pub request_timeout_secs: u64,

    /// How many milliseconds the store may take to answer the background health probe (a
    /// trivial read, every 250 ms) before it counts as slow and /readyz says not ready.
    #[arg(long, env = "MARKETLENS_STORE_SLOW_MS", default_value_t = 500)]
    pub store_slow_ms: u64,

    /// Failed authentications (API key or admin token) one client address may make in a minute
    /// before its unknown credentials are refused with 429 unread; 0 turns the limit off.
    /// Behind a reverse proxy every client has the proxy's address: raise it, or limit there.
    #[arg(long, env = "MARKETLENS_FAILED_AUTH_PER_MINUTE", default_value_t = marketlens_api::state::DEFAULT_FAILED_AUTH_PER_MINUTE)]
    pub failed_auth_per_minute: u32,

    /// Also serve GET /benchmark/ceiling?bytes=N, a constant body with no work (bench/run.sh).
    #[arg(long, env = "MARKETLENS_BENCHMARK")]
    pub benchmark: bool,

    /// The least seconds between two loads of the in-memory catalogue when the store changes
    /// (a long sync changes it with every page).
    #[arg(long, env = "MARKETLENS_CATALOG_REFRESH_SECS", default_value_t = 10)]
    pub catalog_refresh_secs: u64,

    /// Redis for rate-limit counters shared by several nodes (redis://host:port/db). Without it
    /// each node counts in-process, which is exact for one node.
    #[arg(long, env = "MARKETLENS_REDIS_URL")]
    pub redis_url: Option<String>,

    /// The prefix of every key and channel written in Redis (rate limits, the live stream's
    /// relay): deployments sharing one Redis each need their own.
    #[arg(long, env = "MARKETLENS_REDIS_KEY_PREFIX", default_value = "marketlens")]
    pub redis_key_prefix: String,

    /// The token of the admin API under /admin/v1 (at least 32 characters, e.g. from
    /// `openssl rand -hex 16`); without it the admin API is off. Prefer the variable to the
    /// flag, which other users of the machine can read in the process list.
    #[arg(long, env = "MARKETLENS_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,

    /// Days an article counts as recent news for explain, and is kept (default 14; the demo
    /// counts its recorded feeds whatever their age).
    #[arg(long, env = "MARKETLENS_NEWS_WINDOW_DAYS")]
    pub news_window_days: Option<u32>,

    /// Seconds after its last sync that a market's price counts as stale in spreads.
    #[arg(long, env = "MARKETLENS_STALE_AFTER_SECS", default_value_t = 900)]
    pub stale_after_secs: u64,

    /// Seconds the answer of a charged call sent with an Idempotency-Key is kept for its
    /// repeats (1 to 2592000, 30 days).
    #[arg(long, env = "MARKETLENS_IDEMPOTENCY_TTL_SECS", default_value_t = 86_400)]
    pub idempotency_ttl_secs: u64,

    /// Milliseconds after which an order book is answered `stale: true` (1 to 86400000).
    #[arg(long, env = "MARKETLENS_DEPTH_MAX_AGE_MS", default_value_t = 10_000)]
    pub depth_max_age_ms: u64,

    /// Live streams per tier, as connections per account / markets per connection,
    /// overriding or adding to the defaults (free=1/5, starter=2/25, pro=5/100,
    /// enterprise=20/500), e.g. "free=2/10,team=10/200".
    #[arg(long, env = "MARKETLENS_STREAM_LIMITS", default_value = "")]
    pub stream_limits: String,
}

/// Where order books and trades are fetched from (`serve`).
#[derive(Debug, Clone, Args)]
pub struct DepthArgs {
    /// Serve no order books or trades: they are answered 503 DEPTH_UNAVAILABLE.
    #[arg(long, env = "MARKETLENS_NO_DEPTH")]
    pub no_depth: bool,

    /// Polymarket's CLOB API (order books).
    #[arg(
        long,
        env = "MARKETLENS_POLYMARKET_CLOB_URL",
        default_value = "https://clob.polymarket.com"
    )]
    pub polymarket_clob_url: String,

    /// Polymarket's Data API (trades).
    #[arg(
        long,
        env = "MARKETLENS_POLYMARKET_DATA_URL",
        default_value = "https://data-api.polymarket.com"
    )]
    pub polymarket_data_url: String,

    /// Milliseconds a fetched order book or page of trades is shared by every caller on this
    /// node (0 to 60000); concurrent callers of one book always share one fetch.
    #[arg(long, env = "MARKETLENS_DEPTH_CACHE_MS", default_value_t = 2_000)]
    pub depth_cache_ms: u64,

    /// Requests per second to each exchange for order books and trades, besides the sync's.
    #[arg(long, env = "MARKETLENS_DEPTH_RPS", default_value_t = 8)]
    pub depth_rps: u32,

    /// Serve no live stream: GET /api/v1/stream is answered 503 DEPTH_UNAVAILABLE.
    #[arg(long, env = "MARKETLENS_NO_STREAM")]
    pub no_stream: bool,

    /// Polymarket's CLOB WebSocket (market channel), for the live stream.
    #[arg(long, env = "MARKETLENS_POLYMARKET_WS_URL", default_value = marketlens_connectors::POLYMARKET_URL)]
    pub polymarket_ws_url: String,

    /// Kalshi's WebSocket API, for the live stream (needs a Kalshi API key).
    #[arg(long, env = "MARKETLENS_KALSHI_WS_URL", default_value = marketlens_connectors::KALSHI_URL)]
    pub kalshi_ws_url: String,

    /// The id of a Kalshi API key, for Kalshi's WebSocket API (with its private key's path);
    /// without one, Kalshi markets are not streamed.
    #[arg(
        long,
        env = "MARKETLENS_KALSHI_API_KEY_ID",
        hide_env_values = true,
        requires = "kalshi_private_key_path"
    )]
    pub kalshi_api_key_id: Option<Redacted>,

    /// The path of that Kalshi API key's private key (PEM, PKCS#8 or PKCS#1).
    #[arg(long, env = "MARKETLENS_KALSHI_PRIVATE_KEY_PATH", requires = "kalshi_api_key_id")]
    pub kalshi_private_key_path: Option<std::path::PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct ServeCommandArgs {
    #[command(flatten)]
    pub serve: ServeArgs,

    #[command(flatten)]
    pub sync: SyncArgs,

    #[command(flatten)]
    pub depth: DepthArgs,

    /// Do not sync in the background (serve what the store holds).
    #[arg(long, env = "MARKETLENS_NO_SYNC")]
    pub no_sync: bool,

    /// Seconds the sync lease lasts unless renewed (every third of it), 3 to 600: when its
    /// holder dies, another node takes over the sync and the live stream's exchange
    /// connections within this. Checked with or without `--no-sync` (the stream relay's
    /// timings follow it too).
    #[arg(long, env = "MARKETLENS_SYNC_LEASE_SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(3..=600))]
    pub sync_lease_secs: u64,

    /// Seconds between incremental syncs (what is open) of each exchange.
    #[arg(long, env = "MARKETLENS_SYNC_INTERVAL_SECS", default_value_t = 300)]
    pub sync_interval_secs: u64,

    /// Seconds between full syncs (everything) of each exchange.
    #[arg(long, env = "MARKETLENS_FULL_SYNC_INTERVAL_SECS", default_value_t = 86_400)]
    pub full_sync_interval_secs: u64,

    #[command(flatten)]
    pub news: NewsFeedArgs,

    /// Seconds between two polls of the news feeds.
    #[arg(long, env = "MARKETLENS_NEWS_POLL_SECS", default_value_t = 900)]
    pub news_poll_secs: u64,

    #[command(flatten)]
    pub history: HistoryArgs,
}

/// How long the price history keeps its finer bars (`marketlens_domain::history::Retention`).
#[derive(Debug, Clone, Args)]
pub struct HistoryArgs {
    /// Days five-minute bars are kept (hourly bars hold the same observations).
    #[arg(long, env = "MARKETLENS_HISTORY_FIVE_MINUTE_DAYS", default_value_t = 7)]
    pub history_five_minute_days: u32,

    /// Days hourly bars are kept (daily bars, kept for ever, hold the same observations).
    #[arg(long, env = "MARKETLENS_HISTORY_HOURLY_DAYS", default_value_t = 90)]
    pub history_hourly_days: u32,
}

/// Which news feeds to poll.
#[derive(Debug, Clone, Args)]
pub struct NewsFeedArgs {
    /// RSS or Atom feed URLs, comma-separated, replacing the default list (public politics,
    /// economics, crypto, sports and world-news feeds; see `marketlens_news::DEFAULT_FEEDS`).
    #[arg(long, env = "MARKETLENS_NEWS_FEEDS")]
    pub news_feeds: Option<String>,
}

/// Where the exchanges' APIs are and how hard to use them.
#[derive(Debug, Clone, Args)]
pub struct SyncArgs {
    /// Polymarket's Gamma API.
    #[arg(
        long,
        env = "MARKETLENS_POLYMARKET_URL",
        default_value = "https://gamma-api.polymarket.com"
    )]
    pub polymarket_url: String,

    /// Kalshi's Trade API v2.
    #[arg(
        long,
        env = "MARKETLENS_KALSHI_URL",
        default_value = "https://api.elections.kalshi.com/trade-api/v2"
    )]
    pub kalshi_url: String,

    /// Events per page from Gamma's /events/keyset (at most 500).
    #[arg(long, env = "MARKETLENS_POLYMARKET_PAGE_SIZE", default_value_t = 200)]
    pub polymarket_page_size: u32,

    /// Events per page from Kalshi's /events (at most 200).
    #[arg(long, env = "MARKETLENS_KALSHI_PAGE_SIZE", default_value_t = 200)]
    pub kalshi_page_size: u32,

    /// Requests per second to Gamma, at most.
    #[arg(long, env = "MARKETLENS_POLYMARKET_RPS", default_value_t = 10)]
    pub polymarket_rps: u32,

    /// Requests per second to Kalshi, at most (its basic tier allows 20).
    #[arg(long, env = "MARKETLENS_KALSHI_RPS", default_value_t = 10)]
    pub kalshi_rps: u32,

    /// Seconds one exchange request may take.
    #[arg(long, env = "MARKETLENS_SYNC_REQUEST_TIMEOUT_SECS", default_value_t = 30)]
    pub sync_request_timeout_secs: u64,

    /// Attempts per exchange request, the first included.
    #[arg(long, env = "MARKETLENS_SYNC_ATTEMPTS", default_value_t = 5)]
    pub sync_attempts: usize,
}

#[derive(Debug, Clone, Args)]
pub struct SyncCommandArgs {
    /// Sync only this exchange (default: both).
    #[arg(long, value_enum)]
    pub exchange: Option<ExchangeArg>,

    /// Walk everything the exchange lists, not only what is open.
    #[arg(long)]
    pub full: bool,

    /// Poll the news feeds once instead of the exchanges.
    #[arg(long, conflicts_with_all = ["exchange", "full"])]
    pub news: bool,

    #[command(flatten)]
    pub feeds: NewsFeedArgs,

    /// Days an article is kept (default 14); older ones are deleted.
    #[arg(long, env = "MARKETLENS_NEWS_WINDOW_DAYS")]
    pub news_window_days: Option<u32>,

    #[command(flatten)]
    pub sync: SyncArgs,

    #[command(flatten)]
    pub history: HistoryArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExchangeArg {
    Polymarket,
    Kalshi,
}

impl ExchangeArg {
    pub fn exchange(self) -> marketlens_domain::Exchange {
        match self {
            ExchangeArg::Polymarket => marketlens_domain::Exchange::Polymarket,
            ExchangeArg::Kalshi => marketlens_domain::Exchange::Kalshi,
        }
    }
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("source").required(true).args(["exchange", "news"])))]
pub struct ImportArgs {
    /// Which exchange the files come from; each file's shape is checked against it.
    #[arg(long, value_enum)]
    pub exchange: Option<ExchangeArg>,

    /// The files are saved RSS 2.0 or Atom news feeds.
    #[arg(long)]
    pub news: bool,

    /// Days an article is kept, for --news (default 14): older articles are not imported.
    #[arg(long, env = "MARKETLENS_NEWS_WINDOW_DAYS")]
    pub news_window_days: Option<u32>,

    /// When the files were recorded (ISO 8601, e.g. 2026-01-31T18:05:00Z): the time their
    /// prices are entered in the price history at, and their freshness. Default: now.
    #[arg(long, value_name = "TIME", conflicts_with = "news")]
    pub recorded_at: Option<chrono::DateTime<chrono::Utc>>,

    /// JSON files as the exchange's API returned them, or feed files with --news; a folder
    /// stands for its .json files (.xml, .rss and .atom with --news).
    #[arg(required = true, value_name = "FILE_OR_FOLDER")]
    pub files: Vec<PathBuf>,
}

#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct MatchArgs {
    /// A labelled set (JSON lines, e.g. tests/data/matching/corpus.jsonl): print precision,
    /// recall and F1 at the serving threshold, and every error.
    #[arg(long, value_name = "FILE")]
    pub evaluate: Option<PathBuf>,

    /// Two stored markets' ids: print their comparison field by field.
    #[arg(long, num_args = 2, value_names = ["ID_A", "ID_B"], value_parser = market_id)]
    pub why: Option<Vec<Uuid>>,
}

#[derive(Debug, Subcommand)]
pub enum AccountsCommand {
    /// Create an account and its first key (printed once).
    Create {
        /// The account's tier, which sets its requests per minute: free, starter, pro,
        /// enterprise, or one added by --tier-limits.
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
    List {
        #[command(flatten)]
        format: ListFormat,
    },
    /// Refuse every call of an account (403) until it is activated again.
    Suspend {
        /// The account's id (a UUID, as `accounts list` shows it).
        #[arg(value_parser = account_id)]
        account: Uuid,
    },
    /// Let a suspended account call again.
    Activate {
        /// The account's id (a UUID, as `accounts list` shows it).
        #[arg(value_parser = account_id)]
        account: Uuid,
    },
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Make a new key for an account (printed once).
    Create {
        /// The account's id (a UUID, as `accounts list` shows it).
        #[arg(value_parser = account_id)]
        account: Uuid,
    },
    /// List an account's keys, truncated.
    List {
        /// The account's id (a UUID, as `accounts list` shows it).
        #[arg(value_parser = account_id)]
        account: Uuid,
        #[command(flatten)]
        format: ListFormat,
    },
    /// Revoke a key; it fails from its next request on.
    Revoke {
        /// The key's id (a UUID, as `keys list` shows it), not the key itself.
        #[arg(value_parser = key_id)]
        key: Uuid,
    },
}

#[derive(Debug, Subcommand)]
pub enum CreditsCommand {
    /// Add credits to an account.
    Add {
        /// The account's id (a UUID, as `accounts list` shows it).
        #[arg(value_parser = account_id)]
        account: Uuid,
        /// How many credits to add (at least 1).
        credits: i64,
    },
}

/// How a list command prints: a table for people, or JSON for programs.
#[derive(Debug, Clone, Copy, Args)]
pub struct ListFormat {
    /// Print a JSON array, with the admin API's fields (camelCase), instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// An account id as typed: a UUID, or an error that says so and names the text.
fn account_id(text: &str) -> Result<Uuid, String> {
    parse_uuid(text, "an account id")
}

/// A key id as typed (the key's id, not the key).
fn key_id(text: &str) -> Result<Uuid, String> {
    parse_uuid(text, "a key id")
}

/// A market id as typed.
fn market_id(text: &str) -> Result<Uuid, String> {
    parse_uuid(text, "a market id")
}

fn parse_uuid(text: &str, what: &str) -> Result<Uuid, String> {
    Uuid::parse_str(text.trim())
        .map_err(|_| format!("{text:?} is not {what}: expected a UUID like 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"))
}

/// A credential given on the command line or in the environment (a Kalshi API key's id):
/// printed as `<redacted>` wherever the arguments are, so that no log or error shows it.
#[derive(Clone)]
pub struct Redacted(pub String);

impl std::str::FromStr for Redacted {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(Redacted(text.to_owned()))
    }
}

impl std::fmt::Debug for Redacted {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("<redacted>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn a_kalshi_key_id_never_shows_in_the_printed_arguments() {
        let cli = Cli::try_parse_from([
            "marketlens",
            "serve",
            "--kalshi-api-key-id",
            "a1b2c3-key-id",
            "--kalshi-private-key-path",
            "/keys/kalshi.pem",
        ])
        .unwrap();
        let printed = format!("{cli:?}");
        assert!(!printed.contains("a1b2c3-key-id"), "{printed}");
        assert!(printed.contains("<redacted>"), "{printed}");
    }

    #[test]
    fn the_sync_lease_is_checked_even_without_the_sync() {
        for secs in ["0", "2", "601"] {
            let parsed = Cli::try_parse_from(["marketlens", "serve", "--no-sync", "--sync-lease-secs", secs]);
            assert!(parsed.is_err(), "--sync-lease-secs {secs} was accepted");
        }
        Cli::try_parse_from(["marketlens", "serve", "--no-sync", "--sync-lease-secs", "3"]).unwrap();
    }
}
