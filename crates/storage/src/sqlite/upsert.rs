//! [`CatalogWriter`] on SQLite: the statements of an upsert. (Each statement is a round trip
//! to sqlx's SQLite worker thread; per-row statements spent a quarter of an import's time in
//! thread hand-offs, hence the multi-row forms.)

use marketlens_domain::time::to_epoch_millis;
use marketlens_domain::upsert::Version;
use marketlens_domain::{Event, Market};
use sqlx::sqlite::Sqlite;
use sqlx::{QueryBuilder, Row};
use std::collections::HashMap;

use crate::StoreError;
use crate::records::RecordRow;
use crate::upsert::{
    CatalogWriter, EventAggregate, EventMarketFigures, IDS_PER_STATEMENT, INSERT_EVENTS, INSERT_MARKETS,
    ON_CONFLICT_UPDATE_EVENT, ON_CONFLICT_UPDATE_MARKET, Stamped, Stored, Table,
};

impl CatalogWriter for super::Statements<'_> {
    async fn stored_versions(&mut self, table: Table, ids: &[String]) -> Result<HashMap<String, Stored>, StoreError> {
        let (table, event_column) = match table {
            Table::Markets => ("markets", "event_id"),
            Table::Events => ("events", "id"),
        };
        let mut stored = HashMap::with_capacity(ids.len());
        for chunk in ids.chunks(IDS_PER_STATEMENT) {
            let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(format!(
                "SELECT id, source_updated_at, fingerprint, {event_column} AS event_id FROM {table} WHERE id IN ("
            ));
            let mut separated = builder.separated(", ");
            for id in chunk {
                separated.push_bind(id.clone());
            }
            builder.push(")");
            for row in builder.build().fetch_all(&mut *self.0).await? {
                let version = Version {
                    source_updated_at: row.optional_timestamp("source_updated_at")?,
                    fingerprint: row.try_get("fingerprint")?,
                };
                stored.insert(
                    row.try_get("id")?,
                    Stored {
                        version,
                        event_id: row.try_get("event_id")?,
                    },
                );
            }
        }
        Ok(stored)
    }

    async fn write_markets(&mut self, chunk: &[Stamped<'_, Market>]) -> Result<(), StoreError> {
        let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(INSERT_MARKETS);
        let mut failure = None;
        builder.push_values(chunk, |mut row, stamped| {
            let market = stamped.record;
            let outcomes = serde_json::to_string(&market.outcomes).unwrap_or_else(|error| {
                failure = Some(error.to_string());
                String::new()
            });
            row.push_bind(market.id().to_string())
                .push_bind(market.exchange.as_str())
                .push_bind(market.external_id.clone())
                .push_bind(market.event_id().map(|id| id.to_string()))
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
                .push_bind(market.start_date.map(to_epoch_millis))
                .push_bind(market.end_date.map(to_epoch_millis))
                .push_bind(market.created_at.map(to_epoch_millis))
                .push_bind(to_epoch_millis(stamped.created_at))
                .push_bind(to_epoch_millis(stamped.updated_at))
                .push_bind(market.source_updated_at.map(to_epoch_millis))
                .push_bind(outcomes)
                .push_bind(market.headline_price())
                .push_bind(market.url_keys.market.clone())
                .push_bind(market.url_keys.event.clone())
                .push_bind(market.url_keys.series.clone())
                .push_bind(market.url.clone())
                .push_bind(market.image_url.clone())
                .push_bind(stamped.fingerprint)
                .push_bind(to_epoch_millis(stamped.first_seen_at))
                .push_bind(stamped.changed_revision)
                .push_bind(to_epoch_millis(stamped.observed_at));
        });
        if let Some(error) = failure {
            return Err(StoreError::Internal(format!("outcomes do not serialize: {error}")));
        }
        builder.push(ON_CONFLICT_UPDATE_MARKET);
        builder.build().execute(&mut *self.0).await?;
        Ok(())
    }

    async fn write_events(&mut self, chunk: &[Stamped<'_, Event>]) -> Result<(), StoreError> {
        let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(INSERT_EVENTS);
        builder.push_values(chunk, |mut row, stamped| {
            let event = stamped.record;
            row.push_bind(event.id().to_string())
                .push_bind(event.exchange.as_str())
                .push_bind(event.external_id.clone())
                .push_bind(event.title.clone())
                .push_bind(event.description.clone())
                .push_bind(event.category.as_str())
                .push_bind(event.reported_volume)
                .push_bind(event.image_url.clone())
                .push_bind(event.created_at.map(to_epoch_millis))
                .push_bind(event.source_updated_at.map(to_epoch_millis))
                .push_bind(event.slug.clone())
                .push_bind(event.series_slug.clone())
                .push_bind(stamped.fingerprint)
                .push_bind(to_epoch_millis(stamped.first_seen_at))
                // Recomputed by the aggregate refresh.
                .push_bind(to_epoch_millis(stamped.created_at))
                .push_bind(stamped.changed_revision);
        });
        builder.push(ON_CONFLICT_UPDATE_EVENT);
        builder.build().execute(&mut *self.0).await?;
        Ok(())
    }

    async fn event_markets(&mut self, event_ids: &[String]) -> Result<Vec<EventMarketFigures>, StoreError> {
        let mut builder: QueryBuilder<Sqlite> =
            QueryBuilder::new("SELECT event_id, volume, created_at FROM markets WHERE event_id IN (");
        let mut separated = builder.separated(", ");
        for id in event_ids {
            separated.push_bind(id.clone());
        }
        builder.push(") ORDER BY event_id, id");
        let rows = builder.build().fetch_all(&mut *self.0).await?;
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
        let mut builder: QueryBuilder<Sqlite> =
            QueryBuilder::new("WITH derived (id, market_count, markets_volume, earliest_market) AS (");
        builder.push_values(aggregates, |mut row, aggregate| {
            row.push_bind(aggregate.event_id.clone())
                .push_bind(aggregate.market_count)
                .push_bind(aggregate.markets_volume)
                .push_bind(aggregate.earliest_market.map(to_epoch_millis));
        });
        builder.push(
            ") UPDATE events SET market_count = derived.market_count, \
                total_volume = COALESCE(events.reported_volume, derived.markets_volume), \
                created_at = COALESCE(events.source_created_at, derived.earliest_market, events.first_seen_at) \
             FROM derived WHERE events.id = derived.id",
        );
        builder.build().execute(&mut *self.0).await?;
        Ok(())
    }

    async fn next_revision(&mut self) -> Result<i64, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT revision + 1 FROM catalog_state WHERE id = 1")
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
