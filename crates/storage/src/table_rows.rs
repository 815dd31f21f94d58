//! What each bulk-written table's rows hold, in column order, written once for every backend
//! and every way of writing them.
//!
//! A [`TableRow`] names its columns and hands its values, in that order, to a [`ValueSink`].
//! SQLite's sink binds them as parameters of a multi-row `INSERT` (`sqlite/binds.rs`);
//! PostgreSQL's encodes them as `COPY ... FROM STDIN` text (`postgres/copy_in.rs`). The
//! [`RowWriter`] each backend implements on its `Statements` is the one way the shared SQL
//! writes rows in bulk: markets, events, price history, matches, accounts, keys and ledger
//! lines. What is not here: reading rows back (`records.rs`) and deciding what to write
//! (`upsert.rs`, `history.rs`, `transfer.rs`).

use marketlens_domain::account::{Account, LedgerEntry};
use marketlens_domain::history::HistoryBar;
use marketlens_domain::matching::MatchPair;
use marketlens_domain::time::Timestamp;
use marketlens_domain::{Event, Market};
use uuid::Uuid;

use crate::catalog::StoredEvent;
use crate::upsert::Stamped;
use crate::{ExportedKey, StoreError};

/// Where a row's values go, one call per column in the row's column order. A value the
/// backend cannot keep (a NUL character in PostgreSQL text) is reported by the sink when the
/// row ends, not here, so that rows read as one chain of calls.
pub(crate) trait ValueSink {
    fn text(&mut self, value: &str) -> &mut Self;
    fn optional_text(&mut self, value: Option<&str>) -> &mut Self;
    fn real(&mut self, value: f64) -> &mut Self;
    fn optional_real(&mut self, value: Option<f64>) -> &mut Self;
    fn integer(&mut self, value: i64) -> &mut Self;
    /// A catalogue or account id, as the backend's columns keep it
    /// ([`Backend::id`](crate::backend::Backend::id)).
    fn id(&mut self, value: Uuid) -> &mut Self;
    fn optional_id(&mut self, value: Option<Uuid>) -> &mut Self;
    /// A price history market id (a [`Uuid`] on every backend).
    fn history_id(&mut self, value: Uuid) -> &mut Self;
    fn time(&mut self, value: Timestamp) -> &mut Self;
    fn optional_time(&mut self, value: Option<Timestamp>) -> &mut Self;
    /// JSON text (a `JSONB` column on PostgreSQL takes it as it takes text).
    fn json(&mut self, value: &str) -> &mut Self;
    fn bytes(&mut self, value: &[u8]) -> &mut Self;
}

/// A row of one table, its values in [`TableRow::COLUMNS`] order.
pub(crate) trait TableRow {
    /// The columns, comma-separated, as a column list in SQL.
    const COLUMNS: &'static str;

    fn values(&self, sink: &mut impl ValueSink) -> Result<(), StoreError>;
}

/// A backend's bulk writes of rows, inside the transaction of a `Statements`.
pub(crate) trait RowWriter {
    /// Writes `rows` into `table`, which holds none of them.
    async fn insert_rows<R: TableRow>(&mut self, table: &str, rows: &[R]) -> Result<(), StoreError>;

    /// Writes `rows` into `table`, a row whose key the table holds replacing it as
    /// `on_conflict` (`ON CONFLICT (...) DO UPDATE ...`) says. No two rows share a key.
    async fn upsert_rows<R: TableRow>(&mut self, table: &str, rows: &[R], on_conflict: &str) -> Result<(), StoreError>;
}

fn json(value: &impl serde::Serialize, what: &str) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|error| StoreError::Internal(format!("{what} do not serialize: {error}")))
}

impl TableRow for Stamped<'_, Market> {
    const COLUMNS: &'static str = "id, exchange, external_id, event_id, event_external_id, question, search_text, \
        description, status, category, liquidity, volume, volume_24h, start_date, end_date, source_created_at, \
        created_at, updated_at, source_updated_at, outcomes, headline_price, url_market, url_event, url_series, \
        url, image_url, fingerprint, first_seen_at, changed_revision, observed_at, rules_primary, rules_secondary, \
        rules_source, resolution_outcome, resolved_at";

    fn values(&self, sink: &mut impl ValueSink) -> Result<(), StoreError> {
        let market = self.record;
        let resolution = market.resolution.as_ref();
        let search_text = marketlens_domain::text::words(&market.question)
            .collect::<Vec<_>>()
            .join(" ");
        sink.id(market.id())
            .text(market.exchange.as_str())
            .text(&market.external_id)
            .optional_id(market.event_id())
            .optional_text(market.event_external_id.as_deref())
            .text(&market.question)
            .text(&search_text)
            .text(&market.description)
            .text(market.status.as_str())
            .text(market.category.as_str())
            .real(market.liquidity)
            .real(market.volume)
            .real(market.volume_24h)
            .optional_time(market.start_date)
            .optional_time(market.end_date)
            .optional_time(market.created_at)
            .time(self.created_at)
            .time(self.updated_at)
            .optional_time(market.source_updated_at)
            .json(&json(&market.outcomes, "outcomes")?)
            .real(market.headline_price())
            .optional_text(market.url_keys.market.as_deref())
            .optional_text(market.url_keys.event.as_deref())
            .optional_text(market.url_keys.series.as_deref())
            .text(&market.url)
            .text(&market.image_url)
            .integer(self.fingerprint)
            .time(self.first_seen_at)
            .integer(self.changed_revision)
            .time(self.observed_at)
            .optional_text(market.rules.primary.as_deref())
            .optional_text(market.rules.secondary.as_deref())
            .optional_text(market.rules.source.as_deref())
            .optional_text(resolution.and_then(|resolution| resolution.outcome.as_deref()))
            .optional_time(resolution.and_then(|resolution| resolution.resolved_at));
        Ok(())
    }
}

/// The columns of an event as the upsert writes it; its figures (`market_count`,
/// `total_volume`) are derived afterwards from its markets.
macro_rules! event_columns {
    () => {
        "id, exchange, external_id, title, description, category, reported_volume, image_url, source_created_at, \
         source_updated_at, slug, series_slug, fingerprint, first_seen_at, created_at, changed_revision"
    };
}

impl TableRow for Stamped<'_, Event> {
    const COLUMNS: &'static str = event_columns!();

    fn values(&self, sink: &mut impl ValueSink) -> Result<(), StoreError> {
        let event = self.record;
        sink.id(event.id())
            .text(event.exchange.as_str())
            .text(&event.external_id)
            .text(&event.title)
            .text(&event.description)
            .text(event.category.as_str())
            .optional_real(event.reported_volume)
            .text(&event.image_url)
            .optional_time(event.created_at)
            .optional_time(event.source_updated_at)
            .optional_text(event.slug.as_deref())
            .optional_text(event.series_slug.as_deref())
            .integer(self.fingerprint)
            .time(self.first_seen_at)
            // Recomputed by the aggregate refresh after an upsert; as it was in a copy.
            .time(self.created_at)
            .integer(self.changed_revision);
        Ok(())
    }
}

/// An event copied from another store, with the figures it derived from its markets there.
pub(crate) struct CopiedEvent<'a> {
    pub stamped: Stamped<'a, Event>,
    pub stored: &'a StoredEvent,
}

impl TableRow for CopiedEvent<'_> {
    const COLUMNS: &'static str = concat!(event_columns!(), ", market_count, total_volume");

    fn values(&self, sink: &mut impl ValueSink) -> Result<(), StoreError> {
        self.stamped.values(sink)?;
        sink.integer(crate::records::to_i64(self.stored.market_count))
            .real(self.stored.total_volume);
        Ok(())
    }
}

/// A market's bar: its market id, then the bar.
impl TableRow for (Uuid, HistoryBar) {
    const COLUMNS: &'static str = crate::records::HISTORY_COLUMNS;

    fn values(&self, sink: &mut impl ValueSink) -> Result<(), StoreError> {
        let (market_id, bar) = self;
        sink.history_id(*market_id)
            .integer(bar.resolution.seconds())
            .integer(bar.bucket_start)
            .time(bar.first_at)
            .time(bar.last_at)
            .text(&json(&bar.outcomes, "a bar's outcomes")?)
            .real(bar.volume)
            .real(bar.volume_24h)
            .real(bar.liquidity);
        Ok(())
    }
}

impl TableRow for MatchPair {
    const COLUMNS: &'static str = "market_id, matched_id, similarity, orientation";

    fn values(&self, sink: &mut impl ValueSink) -> Result<(), StoreError> {
        sink.id(self.market_id)
            .id(self.matched_id)
            .real(self.similarity)
            .text(self.orientation.as_str());
        Ok(())
    }
}

impl TableRow for Account {
    const COLUMNS: &'static str = "id, label, tier, wallet_address, status, credits_remaining, credits_purchased, \
        credits_used, created_at";

    fn values(&self, sink: &mut impl ValueSink) -> Result<(), StoreError> {
        sink.id(self.id)
            .text(&self.label)
            .text(&self.tier)
            .text(&self.wallet_address)
            .text(self.status.as_str())
            .integer(self.credits_remaining)
            .integer(self.credits_purchased)
            .integer(self.credits_used)
            .time(self.created_at);
        Ok(())
    }
}

impl TableRow for ExportedKey {
    const COLUMNS: &'static str = "id, account_id, key_hash, display, created_at, revoked_at";

    fn values(&self, sink: &mut impl ValueSink) -> Result<(), StoreError> {
        sink.id(self.record.id)
            .id(self.record.account_id)
            .bytes(&self.hash.0)
            .text(&self.record.display)
            .time(self.record.created_at)
            .optional_time(self.record.revoked_at);
        Ok(())
    }
}

impl TableRow for LedgerEntry {
    const COLUMNS: &'static str = "id, account_id, api_key_id, kind, operation, credits, request_id, created_at";

    fn values(&self, sink: &mut impl ValueSink) -> Result<(), StoreError> {
        sink.integer(self.id)
            .id(self.account_id)
            .optional_id(self.api_key_id)
            .text(self.kind.as_str())
            .optional_text(self.operation.as_deref())
            .integer(self.credits)
            .optional_text(self.request_id.as_deref())
            .time(self.created_at);
        Ok(())
    }
}
