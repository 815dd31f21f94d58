//! Turning database rows back into domain records, once for every backend.
//!
//! The backends keep the same columns under the same names but in their own types (SQLite:
//! UUIDs as text, times as epoch milliseconds, outcomes as JSON text; PostgreSQL: `UUID`,
//! `TIMESTAMPTZ`, `JSONB`). Each backend implements [`RecordRow`]'s typed getters for its row
//! type; the record builders here are written once against them, so a field added to a record
//! is read the same way everywhere. Anything that does not decode means a corrupt row and is an
//! internal error.

use marketlens_domain::account::{Account, ApiKeyRecord, LedgerEntry};
use marketlens_domain::article::Article;
use marketlens_domain::history::{HistoryBar, Resolution};
use marketlens_domain::market::{self, Rules, UrlKeys};
use marketlens_domain::matching::{MatchInput, MatchPair};
use marketlens_domain::time::Timestamp;
use marketlens_domain::{Event, Market, MarketStatus, Outcome};
use std::fmt::Display;
use std::str::FromStr;
use uuid::Uuid;

use crate::catalog::{EventMarket, EventSummary, MarketSummary, MatchedMarket, StoredEvent, StoredMarket};
use crate::news::{FeedStatus, StoredArticle};
use crate::sync_runs::SyncRun;
use crate::{StoreError, UpsertCounts};

/// The columns [`stored_market`] reads, for `SELECT` lists (table alias `m`).
pub const MARKET_COLUMNS: &str = "m.id, m.exchange, m.external_id, m.event_external_id, m.question, \
    m.description, m.status, m.category, m.liquidity, m.volume, m.volume_24h, m.start_date, m.end_date, \
    m.source_created_at, m.created_at, m.updated_at, m.source_updated_at, m.outcomes, m.url_market, \
    m.url_event, m.url_series, m.url, m.image_url, m.observed_at, m.rules_primary, m.rules_secondary, \
    m.rules_source, m.resolution_outcome, m.resolved_at";

/// The columns [`market_summary`] reads (table alias `m`).
pub const SUMMARY_COLUMNS: &str = "m.id, m.exchange, m.external_id, m.question, m.status, m.category, m.liquidity, \
    m.volume, m.volume_24h, m.created_at, m.end_date, m.outcomes, m.event_id, m.observed_at, m.url_market";

/// The columns [`event_summary`] reads (table alias `e`).
pub const EVENT_SUMMARY_COLUMNS: &str = "e.id, e.exchange, e.category, e.total_volume";

/// The columns [`stored_event`] reads (table alias `e`).
pub const EVENT_COLUMNS: &str = "e.id, e.exchange, e.external_id, e.title, e.description, e.category, \
    e.reported_volume, e.image_url, e.source_created_at, e.source_updated_at, e.slug, e.series_slug, \
    e.market_count, e.total_volume, e.created_at";

/// The columns [`account`] reads (table alias `a`).
pub const ACCOUNT_COLUMNS: &str = "a.id, a.label, a.tier, a.wallet_address, a.status, a.credits_remaining, \
    a.credits_purchased, a.credits_used, a.created_at";

/// The columns [`api_key`] reads (table alias `k`).
pub const KEY_COLUMNS: &str = "k.id, k.account_id, k.display, k.created_at, k.revoked_at";

/// The columns [`ledger_entry`] reads (table alias `l`).
pub const LEDGER_COLUMNS: &str =
    "l.id, l.account_id, l.api_key_id, l.kind, l.operation, l.credits, l.request_id, l.created_at";

/// The columns [`sync_run`] reads.
pub const RUN_COLUMNS: &str = "exchange, kind, started_at, finished_at, succeeded, pages, markets_inserted, \
    markets_updated, markets_unchanged, markets_stale, events_inserted, events_updated, events_unchanged, \
    events_stale, records_skipped, errors, error";

pub fn corrupt(column: &str, error: impl Display) -> StoreError {
    StoreError::Internal(format!("corrupt value in column {column}: {error}"))
}

/// [`RecordRow`] getters whose column decodes straight into the type, for a backend's impl:
/// text, reals and integers on every backend, and the getters named (`flag: bool`).
macro_rules! decoded_as_is {
    ($($getter:ident: $type:ty),* $(,)?) => {
        $crate::records::decoded_as_is!(@each
            text: String,
            optional_text: Option<String>,
            real: f64,
            optional_real: Option<f64>,
            integer: i64,
            bytes: Vec<u8>,
            $($getter: $type),*
        );
    };
    (@each $($getter:ident: $type:ty),* $(,)?) => {
        $(
            fn $getter(&self, column: &str) -> Result<$type, $crate::StoreError> {
                Ok(sqlx::Row::try_get(self, column)?)
            }
        )*
    };
}
pub(crate) use decoded_as_is;

/// A row's columns, by name, as the record builders need them.
pub trait RecordRow {
    fn text(&self, column: &str) -> Result<String, StoreError>;
    fn optional_text(&self, column: &str) -> Result<Option<String>, StoreError>;
    fn real(&self, column: &str) -> Result<f64, StoreError>;
    fn optional_real(&self, column: &str) -> Result<Option<f64>, StoreError>;
    fn integer(&self, column: &str) -> Result<i64, StoreError>;
    fn bytes(&self, column: &str) -> Result<Vec<u8>, StoreError>;
    fn flag(&self, column: &str) -> Result<bool, StoreError>;
    fn uuid(&self, column: &str) -> Result<Uuid, StoreError>;
    fn optional_uuid(&self, column: &str) -> Result<Option<Uuid>, StoreError>;
    fn timestamp(&self, column: &str) -> Result<Timestamp, StoreError>;
    fn optional_timestamp(&self, column: &str) -> Result<Option<Timestamp>, StoreError>;
    fn outcomes(&self, column: &str) -> Result<Vec<Outcome>, StoreError>;

    /// A text column holding a canonical spelling (`OPEN`, `KALSHI`, `credit`).
    fn parsed<T: FromStr>(&self, column: &str) -> Result<T, StoreError>
    where
        T::Err: Display,
    {
        self.text(column)?.parse().map_err(|error| corrupt(column, error))
    }

    /// A count, never negative.
    fn count(&self, column: &str) -> Result<u64, StoreError> {
        Ok(self.integer(column)?.max(0) as u64)
    }
}

pub fn stored_market(row: &impl RecordRow) -> Result<StoredMarket, StoreError> {
    let status = row.parsed("status")?;
    let market = Market {
        exchange: row.parsed("exchange")?,
        external_id: row.text("external_id")?,
        event_external_id: row.optional_text("event_external_id")?,
        question: row.text("question")?,
        description: row.text("description")?,
        status,
        category: row.parsed("category")?,
        liquidity: row.real("liquidity")?,
        volume: row.real("volume")?,
        volume_24h: row.real("volume_24h")?,
        start_date: row.optional_timestamp("start_date")?,
        end_date: row.optional_timestamp("end_date")?,
        created_at: row.optional_timestamp("source_created_at")?,
        source_updated_at: row.optional_timestamp("source_updated_at")?,
        outcomes: row.outcomes("outcomes")?,
        url_keys: UrlKeys {
            market: row.optional_text("url_market")?,
            event: row.optional_text("url_event")?,
            series: row.optional_text("url_series")?,
        },
        url: row.text("url")?,
        image_url: row.text("image_url")?,
        rules: Rules {
            primary: row.optional_text("rules_primary")?,
            secondary: row.optional_text("rules_secondary")?,
            source: row.optional_text("rules_source")?,
        },
        // A resolved market has a resolution even when neither of its parts is known.
        resolution: match status {
            MarketStatus::Resolved => Some(market::Resolution {
                outcome: row.optional_text("resolution_outcome")?,
                resolved_at: row.optional_timestamp("resolved_at")?,
            }),
            MarketStatus::Open | MarketStatus::Closed => None,
        },
    };
    Ok(StoredMarket {
        id: row.uuid("id")?,
        market,
        created_at: row.timestamp("created_at")?,
        updated_at: row.timestamp("updated_at")?,
        observed_at: row.timestamp("observed_at")?,
    })
}

pub fn market_summary(row: &impl RecordRow) -> Result<MarketSummary, StoreError> {
    Ok(MarketSummary {
        id: row.uuid("id")?,
        exchange: row.parsed("exchange")?,
        external_id: row.text("external_id")?.into_boxed_str(),
        question: row.text("question")?.into_boxed_str(),
        status: row.parsed("status")?,
        category: row.parsed("category")?,
        liquidity: row.real("liquidity")?,
        volume: row.real("volume")?,
        volume_24h: row.real("volume_24h")?,
        created_at: row.timestamp("created_at")?,
        end_date: row.optional_timestamp("end_date")?,
        outcomes: row.outcomes("outcomes")?.into_boxed_slice(),
        event_id: row.optional_uuid("event_id")?,
        observed_at: row.timestamp("observed_at")?,
        url_market: row.optional_text("url_market")?.map(String::into_boxed_str),
    })
}

/// From the columns of `price_history` but `market_id`, which each backend keeps in its own type.
pub fn history_bar(row: &impl RecordRow) -> Result<HistoryBar, StoreError> {
    let resolution = row.integer("resolution")?;
    Ok(HistoryBar {
        resolution: Resolution::from_seconds(resolution)
            .ok_or_else(|| corrupt("resolution", format!("{resolution} is not a resolution")))?,
        bucket_start: row.integer("bucket_start")?,
        first_at: row.timestamp("first_at")?,
        last_at: row.timestamp("last_at")?,
        outcomes: serde_json::from_str(&row.text("outcomes")?).map_err(|error| corrupt("outcomes", error))?,
        volume: row.real("volume")?,
        volume_24h: row.real("volume_24h")?,
        liquidity: row.real("liquidity")?,
    })
}

/// The columns [`history_bar`] reads, and the market id.
pub const HISTORY_COLUMNS: &str =
    "market_id, resolution, bucket_start, first_at, last_at, outcomes, volume, volume_24h, liquidity";

pub fn event_summary(row: &impl RecordRow) -> Result<EventSummary, StoreError> {
    Ok(EventSummary {
        id: row.uuid("id")?,
        exchange: row.parsed("exchange")?,
        category: row.parsed("category")?,
        total_volume: row.real("total_volume")?,
    })
}

pub fn stored_event(row: &impl RecordRow) -> Result<StoredEvent, StoreError> {
    let event = Event {
        exchange: row.parsed("exchange")?,
        external_id: row.text("external_id")?,
        title: row.text("title")?,
        description: row.text("description")?,
        category: row.parsed("category")?,
        reported_volume: row.optional_real("reported_volume")?,
        image_url: row.text("image_url")?,
        created_at: row.optional_timestamp("source_created_at")?,
        source_updated_at: row.optional_timestamp("source_updated_at")?,
        slug: row.optional_text("slug")?,
        series_slug: row.optional_text("series_slug")?,
    };
    Ok(StoredEvent {
        id: row.uuid("id")?,
        event,
        market_count: row.count("market_count")?,
        total_volume: row.real("total_volume")?,
        created_at: row.timestamp("created_at")?,
    })
}

/// From `id, question, headline_price, volume_24h`.
pub fn event_market(row: &impl RecordRow) -> Result<EventMarket, StoreError> {
    Ok(EventMarket {
        id: row.uuid("id")?,
        question: row.text("question")?,
        price: row.real("headline_price")?,
        volume_24h: row.real("volume_24h")?,
    })
}

/// From `id, exchange, question, similarity`.
pub fn matched_market(row: &impl RecordRow) -> Result<MatchedMarket, StoreError> {
    Ok(MatchedMarket {
        id: row.uuid("id")?,
        exchange: row.parsed("exchange")?,
        question: row.text("question")?,
        similarity: row.real("similarity")?,
    })
}

/// From `id, exchange, question, end_date, outcomes, event_title, external_id`.
pub fn match_input(row: &impl RecordRow) -> Result<MatchInput, StoreError> {
    Ok(MatchInput {
        id: row.uuid("id")?,
        exchange: row.parsed("exchange")?,
        question: row.text("question")?,
        end_date: row.optional_timestamp("end_date")?,
        outcomes: row
            .outcomes("outcomes")?
            .into_iter()
            .map(|outcome| outcome.name)
            .collect(),
        event_title: row.optional_text("event_title")?,
        external_id: row.text("external_id")?,
    })
}

/// From `market_id, matched_id, similarity, orientation`.
pub fn match_pair(row: &impl RecordRow) -> Result<MatchPair, StoreError> {
    Ok(MatchPair {
        market_id: row.uuid("market_id")?,
        matched_id: row.uuid("matched_id")?,
        similarity: row.real("similarity")?,
        orientation: row.parsed("orientation")?,
    })
}

/// From [`ACCOUNT_COLUMNS`]; `created_at` may be named `account_created_at` in joins.
pub fn account_from(row: &impl RecordRow, id: &str, created_at: &str) -> Result<Account, StoreError> {
    Ok(Account {
        id: row.uuid(id)?,
        label: row.text("label")?,
        tier: row.text("tier")?,
        wallet_address: row.text("wallet_address")?,
        status: row.parsed("status")?,
        credits_remaining: row.integer("credits_remaining")?,
        credits_purchased: row.integer("credits_purchased")?,
        credits_used: row.integer("credits_used")?,
        created_at: row.timestamp(created_at)?,
    })
}

pub fn account(row: &impl RecordRow) -> Result<Account, StoreError> {
    account_from(row, "id", "created_at")
}

pub fn api_key(row: &impl RecordRow) -> Result<ApiKeyRecord, StoreError> {
    Ok(ApiKeyRecord {
        id: row.uuid("id")?,
        account_id: row.uuid("account_id")?,
        display: row.text("display")?,
        created_at: row.timestamp("created_at")?,
        revoked_at: row.optional_timestamp("revoked_at")?,
    })
}

pub fn ledger_entry(row: &impl RecordRow) -> Result<LedgerEntry, StoreError> {
    Ok(LedgerEntry {
        id: row.integer("id")?,
        account_id: row.uuid("account_id")?,
        api_key_id: row.optional_uuid("api_key_id")?,
        kind: row.parsed("kind")?,
        operation: row.optional_text("operation")?,
        credits: row.integer("credits")?,
        request_id: row.optional_text("request_id")?,
        created_at: row.timestamp("created_at")?,
    })
}

pub fn sync_run(row: &impl RecordRow) -> Result<SyncRun, StoreError> {
    Ok(SyncRun {
        exchange: row.parsed("exchange")?,
        kind: row.parsed("kind")?,
        started_at: row.timestamp("started_at")?,
        finished_at: row.timestamp("finished_at")?,
        succeeded: row.flag("succeeded")?,
        pages: row.count("pages")?,
        counts: UpsertCounts {
            markets_inserted: row.count("markets_inserted")?,
            markets_updated: row.count("markets_updated")?,
            markets_unchanged: row.count("markets_unchanged")?,
            markets_stale: row.count("markets_stale")?,
            events_inserted: row.count("events_inserted")?,
            events_updated: row.count("events_updated")?,
            events_unchanged: row.count("events_unchanged")?,
            events_stale: row.count("events_stale")?,
        },
        records_skipped: row.count("records_skipped")?,
        errors: row.count("errors")?,
        error: row.optional_text("error")?,
    })
}

/// `events` (each with its id) in the order of `ids`, those missing left out.
pub fn in_order_of(ids: &[Uuid], events: Vec<StoredEvent>) -> Result<Vec<StoredEvent>, StoreError> {
    let mut by_id: std::collections::HashMap<Uuid, StoredEvent> =
        events.into_iter().map(|event| (event.id, event)).collect();
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}

/// The columns [`stored_article`] reads (table alias `a`).
pub const ARTICLE_COLUMNS: &str = "a.id, a.url, a.title, a.summary, a.publisher, a.published_at, a.fetched_at";

pub fn stored_article(row: &impl RecordRow) -> Result<StoredArticle, StoreError> {
    Ok(StoredArticle {
        id: row.integer("id")?,
        article: Article {
            url: row.text("url")?,
            title: row.text("title")?,
            summary: row.text("summary")?,
            publisher: row.text("publisher")?,
            published_at: row.optional_timestamp("published_at")?,
            fetched_at: row.timestamp("fetched_at")?,
        },
    })
}

/// From `url, last_polled_at, last_success_at, last_error, articles_added`.
pub fn feed_status(row: &impl RecordRow) -> Result<FeedStatus, StoreError> {
    Ok(FeedStatus {
        url: row.text("url")?,
        last_polled_at: row.timestamp("last_polled_at")?,
        last_success_at: row.optional_timestamp("last_success_at")?,
        last_error: row.optional_text("last_error")?,
        articles_added: row.count("articles_added")?,
    })
}

/// A count or size for a signed integer column.
pub fn to_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}
