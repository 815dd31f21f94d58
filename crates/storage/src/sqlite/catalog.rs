//! The catalogue on SQLite: upserts, lists, lookups, search and matches.

use async_trait::async_trait;
use marketlens_domain::market_url::{MarketUrl, UrlKey};
use marketlens_domain::matching::{MatchInput, MatchPair};
use marketlens_domain::time::{Timestamp, to_epoch_millis};
use marketlens_domain::upsert::{UpsertDecision, Version, decide};
use marketlens_domain::{Event, Exchange, Market};
use sqlx::sqlite::{Sqlite, SqliteRow};
use sqlx::{QueryBuilder, Row, SqliteConnection};
use std::collections::BTreeSet;
use uuid::Uuid;

use super::SqliteStore;
use super::rows::{self, EVENT_COLUMNS, MARKET_COLUMNS};
use crate::StoreError;
use crate::catalog::{
    CatalogCounts, CatalogStore, EventMarket, EventQuery, MarketFilter, MarketQuery, MarketSort, MatchedMarket, Page,
    SearchWords, StoredEvent, StoredMarket, UpsertCounts,
};
use crate::fingerprint::fingerprint;

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

fn markets_from(rows: Vec<SqliteRow>) -> Result<Vec<StoredMarket>, StoreError> {
    rows.iter().map(rows::stored_market).collect()
}

fn to_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

async fn stored_version(
    connection: &mut SqliteConnection,
    table_query: &'static str,
    id: &str,
) -> Result<Option<(Version, Option<String>)>, StoreError> {
    let row = sqlx::query(table_query)
        .bind(id)
        .fetch_optional(&mut *connection)
        .await?;
    row.map(|row| {
        Ok((
            Version {
                source_updated_at: rows::optional_timestamp(&row, "source_updated_at")?,
                fingerprint: row.try_get("fingerprint")?,
            },
            row.try_get("event_id")?,
        ))
    })
    .transpose()
}

async fn write_market(
    connection: &mut SqliteConnection,
    market: &Market,
    fingerprint: i64,
    now: Timestamp,
) -> Result<(), StoreError> {
    let outcomes = serde_json::to_string(&market.outcomes)
        .map_err(|error| StoreError::Internal(format!("outcomes do not serialize: {error}")))?;
    let search_text = marketlens_domain::text::words(&market.question)
        .collect::<Vec<_>>()
        .join(" ");
    sqlx::query(
        "INSERT INTO markets (id, exchange, external_id, event_id, event_external_id, question, search_text, \
            description, status, category, liquidity, volume, volume_24h, start_date, end_date, source_created_at, \
            created_at, updated_at, source_updated_at, outcomes, headline_price, url_market, url_event, url_series, \
            url, image_url, fingerprint, first_seen_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, \
            ?22, ?23, ?24, ?25, ?26, ?27, ?28) \
         ON CONFLICT (id) DO UPDATE SET event_id = excluded.event_id, event_external_id = excluded.event_external_id, \
            question = excluded.question, search_text = excluded.search_text, description = excluded.description, \
            status = excluded.status, category = excluded.category, liquidity = excluded.liquidity, \
            volume = excluded.volume, volume_24h = excluded.volume_24h, start_date = excluded.start_date, \
            end_date = excluded.end_date, source_created_at = excluded.source_created_at, \
            created_at = COALESCE(excluded.source_created_at, markets.created_at), updated_at = excluded.updated_at, \
            source_updated_at = excluded.source_updated_at, outcomes = excluded.outcomes, \
            headline_price = excluded.headline_price, url_market = excluded.url_market, \
            url_event = excluded.url_event, url_series = excluded.url_series, url = excluded.url, \
            image_url = excluded.image_url, fingerprint = excluded.fingerprint",
    )
    .bind(market.id().to_string())
    .bind(market.exchange.as_str())
    .bind(&market.external_id)
    .bind(market.event_id().map(|id| id.to_string()))
    .bind(&market.event_external_id)
    .bind(&market.question)
    .bind(search_text)
    .bind(&market.description)
    .bind(market.status.as_str())
    .bind(market.category.as_str())
    .bind(market.liquidity)
    .bind(market.volume)
    .bind(market.volume_24h)
    .bind(market.start_date.map(to_epoch_millis))
    .bind(market.end_date.map(to_epoch_millis))
    .bind(market.created_at.map(to_epoch_millis))
    // Without the exchange's times: first seen now (kept on later updates), changed now.
    .bind(to_epoch_millis(market.created_at.unwrap_or(now)))
    .bind(to_epoch_millis(market.source_updated_at.unwrap_or(now)))
    .bind(market.source_updated_at.map(to_epoch_millis))
    .bind(outcomes)
    .bind(market.headline_price())
    .bind(&market.url_keys.market)
    .bind(&market.url_keys.event)
    .bind(&market.url_keys.series)
    .bind(&market.url)
    .bind(&market.image_url)
    .bind(fingerprint)
    .bind(to_epoch_millis(now))
    .execute(&mut *connection)
    .await?;
    Ok(())
}

async fn write_event(
    connection: &mut SqliteConnection,
    event: &Event,
    fingerprint: i64,
    now: Timestamp,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO events (id, exchange, external_id, title, description, category, reported_volume, image_url, \
            source_created_at, source_updated_at, slug, series_slug, fingerprint, first_seen_at, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, COALESCE(?9, ?14)) \
         ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description, \
            category = excluded.category, reported_volume = excluded.reported_volume, image_url = excluded.image_url, \
            source_created_at = excluded.source_created_at, source_updated_at = excluded.source_updated_at, \
            slug = excluded.slug, series_slug = excluded.series_slug, fingerprint = excluded.fingerprint",
    )
    .bind(event.id().to_string())
    .bind(event.exchange.as_str())
    .bind(&event.external_id)
    .bind(&event.title)
    .bind(&event.description)
    .bind(event.category.as_str())
    .bind(event.reported_volume)
    .bind(&event.image_url)
    .bind(event.created_at.map(to_epoch_millis))
    .bind(event.source_updated_at.map(to_epoch_millis))
    .bind(&event.slug)
    .bind(&event.series_slug)
    .bind(fingerprint)
    .bind(to_epoch_millis(now))
    .execute(&mut *connection)
    .await?;
    Ok(())
}

/// Recomputes what an event derives from its stored markets.
async fn refresh_event_aggregates(connection: &mut SqliteConnection, event_id: &str) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE events SET \
            market_count = (SELECT COUNT(*) FROM markets WHERE event_id = ?1), \
            total_volume = COALESCE(reported_volume, (SELECT TOTAL(volume) FROM markets WHERE event_id = ?1)), \
            created_at = COALESCE(source_created_at, (SELECT MIN(created_at) FROM markets WHERE event_id = ?1), first_seen_at) \
         WHERE id = ?1",
    )
    .bind(event_id)
    .execute(&mut *connection)
    .await?;
    Ok(())
}

#[async_trait]
impl CatalogStore for SqliteStore {
    async fn upsert(&self, markets: &[Market], events: &[Event], now: Timestamp) -> Result<UpsertCounts, StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let mut counts = UpsertCounts::default();
        let mut touched_events: BTreeSet<String> = BTreeSet::new();

        for event in events {
            let id = event.id().to_string();
            let incoming = Version {
                source_updated_at: event.source_updated_at,
                fingerprint: fingerprint(event),
            };
            let stored = stored_version(
                &mut transaction,
                "SELECT source_updated_at, fingerprint, id AS event_id FROM events WHERE id = ?1",
                &id,
            )
            .await?;
            match decide(stored.map(|(version, _)| version), incoming) {
                UpsertDecision::Insert => counts.events_inserted += 1,
                UpsertDecision::Update => counts.events_updated += 1,
                UpsertDecision::Unchanged => {
                    counts.events_unchanged += 1;
                    continue;
                }
                UpsertDecision::Stale => {
                    counts.events_stale += 1;
                    continue;
                }
            }
            write_event(&mut transaction, event, incoming.fingerprint, now).await?;
            touched_events.insert(id);
        }

        for market in markets {
            let incoming = Version {
                source_updated_at: market.source_updated_at,
                fingerprint: fingerprint(market),
            };
            let stored = stored_version(
                &mut transaction,
                "SELECT source_updated_at, fingerprint, event_id FROM markets WHERE id = ?1",
                &market.id().to_string(),
            )
            .await?;
            let previous_event = stored.as_ref().and_then(|(_, event_id)| event_id.clone());
            match decide(stored.map(|(version, _)| version), incoming) {
                UpsertDecision::Insert => counts.markets_inserted += 1,
                UpsertDecision::Update => counts.markets_updated += 1,
                UpsertDecision::Unchanged => {
                    counts.markets_unchanged += 1;
                    continue;
                }
                UpsertDecision::Stale => {
                    counts.markets_stale += 1;
                    continue;
                }
            }
            write_market(&mut transaction, market, incoming.fingerprint, now).await?;
            touched_events.extend(previous_event);
            touched_events.extend(market.event_id().map(|id| id.to_string()));
        }

        for event_id in &touched_events {
            refresh_event_aggregates(&mut transaction, event_id).await?;
        }
        transaction.commit().await?;
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
        row.as_ref().map(rows::stored_market).transpose()
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
        rows.iter()
            .map(|row| {
                Ok(MatchedMarket {
                    id: rows::uuid(row, "id")?,
                    exchange: rows::parsed(row, "exchange")?,
                    question: row.try_get("question")?,
                    similarity: row.try_get("similarity")?,
                })
            })
            .collect()
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
        let items = rows.iter().map(rows::stored_event).collect::<Result<_, _>>()?;
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
        row.as_ref().map(rows::stored_event).transpose()
    }

    async fn event_markets(&self, event_id: Uuid) -> Result<Vec<EventMarket>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, question, headline_price, volume_24h FROM markets WHERE event_id = ?1 \
             ORDER BY headline_price DESC, id ASC",
        )
        .bind(event_id.to_string())
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(EventMarket {
                    id: rows::uuid(row, "id")?,
                    question: row.try_get("question")?,
                    price: row.try_get("headline_price")?,
                    volume_24h: row.try_get("volume_24h")?,
                })
            })
            .collect()
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
        let rows = sqlx::query("SELECT id, exchange, question, end_date FROM markets ORDER BY id")
            .fetch_all(&self.reader)
            .await?;
        rows.iter()
            .map(|row| {
                Ok(MatchInput {
                    id: rows::uuid(row, "id")?,
                    exchange: rows::parsed(row, "exchange")?,
                    question: row.try_get("question")?,
                    end_date: rows::optional_timestamp(row, "end_date")?,
                })
            })
            .collect()
    }

    async fn replace_matches(&self, pairs: &[MatchPair]) -> Result<(), StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query("DELETE FROM market_matches")
            .execute(&mut *transaction)
            .await?;
        for pair in pairs {
            sqlx::query("INSERT INTO market_matches (market_id, matched_id, similarity) VALUES (?1, ?2, ?3)")
                .bind(pair.market_id.to_string())
                .bind(pair.matched_id.to_string())
                .bind(pair.similarity)
                .execute(&mut *transaction)
                .await?;
        }
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
