//! Writing a batch of markets and events, the same way on every backend: read what the store
//! holds of the incoming records, decide per record by the upsert rule
//! (`marketlens_domain::upsert::decide`), write only what is new or changed, and refresh what
//! the touched events derive from their markets.
//!
//! Built for throughput, since syncs and imports write tens of thousands of records: the
//! backends read stored versions a few hundred ids per query, write each table's records in
//! one bulk upsert (`crate::table_rows::RowWriter`: multi-row statements on SQLite, `COPY`
//! through a temporary table on PostgreSQL), and refresh event aggregates a few hundred
//! events per statement. The SQL is the backend's ([`CatalogWriter`]); the decisions are made
//! here, once.

use marketlens_domain::time::{Timestamp, from_epoch_millis, to_epoch_millis};
use marketlens_domain::upsert::{UpsertDecision, Version, decide};
use marketlens_domain::{Event, Market};
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};

use crate::bulk::BulkLoad;

use crate::catalog::{StoredEvent, StoredMarket};
use crate::fingerprint::fingerprint;
use crate::history::{HistoryWriter, Observation, record_observations};
use crate::table_rows::{CopiedEvent, RowWriter};
use crate::{StoreError, UpsertCounts};

/// What the store holds of a record, and (for markets) the event it belonged to.
pub struct Stored {
    pub version: Version,
    pub event_id: Option<String>,
}

/// Which table [`CatalogWriter::stored_versions`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    Markets,
    Events,
}

/// A backend's statements for [`upsert`], run inside one transaction.
pub trait CatalogWriter {
    /// What the store holds of these ids (those it holds), by id.
    async fn stored_versions(&mut self, table: Table, ids: &[String]) -> Result<HashMap<String, Stored>, StoreError>;

    /// Inserts these markets, or replaces them by [`ON_CONFLICT_UPDATE_MARKET`].
    async fn write_markets(&mut self, markets: &[Stamped<'_, Market>]) -> Result<(), StoreError>;

    /// Inserts these events, or replaces them by [`ON_CONFLICT_UPDATE_EVENT`].
    async fn write_events(&mut self, events: &[Stamped<'_, Event>]) -> Result<(), StoreError>;

    /// The stored markets of these events, ordered by event id and then market id.
    async fn event_markets(&mut self, event_ids: &[String]) -> Result<Vec<EventMarketFigures>, StoreError>;

    /// Writes what events derive from their markets: `market_count = market_count`,
    /// `total_volume = COALESCE(reported_volume, markets_volume)` and
    /// `created_at = COALESCE(source_created_at, earliest_market, first_seen_at)`.
    async fn write_event_aggregates(&mut self, aggregates: &[EventAggregate]) -> Result<(), StoreError>;

    /// The revision this transaction makes the catalogue if it changes it: the stamp of every
    /// record it writes. Serializes catalogue writers where the backend does not already
    /// (PostgreSQL locks the revision's row until the transaction ends).
    async fn next_revision(&mut self) -> Result<i64, StoreError>;

    /// Raises the catalogue's revision: this transaction changed it.
    async fn bump_revision(&mut self) -> Result<(), StoreError>;
}

/// A record as written, with what the store keeps beside it.
pub struct Stamped<'a, T> {
    pub record: &'a T,
    pub fingerprint: i64,
    /// The exchange's creation time, else when the store first saw the record. An update keeps
    /// the stored one unless the exchange now gives its own.
    pub created_at: Timestamp,
    /// When the record last changed (markets only).
    pub updated_at: Timestamp,
    /// When these figures were observed: the write's own time (markets only).
    pub observed_at: Timestamp,
    pub first_seen_at: Timestamp,
    /// The catalogue revision of this write ([`CatalogWriter::next_revision`]).
    pub changed_revision: i64,
}

/// One stored market's part in its event's figures.
pub struct EventMarketFigures {
    pub event_id: String,
    pub volume: f64,
    pub created_at: Timestamp,
}

/// What an event derives from its stored markets.
#[derive(Debug, Clone, PartialEq)]
pub struct EventAggregate {
    pub event_id: String,
    pub market_count: i64,
    pub markets_volume: f64,
    pub earliest_market: Option<Timestamp>,
}

/// Sums each event's markets here rather than in SQL, in market id order, so that every
/// backend adds the same floating-point numbers in the same order and reports the same total.
fn aggregate(event_ids: &[String], figures: &[EventMarketFigures]) -> Vec<EventAggregate> {
    let mut aggregates: HashMap<&str, EventAggregate> = event_ids
        .iter()
        .map(|event_id| {
            let empty = EventAggregate {
                event_id: event_id.clone(),
                market_count: 0,
                markets_volume: 0.0,
                earliest_market: None,
            };
            (event_id.as_str(), empty)
        })
        .collect();
    for market in figures {
        if let Some(aggregate) = aggregates.get_mut(market.event_id.as_str()) {
            aggregate.market_count += 1;
            aggregate.markets_volume += market.volume;
            aggregate.earliest_market = Some(
                aggregate
                    .earliest_market
                    .map_or(market.created_at, |earliest| earliest.min(market.created_at)),
            );
        }
    }
    event_ids
        .iter()
        .map(|event_id| aggregates[event_id.as_str()].clone())
        .collect()
}

/// What an insert of a stored market replaces (every backend speaks this SQL).
pub const ON_CONFLICT_UPDATE_MARKET: &str = " ON CONFLICT (id) DO UPDATE SET event_id = excluded.event_id, event_external_id = excluded.event_external_id, \
                question = excluded.question, search_text = excluded.search_text, description = excluded.description, \
                status = excluded.status, category = excluded.category, liquidity = excluded.liquidity, \
                volume = excluded.volume, volume_24h = excluded.volume_24h, start_date = excluded.start_date, \
                end_date = excluded.end_date, source_created_at = excluded.source_created_at, \
                created_at = COALESCE(excluded.source_created_at, markets.created_at), updated_at = excluded.updated_at, \
                source_updated_at = excluded.source_updated_at, outcomes = excluded.outcomes, \
                headline_price = excluded.headline_price, url_market = excluded.url_market, \
                url_event = excluded.url_event, url_series = excluded.url_series, url = excluded.url, \
                image_url = excluded.image_url, fingerprint = excluded.fingerprint, \
                changed_revision = excluded.changed_revision, observed_at = excluded.observed_at, \
                rules_primary = excluded.rules_primary, rules_secondary = excluded.rules_secondary, \
                rules_source = excluded.rules_source, resolution_outcome = excluded.resolution_outcome, \
                resolved_at = excluded.resolved_at";

/// What an insert of an event replaces.
pub const ON_CONFLICT_UPDATE_EVENT: &str = " ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description, \
                category = excluded.category, reported_volume = excluded.reported_volume, image_url = excluded.image_url, \
                source_created_at = excluded.source_created_at, source_updated_at = excluded.source_updated_at, \
                slug = excluded.slug, series_slug = excluded.series_slug, fingerprint = excluded.fingerprint, \
                changed_revision = excluded.changed_revision";

/// Ids per statement when reading versions or refreshing aggregates.
pub const IDS_PER_STATEMENT: usize = 500;

/// The records to write, each once (a later copy of the same id in the batch replaces an
/// earlier one it beats), with their fingerprints; and the counts by decision.
struct Plan<'a, T> {
    writes: Vec<(&'a T, i64)>,
    inserted: u64,
    updated: u64,
    unchanged: u64,
    stale: u64,
}

fn plan<'a, T: serde::Serialize>(
    records: &'a [T],
    ids: &[String],
    source_updated_at: impl Fn(&T) -> Option<Timestamp>,
    stored: &mut HashMap<String, Stored>,
) -> Plan<'a, T> {
    let mut plan = Plan {
        writes: Vec::new(),
        inserted: 0,
        updated: 0,
        unchanged: 0,
        stale: 0,
    };
    let mut position: HashMap<&str, usize> = HashMap::new();
    for (record, id) in records.iter().zip(ids) {
        let incoming = Version {
            source_updated_at: source_updated_at(record),
            fingerprint: fingerprint(record),
        };
        match decide(stored.get(id).map(|stored| stored.version), incoming) {
            UpsertDecision::Insert => plan.inserted += 1,
            UpsertDecision::Update => plan.updated += 1,
            UpsertDecision::Unchanged => {
                plan.unchanged += 1;
                continue;
            }
            UpsertDecision::Stale => {
                plan.stale += 1;
                continue;
            }
        }
        let previous_event = stored.get(id).and_then(|stored| stored.event_id.clone());
        stored.insert(
            id.clone(),
            Stored {
                version: incoming,
                event_id: previous_event,
            },
        );
        match position.get(id.as_str()) {
            Some(&index) => plan.writes[index] = (record, incoming.fingerprint),
            None => {
                position.insert(id, plan.writes.len());
                plan.writes.push((record, incoming.fingerprint));
            }
        }
    }
    plan
}

/// Of `ids`, those whose stored versions are read: all of them, or during a bulk load
/// those the store may hold ([`BulkLoad::may_hold`]).
fn ids_to_read<'a>(load: Option<&BulkLoad>, ids: &'a [String]) -> Cow<'a, [String]> {
    match load {
        Some(load) => Cow::Owned(load.may_hold(ids)),
        None => Cow::Borrowed(ids),
    }
}

/// Writes the batch (see the module's doc); every market written is also an observation of
/// its prices at `now` for the price history. `load` is the bulk load this write belongs
/// to, if any (see `crate::bulk`): it only spares reads that would find nothing.
pub async fn upsert(
    writer: &mut (impl CatalogWriter + HistoryWriter),
    markets: &[Market],
    events: &[Event],
    now: Timestamp,
    mut load: Option<&mut BulkLoad>,
) -> Result<UpsertCounts, StoreError> {
    // Every backend keeps milliseconds (PostgreSQL would keep microseconds of a clock's time).
    let now = from_epoch_millis(to_epoch_millis(now));
    let mut counts = UpsertCounts::default();
    let mut touched_events: BTreeSet<String> = BTreeSet::new();
    let changed_revision = writer.next_revision().await?;
    if let Some(load) = load.as_deref_mut() {
        load.check_revision(changed_revision);
    }

    let event_ids: Vec<String> = events.iter().map(|event| event.id().to_string()).collect();
    let mut stored_events = writer
        .stored_versions(Table::Events, &ids_to_read(load.as_deref(), &event_ids))
        .await?;
    let event_plan = plan(events, &event_ids, |event| event.source_updated_at, &mut stored_events);
    (counts.events_inserted, counts.events_updated) = (event_plan.inserted, event_plan.updated);
    (counts.events_unchanged, counts.events_stale) = (event_plan.unchanged, event_plan.stale);
    let rows: Vec<Stamped<Event>> = event_plan
        .writes
        .iter()
        .map(|&(event, fingerprint)| Stamped {
            record: event,
            fingerprint,
            created_at: event.created_at.unwrap_or(now),
            updated_at: event.source_updated_at.unwrap_or(now),
            observed_at: now,
            first_seen_at: now,
            changed_revision,
        })
        .collect();
    writer.write_events(&rows).await?;
    touched_events.extend(rows.iter().map(|row| row.record.id().to_string()));

    let market_ids: Vec<String> = markets.iter().map(|market| market.id().to_string()).collect();
    let mut stored_markets = writer
        .stored_versions(Table::Markets, &ids_to_read(load.as_deref(), &market_ids))
        .await?;
    let held_before: HashSet<String> = stored_markets.keys().cloned().collect();
    // A market that moves to another event changes both events' aggregates.
    let previous_events: HashMap<String, String> = stored_markets
        .iter()
        .filter_map(|(id, stored)| stored.event_id.clone().map(|event_id| (id.clone(), event_id)))
        .collect();
    let market_plan = plan(
        markets,
        &market_ids,
        |market| market.source_updated_at,
        &mut stored_markets,
    );
    (counts.markets_inserted, counts.markets_updated) = (market_plan.inserted, market_plan.updated);
    (counts.markets_unchanged, counts.markets_stale) = (market_plan.unchanged, market_plan.stale);
    let rows: Vec<Stamped<Market>> = market_plan
        .writes
        .iter()
        .map(|&(market, fingerprint)| Stamped {
            record: market,
            fingerprint,
            created_at: market.created_at.unwrap_or(now),
            updated_at: market.source_updated_at.unwrap_or(now),
            observed_at: now,
            first_seen_at: now,
            changed_revision,
        })
        .collect();
    writer.write_markets(&rows).await?;
    for (market, _) in &market_plan.writes {
        touched_events.extend(previous_events.get(&market.id().to_string()).cloned());
        touched_events.extend(market.event_id().map(|id| id.to_string()));
    }

    let written: Vec<Observation> = market_plan
        .writes
        .iter()
        .map(|(market, _)| Observation {
            market,
            at: now,
            existed: held_before.contains(&market.id().to_string()),
        })
        .collect();
    record_observations(writer, &written, load.is_some()).await?;

    let changed = !touched_events.is_empty() || counts.markets_inserted + counts.markets_updated > 0;
    refresh_aggregates(writer, touched_events).await?;
    if changed {
        writer.bump_revision().await?;
    }
    if let Some(load) = load {
        load.wrote(event_plan.writes.iter().map(|(event, _)| event.id()));
        load.wrote(market_plan.writes.iter().map(|(market, _)| market.id()));
        load.left_revision(if changed {
            changed_revision
        } else {
            changed_revision - 1
        });
    }
    Ok(counts)
}

async fn refresh_aggregates(writer: &mut impl CatalogWriter, events: BTreeSet<String>) -> Result<(), StoreError> {
    let events: Vec<String> = events.into_iter().collect();
    for chunk in events.chunks(IDS_PER_STATEMENT) {
        let figures = writer.event_markets(chunk).await?;
        writer.write_event_aggregates(&aggregate(chunk, &figures)).await?;
    }
    Ok(())
}

/// Writes records copied from another store as they were there (their times, and what events
/// derived from their markets there, included), into a store that holds none of them.
pub(crate) async fn restore(
    writer: &mut (impl CatalogWriter + RowWriter),
    markets: &[StoredMarket],
    events: &[StoredEvent],
) -> Result<(), StoreError> {
    let changed_revision = writer.next_revision().await?;
    let events: Vec<CopiedEvent> = events
        .iter()
        .map(|stored| CopiedEvent {
            stamped: Stamped {
                record: &stored.event,
                fingerprint: fingerprint(&stored.event),
                created_at: stored.created_at,
                updated_at: stored.created_at,
                observed_at: stored.created_at,
                first_seen_at: stored.created_at,
                changed_revision,
            },
            stored,
        })
        .collect();
    writer.insert_rows("events", &events).await?;
    let markets: Vec<Stamped<Market>> = markets
        .iter()
        .map(|stored| Stamped {
            record: &stored.market,
            fingerprint: fingerprint(&stored.market),
            created_at: stored.created_at,
            updated_at: stored.updated_at,
            observed_at: stored.observed_at,
            first_seen_at: stored.created_at,
            changed_revision,
        })
        .collect();
    writer.insert_rows("markets", &markets).await
}

/// The upsert's ids (text) as the [`Uuid`]s the backends bind.
pub(crate) fn uuids(ids: &[String]) -> Result<Vec<uuid::Uuid>, StoreError> {
    ids.iter()
        .map(|id| id.parse().map_err(|error| crate::records::corrupt("id", error)))
        .collect()
}

/// [`CatalogWriter`] for a [`Backend`](crate::backend::Backend) store's `Statements`. Every
/// write covers many rows: on SQLite each statement is a round trip to sqlx's worker thread,
/// and per-row statements spent a quarter of an import's time in thread hand-offs.
macro_rules! catalog_writer_sql {
    ($store:ty) => {
        impl $crate::upsert::CatalogWriter for Statements<'_> {
            async fn stored_versions(
                &mut self,
                table: $crate::upsert::Table,
                ids: &[String],
            ) -> Result<std::collections::HashMap<String, $crate::upsert::Stored>, $crate::StoreError> {
                use $crate::records::RecordRow;
                let (table, event_column) = match table {
                    $crate::upsert::Table::Markets => ("markets", "event_id"),
                    $crate::upsert::Table::Events => ("events", "id"),
                };
                let mut stored = std::collections::HashMap::with_capacity(ids.len());
                for chunk in ids.chunks($crate::upsert::IDS_PER_STATEMENT) {
                    let mut builder: sqlx::QueryBuilder<<$store as $crate::backend::Backend>::Db> =
                        sqlx::QueryBuilder::new(format!(
                            "SELECT CAST(id AS TEXT) AS id, source_updated_at, fingerprint, \
                                CAST({event_column} AS TEXT) AS event_id FROM {table} WHERE id"
                        ));
                    <$store as $crate::backend::Backend>::push_ids(&mut builder, &$crate::upsert::uuids(chunk)?);
                    for row in builder.build().fetch_all(&mut *self.0).await? {
                        let version = marketlens_domain::upsert::Version {
                            source_updated_at: row.optional_timestamp("source_updated_at")?,
                            fingerprint: row.integer("fingerprint")?,
                        };
                        let event_id = row.optional_text("event_id")?;
                        stored.insert(row.text("id")?, $crate::upsert::Stored { version, event_id });
                    }
                }
                Ok(stored)
            }

            async fn write_markets(
                &mut self,
                markets: &[$crate::upsert::Stamped<'_, marketlens_domain::Market>],
            ) -> Result<(), $crate::StoreError> {
                use $crate::table_rows::RowWriter;
                self.upsert_rows("markets", markets, $crate::upsert::ON_CONFLICT_UPDATE_MARKET)
                    .await
            }

            async fn write_events(
                &mut self,
                events: &[$crate::upsert::Stamped<'_, marketlens_domain::Event>],
            ) -> Result<(), $crate::StoreError> {
                use $crate::table_rows::RowWriter;
                self.upsert_rows("events", events, $crate::upsert::ON_CONFLICT_UPDATE_EVENT)
                    .await
            }

            async fn event_markets(
                &mut self,
                event_ids: &[String],
            ) -> Result<Vec<$crate::upsert::EventMarketFigures>, $crate::StoreError> {
                use $crate::records::RecordRow;
                let mut builder: sqlx::QueryBuilder<<$store as $crate::backend::Backend>::Db> =
                    sqlx::QueryBuilder::new(
                        "SELECT CAST(event_id AS TEXT) AS event_id, volume, created_at FROM markets WHERE event_id",
                    );
                <$store as $crate::backend::Backend>::push_ids(&mut builder, &$crate::upsert::uuids(event_ids)?);
                builder.push(" ORDER BY event_id, id");
                let rows = builder.build().fetch_all(&mut *self.0).await?;
                rows.iter()
                    .map(|row| {
                        Ok($crate::upsert::EventMarketFigures {
                            event_id: row.text("event_id")?,
                            volume: row.real("volume")?,
                            created_at: row.timestamp("created_at")?,
                        })
                    })
                    .collect()
            }

            async fn write_event_aggregates(
                &mut self,
                aggregates: &[$crate::upsert::EventAggregate],
            ) -> Result<(), $crate::StoreError> {
                use $crate::backend::Backend;
                let ids = $crate::upsert::uuids(
                    &aggregates
                        .iter()
                        .map(|aggregate| aggregate.event_id.clone())
                        .collect::<Vec<_>>(),
                )?;
                let mut builder: sqlx::QueryBuilder<<$store as Backend>::Db> =
                    sqlx::QueryBuilder::new("WITH derived (id, market_count, markets_volume, earliest_market) AS (");
                builder.push_values(aggregates.iter().zip(ids), |mut row, (aggregate, id)| {
                    row.push_bind(<$store>::id(id))
                        .push_bind(aggregate.market_count)
                        .push_bind(aggregate.markets_volume)
                        .push_bind(aggregate.earliest_market.map(<$store>::time));
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

            async fn next_revision(&mut self) -> Result<i64, $crate::StoreError> {
                Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                    "SELECT revision + 1 FROM catalog_state WHERE id = 1{}",
                    <$store as $crate::backend::Backend>::FOR_UPDATE
                )))
                .fetch_one(&mut *self.0)
                .await?)
            }

            async fn bump_revision(&mut self) -> Result<(), $crate::StoreError> {
                sqlx::query("UPDATE catalog_state SET revision = revision + 1 WHERE id = 1")
                    .execute(&mut *self.0)
                    .await?;
                Ok(())
            }
        }
    };
}
pub(crate) use catalog_writer_sql;
