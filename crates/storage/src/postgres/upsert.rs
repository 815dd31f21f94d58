//! [`CatalogWriter`] on PostgreSQL: the statements of an upsert, in native column types.

use marketlens_domain::time::Timestamp;
use marketlens_domain::upsert::Version;
use marketlens_domain::{Event, Market};
use sqlx::QueryBuilder;
use sqlx::postgres::Postgres;
use sqlx::types::Json;
use std::collections::HashMap;
use uuid::Uuid;

use crate::StoreError;
use crate::records::{RecordRow, corrupt};
use crate::upsert::{
    CatalogWriter, EventAggregate, EventMarketFigures, IDS_PER_STATEMENT, INSERT_EVENTS, INSERT_MARKETS,
    ON_CONFLICT_UPDATE_EVENT, ON_CONFLICT_UPDATE_MARKET, Stamped, Stored, Table,
};

/// The upsert keeps ids as text; PostgreSQL keeps them as `UUID`.
fn uuids(ids: &[String]) -> Result<Vec<Uuid>, StoreError> {
    ids.iter()
        .map(|id| id.parse().map_err(|error| corrupt("id", error)))
        .collect()
}

impl CatalogWriter for super::Statements<'_> {
    async fn stored_versions(&mut self, table: Table, ids: &[String]) -> Result<HashMap<String, Stored>, StoreError> {
        let query = match table {
            Table::Markets => {
                "SELECT id::text AS id, source_updated_at, fingerprint, event_id::text AS event_id \
                 FROM markets WHERE id = ANY($1)"
            }
            Table::Events => {
                "SELECT id::text AS id, source_updated_at, fingerprint, id::text AS event_id \
                 FROM events WHERE id = ANY($1)"
            }
        };
        let mut stored = HashMap::with_capacity(ids.len());
        for chunk in ids.chunks(IDS_PER_STATEMENT) {
            for row in sqlx::query(query).bind(uuids(chunk)?).fetch_all(&mut *self.0).await? {
                let version = Version {
                    source_updated_at: row.optional_timestamp("source_updated_at")?,
                    fingerprint: row.integer("fingerprint")?,
                };
                let event_id = row.optional_text("event_id")?;
                stored.insert(row.text("id")?, Stored { version, event_id });
            }
        }
        Ok(stored)
    }

    async fn write_markets(&mut self, chunk: &[Stamped<'_, Market>]) -> Result<(), StoreError> {
        let mut builder: QueryBuilder<Postgres> = QueryBuilder::new(INSERT_MARKETS);
        builder.push_values(chunk, |mut row, stamped| {
            let market = stamped.record;
            row.push_bind(market.id())
                .push_bind(market.exchange.as_str())
                .push_bind(market.external_id.clone())
                .push_bind(market.event_id())
                .push_bind(market.event_external_id.clone())
                .push_bind(market.question.clone())
                .push_bind(
                    marketlens_domain::text::words(&market.question)
                        .collect::<Vec<_>>()
                        .join(" "),
                )
                .push_bind(market.description.clone())
                .push_bind(market.status.as_str())
                .push_bind(market.category.as_str())
                .push_bind(market.liquidity)
                .push_bind(market.volume)
                .push_bind(market.volume_24h)
                .push_bind(market.start_date)
                .push_bind(market.end_date)
                .push_bind(market.created_at)
                .push_bind(stamped.created_at)
                .push_bind(stamped.updated_at)
                .push_bind(market.source_updated_at)
                .push_bind(Json(market.outcomes.clone()))
                .push_bind(market.headline_price())
                .push_bind(market.url_keys.market.clone())
                .push_bind(market.url_keys.event.clone())
                .push_bind(market.url_keys.series.clone())
                .push_bind(market.url.clone())
                .push_bind(market.image_url.clone())
                .push_bind(stamped.fingerprint)
                .push_bind(stamped.first_seen_at)
                .push_bind(stamped.changed_revision)
                .push_bind(stamped.observed_at);
        });
        builder.push(ON_CONFLICT_UPDATE_MARKET);
        builder.build().execute(&mut *self.0).await?;
        Ok(())
    }

    async fn write_events(&mut self, chunk: &[Stamped<'_, Event>]) -> Result<(), StoreError> {
        let mut builder: QueryBuilder<Postgres> = QueryBuilder::new(INSERT_EVENTS);
        builder.push_values(chunk, |mut row, stamped| {
            let event = stamped.record;
            row.push_bind(event.id())
                .push_bind(event.exchange.as_str())
                .push_bind(event.external_id.clone())
                .push_bind(event.title.clone())
                .push_bind(event.description.clone())
                .push_bind(event.category.as_str())
                .push_bind(event.reported_volume)
                .push_bind(event.image_url.clone())
                .push_bind(event.created_at)
                .push_bind(event.source_updated_at)
                .push_bind(event.slug.clone())
                .push_bind(event.series_slug.clone())
                .push_bind(stamped.fingerprint)
                .push_bind(stamped.first_seen_at)
                // Recomputed by the aggregate refresh.
                .push_bind(stamped.created_at)
                .push_bind(stamped.changed_revision);
        });
        builder.push(ON_CONFLICT_UPDATE_EVENT);
        builder.build().execute(&mut *self.0).await?;
        Ok(())
    }

    async fn event_markets(&mut self, event_ids: &[String]) -> Result<Vec<EventMarketFigures>, StoreError> {
        let rows = sqlx::query(
            "SELECT event_id::text AS event_id, volume, created_at FROM markets WHERE event_id = ANY($1) \
             ORDER BY event_id, id",
        )
        .bind(uuids(event_ids)?)
        .fetch_all(&mut *self.0)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(EventMarketFigures {
                    event_id: row.text("event_id")?,
                    volume: row.real("volume")?,
                    created_at: row.timestamp("created_at")?,
                })
            })
            .collect()
    }

    async fn write_event_aggregates(&mut self, aggregates: &[EventAggregate]) -> Result<(), StoreError> {
        let ids: Vec<String> = aggregates.iter().map(|aggregate| aggregate.event_id.clone()).collect();
        let counts: Vec<i64> = aggregates.iter().map(|aggregate| aggregate.market_count).collect();
        let volumes: Vec<f64> = aggregates.iter().map(|aggregate| aggregate.markets_volume).collect();
        let earliest: Vec<Option<Timestamp>> = aggregates.iter().map(|aggregate| aggregate.earliest_market).collect();
        sqlx::query(
            "UPDATE events SET market_count = derived.market_count, \
                total_volume = COALESCE(events.reported_volume, derived.markets_volume), \
                created_at = COALESCE(events.source_created_at, derived.earliest_market, events.first_seen_at) \
             FROM UNNEST($1::uuid[], $2::bigint[], $3::float8[], $4::timestamptz[]) \
                AS derived (id, market_count, markets_volume, earliest_market) \
             WHERE events.id = derived.id",
        )
        .bind(uuids(&ids)?)
        .bind(counts)
        .bind(volumes)
        .bind(earliest)
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    async fn next_revision(&mut self) -> Result<i64, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT revision + 1 FROM catalog_state WHERE id = 1 FOR UPDATE")
                .fetch_one(&mut *self.0)
                .await?,
        )
    }

    async fn bump_revision(&mut self) -> Result<(), StoreError> {
        sqlx::query("UPDATE catalog_state SET revision = revision + 1 WHERE id = 1")
            .execute(&mut *self.0)
            .await?;
        Ok(())
    }
}
