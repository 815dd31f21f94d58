//! The catalogue on SQLite: upserts, lists, lookups, search and matches.

use async_trait::async_trait;
use marketlens_domain::market_url::{MarketUrl, UrlKey};
use marketlens_domain::matching::{MatchInput, MatchPair};
use marketlens_domain::time::Timestamp;
use marketlens_domain::{Event, Exchange, Market};
use sqlx::sqlite::{Sqlite, SqliteRow};
use sqlx::{QueryBuilder, Row, SqliteConnection};
use uuid::Uuid;

use super::SqliteStore;
use super::Statements;
use crate::StoreError;
use crate::catalog::{
    CatalogCounts, CatalogStore, EventMarket, EventQuery, EventSummary, MarketFilter, MarketQuery, MarketSort,
    MarketSummary, MatchedMarket, Page, SearchWords, StoredEvent, StoredMarket, UpsertCounts,
};
use crate::records::{
    self, EVENT_COLUMNS, EVENT_SUMMARY_COLUMNS, MARKET_COLUMNS, SUMMARY_COLUMNS, in_order_of, to_i64,
};
use crate::upsert::CatalogWriter;

fn sort_column(sort: MarketSort) -> &'static str {
    match sort {
        MarketSort::Volume => "volume",
        MarketSort::Volume24h => "volume_24h",
        MarketSort::Liquidity => "liquidity",
        MarketSort::CreatedAt => "created_at",
    }
}

/// An FTS5 query of `words`, each matching as the prefix of a word, joined by `operator`
/// (`" "` for all of them, `" OR "` for any). The words are lower-case ASCII letters and
/// digits (see [`SearchWords`]), so quoting them cannot break out of the query syntax.
fn prefix_query(words: &SearchWords, operator: &str) -> String {
    words
        .words()
        .iter()
        .map(|word| format!("\"{word}\"*"))
        .collect::<Vec<_>>()
        .join(operator)
}

fn push_market_filter(builder: &mut QueryBuilder<Sqlite>, filter: &MarketFilter) {
    builder.push(" WHERE 1 = 1");
    if let Some(exchange) = filter.exchange {
        builder.push(" AND m.exchange = ").push_bind(exchange.as_str());
    }
    if let Some(status) = filter.status {
        builder.push(" AND m.status = ").push_bind(status.as_str());
    }
    if let Some(category) = filter.category {
        builder.push(" AND m.category = ").push_bind(category.as_str());
    }
    if let Some(external_id) = &filter.external_id {
        builder.push(" AND m.external_id = ").push_bind(external_id.clone());
    }
    if let Some(search) = &filter.search {
        builder
            .push(" AND m.seq IN (SELECT rowid FROM markets_fts WHERE markets_fts MATCH ")
            .push_bind(prefix_query(search, " "))
            .push(")");
    }
}

fn push_event_filter(builder: &mut QueryBuilder<Sqlite>, query: &EventQuery) {
    builder.push(" WHERE 1 = 1");
    if let Some(exchange) = query.exchange {
        builder.push(" AND e.exchange = ").push_bind(exchange.as_str());
    }
    if let Some(category) = query.category {
        builder.push(" AND e.category = ").push_bind(category.as_str());
    }
}

/// Match rows per statement: 4 values each.
const MATCH_ROWS_PER_STATEMENT: usize = 2_000;

async fn insert_matches(connection: &mut SqliteConnection, pairs: &[MatchPair]) -> Result<(), StoreError> {
    for chunk in pairs.chunks(MATCH_ROWS_PER_STATEMENT) {
        let mut builder: QueryBuilder<Sqlite> =
            QueryBuilder::new("INSERT INTO market_matches (market_id, matched_id, similarity, orientation) ");
        builder.push_values(chunk, |mut row, pair| {
            row.push_bind(pair.market_id.to_string())
                .push_bind(pair.matched_id.to_string())
                .push_bind(pair.similarity)
                .push_bind(pair.orientation.as_str());
        });
        builder.build().execute(&mut *connection).await?;
    }
    Ok(())
}

fn markets_from(rows: Vec<SqliteRow>) -> Result<Vec<StoredMarket>, StoreError> {
    rows.iter().map(records::stored_market).collect()
}

#[async_trait]
impl CatalogStore for SqliteStore {
    async fn upsert(&self, markets: &[Market], events: &[Event], now: Timestamp) -> Result<UpsertCounts, StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let counts = crate::upsert::upsert(&mut Statements(&mut transaction), markets, events, now).await?;
        transaction.commit().await?;
        self.restart_wal_if_wanted().await;
        Ok(counts)
    }

    async fn list_markets(&self, query: &MarketQuery) -> Result<Page<StoredMarket>, StoreError> {
        let mut count_builder = QueryBuilder::new("SELECT COUNT(*) FROM markets m");
        push_market_filter(&mut count_builder, &query.filter);
        let total: i64 = count_builder.build_query_scalar().fetch_one(&self.reader).await?;

        let mut builder = QueryBuilder::new(format!("SELECT {MARKET_COLUMNS} FROM markets m"));
        push_market_filter(&mut builder, &query.filter);
        let column = sort_column(query.sort);
        let direction = query.order.as_sql();
        builder
            .push(format!(" ORDER BY m.{column} {direction}, m.id {direction} LIMIT "))
            .push_bind(i64::from(query.limit))
            .push(" OFFSET ")
            .push_bind(to_i64(query.offset));
        let rows = builder.build().fetch_all(&self.reader).await?;
        Ok(Page {
            items: markets_from(rows)?,
            total: total.max(0) as u64,
        })
    }

    async fn get_market(&self, id: Uuid) -> Result<Option<StoredMarket>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MARKET_COLUMNS} FROM markets m WHERE m.id = ?1"
        )))
        .bind(id.to_string())
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(records::stored_market).transpose()
    }

    async fn matched_markets(&self, id: Uuid) -> Result<Vec<MatchedMarket>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id, m.exchange, m.question, mm.similarity FROM market_matches mm \
             JOIN markets m ON m.id = mm.matched_id \
             WHERE mm.market_id = ?1 ORDER BY mm.similarity DESC, m.id ASC LIMIT ?2",
        )
        .bind(id.to_string())
        .bind(marketlens_domain::matching::MAX_MATCHES_PER_MARKET as i64)
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::matched_market).collect()
    }

    async fn list_events(&self, query: &EventQuery) -> Result<Page<StoredEvent>, StoreError> {
        let mut count_builder = QueryBuilder::new("SELECT COUNT(*) FROM events e");
        push_event_filter(&mut count_builder, query);
        let total: i64 = count_builder.build_query_scalar().fetch_one(&self.reader).await?;

        let mut builder = QueryBuilder::new(format!("SELECT {EVENT_COLUMNS} FROM events e"));
        push_event_filter(&mut builder, query);
        builder
            .push(" ORDER BY e.total_volume DESC, e.id DESC LIMIT ")
            .push_bind(i64::from(query.limit))
            .push(" OFFSET ")
            .push_bind(to_i64(query.offset));
        let rows = builder.build().fetch_all(&self.reader).await?;
        let items = rows.iter().map(records::stored_event).collect::<Result<_, _>>()?;
        Ok(Page {
            items,
            total: total.max(0) as u64,
        })
    }

    async fn get_event(&self, id: Uuid) -> Result<Option<StoredEvent>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {EVENT_COLUMNS} FROM events e WHERE e.id = ?1"
        )))
        .bind(id.to_string())
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(records::stored_event).transpose()
    }

    async fn events_by_ids(&self, ids: &[Uuid]) -> Result<Vec<StoredEvent>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut builder = QueryBuilder::new(format!("SELECT {EVENT_COLUMNS} FROM events e WHERE e.id IN ("));
        let mut separated = builder.separated(", ");
        for id in ids {
            separated.push_bind(id.to_string());
        }
        builder.push(")");
        let rows = builder.build().fetch_all(&self.reader).await?;
        in_order_of(ids, rows.iter().map(records::stored_event).collect::<Result<_, _>>()?)
    }

    async fn market_summaries(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<MarketSummary>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {SUMMARY_COLUMNS} FROM markets m WHERE m.id > ?1 ORDER BY m.id LIMIT ?2"
        )))
        .bind(after.map(|id| id.to_string()).unwrap_or_default())
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::market_summary).collect()
    }

    async fn event_summaries(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<EventSummary>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {EVENT_SUMMARY_COLUMNS} FROM events e WHERE e.id > ?1 ORDER BY e.id LIMIT ?2"
        )))
        .bind(after.map(|id| id.to_string()).unwrap_or_default())
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::event_summary).collect()
    }

    async fn event_markets(&self, event_id: Uuid) -> Result<Vec<EventMarket>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, question, headline_price, volume_24h FROM markets WHERE event_id = ?1 \
             ORDER BY headline_price DESC, id ASC",
        )
        .bind(event_id.to_string())
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::event_market).collect()
    }

    async fn markets_by_url(&self, url: &MarketUrl) -> Result<Vec<StoredMarket>, StoreError> {
        for key in &url.keys {
            let mut builder = QueryBuilder::new(format!("SELECT {MARKET_COLUMNS} FROM markets m WHERE m.exchange = "));
            builder.push_bind(url.exchange.as_str());
            match key {
                UrlKey::Market(slug) => {
                    builder.push(" AND m.url_market = ").push_bind(slug.clone());
                }
                UrlKey::Event(slug) => {
                    builder.push(" AND m.url_event = ").push_bind(slug.clone());
                }
                UrlKey::Series(slug) => {
                    // Kalshi markets imported without their event carry no series ticker; their
                    // event tickers still begin with it ("kxmarmad-26"), so a range on the event
                    // key finds them through the index.
                    builder
                        .push(" AND (m.url_series = ")
                        .push_bind(slug.clone())
                        .push(" OR (m.url_event >= ")
                        .push_bind(format!("{slug}-"))
                        .push(" AND m.url_event < ")
                        .push_bind(format!("{slug}."))
                        .push("))");
                }
            }
            builder.push(" ORDER BY m.id LIMIT 1000");
            let rows = builder.build().fetch_all(&self.reader).await?;
            if !rows.is_empty() {
                return markets_from(rows);
            }
        }
        Ok(Vec::new())
    }

    async fn search_any_words(&self, words: &SearchWords, limit: u32) -> Result<Vec<StoredMarket>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MARKET_COLUMNS} FROM markets_fts f JOIN markets m ON m.seq = f.rowid \
             WHERE markets_fts MATCH ?1 ORDER BY bm25(markets_fts), m.id LIMIT ?2"
        )))
        .bind(prefix_query(words, " OR "))
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        markets_from(rows)
    }

    async fn match_inputs(&self) -> Result<Vec<MatchInput>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id, m.exchange, m.question, m.end_date, m.outcomes, e.title AS event_title \
             FROM markets m LEFT JOIN events e ON e.id = m.event_id ORDER BY m.id",
        )
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::match_input).collect()
    }

    async fn match_inputs_changed_since(&self, revision: i64) -> Result<Vec<MatchInput>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id, m.exchange, m.question, m.end_date, m.outcomes, e.title AS event_title \
             FROM markets m LEFT JOIN events e ON e.id = m.event_id \
             WHERE m.id IN (SELECT id FROM markets WHERE changed_revision > ?1 \
                            UNION SELECT c.id FROM events x JOIN markets c ON c.event_id = x.id \
                            WHERE x.changed_revision > ?1) \
             ORDER BY m.id",
        )
        .bind(revision)
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::match_input).collect()
    }

    async fn replace_matches(&self, pairs: &[MatchPair]) -> Result<(), StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query("DELETE FROM market_matches")
            .execute(&mut *transaction)
            .await?;
        insert_matches(&mut transaction, pairs).await?;
        Statements(&mut transaction).bump_revision().await?;
        transaction.commit().await?;
        Ok(())
    }

    async fn update_matches(&self, markets: &[Uuid], pairs: &[MatchPair]) -> Result<(), StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        for chunk in markets.chunks(MATCH_ROWS_PER_STATEMENT) {
            let mut builder: QueryBuilder<Sqlite> =
                QueryBuilder::new("DELETE FROM market_matches WHERE market_id IN (");
            let mut separated = builder.separated(", ");
            for market in chunk {
                separated.push_bind(market.to_string());
            }
            builder.push(")");
            builder.build().execute(&mut *transaction).await?;
        }
        insert_matches(&mut transaction, pairs).await?;
        Statements(&mut transaction).bump_revision().await?;
        transaction.commit().await?;
        Ok(())
    }

    async fn catalog_counts(&self) -> Result<CatalogCounts, StoreError> {
        let row = sqlx::query(
            "SELECT \
                (SELECT COUNT(*) FROM markets WHERE exchange = 'POLYMARKET') AS polymarket_markets, \
                (SELECT COUNT(*) FROM markets WHERE exchange = 'KALSHI') AS kalshi_markets, \
                (SELECT COUNT(*) FROM events) AS events, \
                (SELECT COUNT(*) FROM market_matches) AS match_rows",
        )
        .fetch_one(&self.reader)
        .await?;
        let count = |column: &str| -> Result<u64, StoreError> { Ok(row.try_get::<i64, _>(column)?.max(0) as u64) };
        Ok(CatalogCounts {
            polymarket_markets: count("polymarket_markets")?,
            kalshi_markets: count("kalshi_markets")?,
            events: count("events")?,
            match_pairs: count("match_rows")? / 2,
        })
    }

    async fn catalog_revision(&self) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT revision FROM catalog_state WHERE id = 1")
            .fetch_one(&self.reader)
            .await?)
    }

    async fn open_market_ids(&self, exchange: Exchange) -> Result<Vec<String>, StoreError> {
        let ids = sqlx::query_scalar(
            "SELECT external_id FROM markets WHERE exchange = ?1 AND status = 'OPEN' ORDER BY external_id",
        )
        .bind(exchange.as_str())
        .fetch_all(&self.reader)
        .await?;
        Ok(ids)
    }
}
