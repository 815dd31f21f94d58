//! Turning SQLite rows back into domain records. Columns hold canonical spellings and epoch
//! milliseconds; anything that does not parse means a corrupt row and is an internal error.

use marketlens_domain::account::{Account, ApiKeyRecord, LedgerEntry};
use marketlens_domain::market::UrlKeys;
use marketlens_domain::time::{Timestamp, from_epoch_millis};
use marketlens_domain::{Event, Market, Outcome};
use sqlx::Row;
use sqlx::sqlite::SqliteRow;
use std::fmt::Display;
use std::str::FromStr;
use uuid::Uuid;

use crate::StoreError;
use crate::catalog::{StoredEvent, StoredMarket};

/// The columns [`stored_market`] reads, for `SELECT` lists (table alias `m`).
pub const MARKET_COLUMNS: &str = "m.id, m.exchange, m.external_id, m.event_external_id, m.question, \
    m.description, m.status, m.category, m.liquidity, m.volume, m.volume_24h, m.start_date, m.end_date, \
    m.source_created_at, m.created_at, m.updated_at, m.source_updated_at, m.outcomes, m.url_market, \
    m.url_event, m.url_series, m.url, m.image_url";

/// The columns [`stored_event`] reads (table alias `e`).
pub const EVENT_COLUMNS: &str = "e.id, e.exchange, e.external_id, e.title, e.description, e.category, \
    e.reported_volume, e.image_url, e.source_created_at, e.source_updated_at, e.slug, e.series_slug, \
    e.market_count, e.total_volume, e.created_at";

pub const ACCOUNT_COLUMNS: &str = "a.id, a.label, a.tier, a.wallet_address, a.status, a.credits_remaining, \
    a.credits_purchased, a.credits_used, a.created_at";

pub const KEY_COLUMNS: &str = "k.id, k.account_id, k.display, k.created_at, k.revoked_at";

pub const LEDGER_COLUMNS: &str = "l.id, l.account_id, l.api_key_id, l.kind, l.operation, l.credits, l.state, \
    l.refund_of, l.request_id, l.created_at";

fn corrupt(column: &str, error: impl Display) -> StoreError {
    StoreError::Internal(format!("corrupt value in column {column}: {error}"))
}

pub fn parsed<T: FromStr>(row: &SqliteRow, column: &str) -> Result<T, StoreError>
where
    T::Err: Display,
{
    let text: String = row.try_get(column)?;
    text.parse().map_err(|error| corrupt(column, error))
}

pub fn uuid(row: &SqliteRow, column: &str) -> Result<Uuid, StoreError> {
    parsed(row, column)
}

pub fn optional_uuid(row: &SqliteRow, column: &str) -> Result<Option<Uuid>, StoreError> {
    let text: Option<String> = row.try_get(column)?;
    text.map(|text| text.parse().map_err(|error| corrupt(column, error)))
        .transpose()
}

pub fn timestamp(row: &SqliteRow, column: &str) -> Result<Timestamp, StoreError> {
    Ok(from_epoch_millis(row.try_get(column)?))
}

pub fn optional_timestamp(row: &SqliteRow, column: &str) -> Result<Option<Timestamp>, StoreError> {
    let millis: Option<i64> = row.try_get(column)?;
    Ok(millis.map(from_epoch_millis))
}

/// The outcome names of a market row's `outcomes` JSON, in order.
pub fn outcome_names(row: &SqliteRow) -> Result<Vec<String>, StoreError> {
    let outcomes_json: String = row.try_get("outcomes")?;
    let outcomes: Vec<Outcome> = serde_json::from_str(&outcomes_json).map_err(|error| corrupt("outcomes", error))?;
    Ok(outcomes.into_iter().map(|outcome| outcome.name).collect())
}

pub fn stored_market(row: &SqliteRow) -> Result<StoredMarket, StoreError> {
    let outcomes_json: String = row.try_get("outcomes")?;
    let outcomes: Vec<Outcome> = serde_json::from_str(&outcomes_json).map_err(|error| corrupt("outcomes", error))?;
    let market = Market {
        exchange: parsed(row, "exchange")?,
        external_id: row.try_get("external_id")?,
        event_external_id: row.try_get("event_external_id")?,
        question: row.try_get("question")?,
        description: row.try_get("description")?,
        status: parsed(row, "status")?,
        category: parsed(row, "category")?,
        liquidity: row.try_get("liquidity")?,
        volume: row.try_get("volume")?,
        volume_24h: row.try_get("volume_24h")?,
        start_date: optional_timestamp(row, "start_date")?,
        end_date: optional_timestamp(row, "end_date")?,
        created_at: optional_timestamp(row, "source_created_at")?,
        source_updated_at: optional_timestamp(row, "source_updated_at")?,
        outcomes,
        url_keys: UrlKeys {
            market: row.try_get("url_market")?,
            event: row.try_get("url_event")?,
            series: row.try_get("url_series")?,
        },
        url: row.try_get("url")?,
        image_url: row.try_get("image_url")?,
    };
    Ok(StoredMarket {
        id: uuid(row, "id")?,
        market,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
    })
}

pub fn stored_event(row: &SqliteRow) -> Result<StoredEvent, StoreError> {
    let event = Event {
        exchange: parsed(row, "exchange")?,
        external_id: row.try_get("external_id")?,
        title: row.try_get("title")?,
        description: row.try_get("description")?,
        category: parsed(row, "category")?,
        reported_volume: row.try_get("reported_volume")?,
        image_url: row.try_get("image_url")?,
        created_at: optional_timestamp(row, "source_created_at")?,
        source_updated_at: optional_timestamp(row, "source_updated_at")?,
        slug: row.try_get("slug")?,
        series_slug: row.try_get("series_slug")?,
    };
    let market_count: i64 = row.try_get("market_count")?;
    Ok(StoredEvent {
        id: uuid(row, "id")?,
        event,
        market_count: market_count.max(0) as u64,
        total_volume: row.try_get("total_volume")?,
        created_at: timestamp(row, "created_at")?,
    })
}

pub fn account(row: &SqliteRow) -> Result<Account, StoreError> {
    Ok(Account {
        id: uuid(row, "id")?,
        label: row.try_get("label")?,
        tier: row.try_get("tier")?,
        wallet_address: row.try_get("wallet_address")?,
        status: parsed(row, "status")?,
        credits_remaining: row.try_get("credits_remaining")?,
        credits_purchased: row.try_get("credits_purchased")?,
        credits_used: row.try_get("credits_used")?,
        created_at: timestamp(row, "created_at")?,
    })
}

pub fn api_key(row: &SqliteRow) -> Result<ApiKeyRecord, StoreError> {
    Ok(ApiKeyRecord {
        id: uuid(row, "id")?,
        account_id: uuid(row, "account_id")?,
        display: row.try_get("display")?,
        created_at: timestamp(row, "created_at")?,
        revoked_at: optional_timestamp(row, "revoked_at")?,
    })
}

pub fn ledger_entry(row: &SqliteRow) -> Result<LedgerEntry, StoreError> {
    Ok(LedgerEntry {
        id: row.try_get("id")?,
        account_id: uuid(row, "account_id")?,
        api_key_id: optional_uuid(row, "api_key_id")?,
        kind: parsed(row, "kind")?,
        operation: row.try_get("operation")?,
        credits: row.try_get("credits")?,
        state: row.try_get("state")?,
        refund_of: row.try_get("refund_of")?,
        request_id: row.try_get("request_id")?,
        created_at: timestamp(row, "created_at")?,
    })
}
