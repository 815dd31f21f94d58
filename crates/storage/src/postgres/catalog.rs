//! The catalogue on PostgreSQL: upserts, lists, lookups, search and matches. The queries are
//! SQLite's, answer for answer: the same filters, the same order with the same id tie-break
//! (UUIDs compare as their text does), and search over the same folded words.

use async_trait::async_trait;
use marketlens_domain::market_url::{MarketUrl, UrlKey};
use marketlens_domain::matching::{MatchInput, MatchPair};
use marketlens_domain::time::Timestamp;
use marketlens_domain::{Event, Exchange, Market};
use sqlx::postgres::{PgRow, Postgres};
use sqlx::{PgConnection, QueryBuilder, Row};
use uuid::Uuid;

use super::PgStore;
use super::Statements;
use crate::StoreError;
use crate::catalog::{
    CatalogCounts, CatalogStore, EventMarket, EventQuery, EventSummary, MarketFilter, MarketQuery, MarketSort,
    MarketSummary, MatchedMarket, Page, SearchWords, SortOrder, StoredEvent, StoredMarket, UpsertCounts,
};
use crate::records::{
    self, EVENT_COLUMNS, EVENT_SUMMARY_COLUMNS, MARKET_COLUMNS, SUMMARY_COLUMNS, in_order_of, to_i64,
};
use crate::upsert::CatalogWriter;

/// Match rows per insert statement (three arrays of this length).
const MATCHES_PER_STATEMENT: usize = 10_000;

fn sort_column(sort: MarketSort) -> &'static str {
    match sort {
        MarketSort::Volume => "volume",
        MarketSort::Volume24h => "volume_24h",
        MarketSort::Liquidity => "liquidity",
        MarketSort::CreatedAt => "created_at",
    }
}

/// A `tsquery` of `words`, each matching as the prefix of a lexeme, joined by `operator`
/// (`&` for all of them, `|` for any). Cast with `::tsquery`, which takes lexemes as they are
/// (no parser, no stemming); the words are lower-case ASCII letters and digits (see
/// [`SearchWords`]), so quoting them cannot break out of the syntax.
fn prefix_query(words: &SearchWords, operator: &str) -> String {
    words
        .words()
        .iter()
        .map(|word| format!("'{word}':*"))
        .collect::<Vec<_>>()
        .join(operator)
}

fn push_market_filter(builder: &mut QueryBuilder<Postgres>, filter: &MarketFilter) {
    builder.push(" WHERE TRUE");
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
            .push(" AND m.search_words @@ ")
            .push_bind(prefix_query(search, " & "))
            .push("::tsquery");
    }
}

fn push_event_filter(builder: &mut QueryBuilder<Postgres>, query: &EventQuery) {
    builder.push(" WHERE TRUE");
    if let Some(exchange) = query.exchange {
        builder.push(" AND e.exchange = ").push_bind(exchange.as_str());
    }
    if let Some(category) = query.category {
        builder.push(" AND e.category = ").push_bind(category.as_str());
    }
}

async fn insert_matches(connection: &mut PgConnection, pairs: &[MatchPair]) -> Result<(), StoreError> {
    for chunk in pairs.chunks(MATCHES_PER_STATEMENT) {
        let market_ids: Vec<Uuid> = chunk.iter().map(|pair| pair.market_id).collect();
        let matched_ids: Vec<Uuid> = chunk.iter().map(|pair| pair.matched_id).collect();
        let similarities: Vec<f64> = chunk.iter().map(|pair| pair.similarity).collect();
        let orientations: Vec<&str> = chunk.iter().map(|pair| pair.orientation.as_str()).collect();
        sqlx::query(
            "INSERT INTO market_matches (market_id, matched_id, similarity, orientation) \
             SELECT * FROM UNNEST($1::uuid[], $2::uuid[], $3::float8[], $4::text[])",
        )
        .bind(market_ids)
        .bind(matched_ids)
        .bind(similarities)
        .bind(orientations)
        .execute(&mut *connection)
        .await?;
    }
    Ok(())
}

fn markets_from(rows: &[PgRow]) -> Result<Vec<StoredMarket>, StoreError> {
    rows.iter().map(records::stored_market).collect()
}

/// `text` as a `LIKE` pattern matching itself literally.
fn like_literal(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

#[async_trait]
impl CatalogStore for PgStore {
    async fn upsert(&self, markets: &[Market], events: &[Event], now: Timestamp) -> Result<UpsertCounts, StoreError> {
        let mut transaction = self.pool.begin().await?;
        // One catalogue writer at a time (another node's sync, an operator's import): the
        // upsert reads versions and then writes, and two writers interleaving could each keep
        // an older record.
        sqlx::query("LOCK TABLE markets, events IN SHARE ROW EXCLUSIVE MODE")
            .execute(&mut *transaction)
            .await?;
        let counts = crate::upsert::upsert(&mut Statements(&mut transaction), markets, events, now).await?;
        transaction.commit().await?;
        Ok(counts)
    }

    async fn list_markets(&self, query: &MarketQuery) -> Result<Page<StoredMarket>, StoreError> {
        let mut count_builder = QueryBuilder::new("SELECT COUNT(*) FROM markets m");
        push_market_filter(&mut count_builder, &query.filter);
        let total: i64 = count_builder.build_query_scalar().fetch_one(&self.pool).await?;

        let mut builder = QueryBuilder::new(format!("SELECT {MARKET_COLUMNS} FROM markets m"));
        push_market_filter(&mut builder, &query.filter);
        let column = sort_column(query.sort);
        let direction = match query.order {
            SortOrder::Asc => "ASC",
            SortOrder::Desc => "DESC",
        };
        builder
            .push(format!(" ORDER BY m.{column} {direction}, m.id {direction} LIMIT "))
            .push_bind(i64::from(query.limit))
            .push(" OFFSET ")
            .push_bind(to_i64(query.offset));
        let rows = builder.build().fetch_all(&self.pool).await?;
        Ok(Page {
            items: markets_from(&rows)?,
            total: total.max(0) as u64,
        })
    }

    async fn get_market(&self, id: Uuid) -> Result<Option<StoredMarket>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MARKET_COLUMNS} FROM markets m WHERE m.id = $1"
        )))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(records::stored_market).transpose()
    }

    async fn matched_markets(&self, id: Uuid) -> Result<Vec<MatchedMarket>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id, m.exchange, m.question, mm.similarity FROM market_matches mm \
             JOIN markets m ON m.id = mm.matched_id \
             WHERE mm.market_id = $1 ORDER BY mm.similarity DESC, m.id ASC LIMIT $2",
        )
        .bind(id)
        .bind(marketlens_domain::matching::MAX_MATCHES_PER_MARKET as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(records::matched_market).collect()
    }

    async fn list_events(&self, query: &EventQuery) -> Result<Page<StoredEvent>, StoreError> {
        let mut count_builder = QueryBuilder::new("SELECT COUNT(*) FROM events e");
        push_event_filter(&mut count_builder, query);
        let total: i64 = count_builder.build_query_scalar().fetch_one(&self.pool).await?;

        let mut builder = QueryBuilder::new(format!("SELECT {EVENT_COLUMNS} FROM events e"));
        push_event_filter(&mut builder, query);
        builder
            .push(" ORDER BY e.total_volume DESC, e.id DESC LIMIT ")
            .push_bind(i64::from(query.limit))
            .push(" OFFSET ")
            .push_bind(to_i64(query.offset));
        let rows = builder.build().fetch_all(&self.pool).await?;
        let items = rows.iter().map(records::stored_event).collect::<Result<_, _>>()?;
        Ok(Page {
            items,
            total: total.max(0) as u64,
        })
    }

    async fn get_event(&self, id: Uuid) -> Result<Option<StoredEvent>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {EVENT_COLUMNS} FROM events e WHERE e.id = $1"
        )))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(records::stored_event).transpose()
    }

    async fn events_by_ids(&self, ids: &[Uuid]) -> Result<Vec<StoredEvent>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {EVENT_COLUMNS} FROM events e WHERE e.id = ANY($1)"
        )))
        .bind(ids)
        .fetch_all(&self.pool)
        .await?;
        in_order_of(ids, rows.iter().map(records::stored_event).collect::<Result<_, _>>()?)
    }

    async fn market_summaries(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<MarketSummary>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {SUMMARY_COLUMNS} FROM markets m WHERE m.id > $1 ORDER BY m.id LIMIT $2"
        )))
        .bind(after.unwrap_or(Uuid::nil()))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(records::market_summary).collect()
    }

    async fn event_summaries(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<EventSummary>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {EVENT_SUMMARY_COLUMNS} FROM events e WHERE e.id > $1 ORDER BY e.id LIMIT $2"
        )))
        .bind(after.unwrap_or(Uuid::nil()))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(records::event_summary).collect()
    }

    async fn event_markets(&self, event_id: Uuid) -> Result<Vec<EventMarket>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, question, headline_price, volume_24h FROM markets WHERE event_id = $1 \
             ORDER BY headline_price DESC, id ASC",
        )
        .bind(event_id)
        .fetch_all(&self.pool)
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
                    // event tickers still begin with it ("kxmarmad-26").
                    builder
                        .push(" AND (m.url_series = ")
                        .push_bind(slug.clone())
                        .push(" OR m.url_event LIKE ")
                        .push_bind(format!("{}-%", like_literal(slug)))
                        .push(")");
                }
            }
            builder.push(" ORDER BY m.id LIMIT 1000");
            let rows = builder.build().fetch_all(&self.pool).await?;
            if !rows.is_empty() {
                return markets_from(&rows);
            }
        }
        Ok(Vec::new())
    }

    async fn search_any_words(&self, words: &SearchWords, limit: u32) -> Result<Vec<StoredMarket>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MARKET_COLUMNS} FROM markets m WHERE m.search_words @@ $1::tsquery \
             ORDER BY ts_rank(m.search_words, $1::tsquery) DESC, m.id LIMIT $2"
        )))
        .bind(prefix_query(words, " | "))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        markets_from(&rows)
    }

    async fn match_inputs(&self) -> Result<Vec<MatchInput>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id, m.exchange, m.question, m.end_date, m.outcomes, e.title AS event_title \
             FROM markets m LEFT JOIN events e ON e.id = m.event_id ORDER BY m.id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(records::match_input).collect()
    }

    async fn match_inputs_changed_since(&self, revision: i64) -> Result<Vec<MatchInput>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id, m.exchange, m.question, m.end_date, m.outcomes, e.title AS event_title \
             FROM markets m LEFT JOIN events e ON e.id = m.event_id \
             WHERE m.id IN (SELECT id FROM markets WHERE changed_revision > $1 \
                            UNION SELECT c.id FROM events x JOIN markets c ON c.event_id = x.id \
                            WHERE x.changed_revision > $1) \
             ORDER BY m.id",
        )
        .bind(revision)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(records::match_input).collect()
    }

    async fn replace_matches(&self, pairs: &[MatchPair]) -> Result<(), StoreError> {
        let mut transaction = self.pool.begin().await?;
        sqlx::query("DELETE FROM market_matches")
            .execute(&mut *transaction)
            .await?;
        insert_matches(&mut transaction, pairs).await?;
        Statements(&mut transaction).bump_revision().await?;
        transaction.commit().await?;
        Ok(())
    }

    async fn update_matches(&self, markets: &[Uuid], pairs: &[MatchPair]) -> Result<(), StoreError> {
        let mut transaction = self.pool.begin().await?;
        sqlx::query("DELETE FROM market_matches WHERE market_id = ANY($1)")
            .bind(markets)
            .execute(&mut *transaction)
            .await?;
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
        .fetch_one(&self.pool)
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
            .fetch_one(&self.pool)
            .await?)
    }

    async fn open_market_ids(&self, exchange: Exchange) -> Result<Vec<String>, StoreError> {
        // Byte order, as SQLite sorts, whatever the database's collation.
        let ids = sqlx::query_scalar(
            "SELECT external_id FROM markets WHERE exchange = $1 AND status = 'OPEN' ORDER BY external_id COLLATE \"C\"",
        )
        .bind(exchange.as_str())
        .fetch_all(&self.pool)
        .await?;
        Ok(ids)
    }
}
