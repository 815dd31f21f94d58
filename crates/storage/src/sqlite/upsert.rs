//! Writing a batch of markets and events: decide per record by the upsert rule, then write only
//! what is new or changed, and refresh what the touched events derive from their markets.
//!
//! Built for throughput, since syncs and imports write tens of thousands of records: stored
//! versions are read with one query per few hundred ids, records are written with multi-row
//! upserts, and event aggregates are refreshed a few hundred events per statement. (Each
//! statement is a round trip to sqlx's SQLite worker thread; per-row statements spent a
//! quarter of an import's time in thread hand-offs.)

use marketlens_domain::time::{Timestamp, to_epoch_millis};
use marketlens_domain::upsert::{UpsertDecision, Version, decide};
use marketlens_domain::{Event, Market};
use sqlx::sqlite::Sqlite;
use sqlx::{QueryBuilder, Row, SqliteConnection};
use std::collections::{BTreeSet, HashMap};

use super::rows;
use crate::fingerprint::fingerprint;
use crate::{StoreError, UpsertCounts};

/// Ids per `IN (...)` list: well under SQLite's 32,766 bound parameters.
const IDS_PER_STATEMENT: usize = 500;
/// Rows per multi-row upsert: markets bind 28 values each, events 14.
const MARKETS_PER_STATEMENT: usize = 200;
const EVENTS_PER_STATEMENT: usize = 400;

/// What the store holds of a record, and (for markets) the event it belonged to.
struct Stored {
    version: Version,
    event_id: Option<String>,
}

async fn stored_versions(
    connection: &mut SqliteConnection,
    table: &'static str,
    event_column: &'static str,
    ids: &[String],
) -> Result<HashMap<String, Stored>, StoreError> {
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
        for row in builder.build().fetch_all(&mut *connection).await? {
            let version = Version {
                source_updated_at: rows::optional_timestamp(&row, "source_updated_at")?,
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

pub(super) async fn upsert(
    connection: &mut SqliteConnection,
    markets: &[Market],
    events: &[Event],
    now: Timestamp,
) -> Result<UpsertCounts, StoreError> {
    let mut counts = UpsertCounts::default();
    let mut touched_events: BTreeSet<String> = BTreeSet::new();

    let event_ids: Vec<String> = events.iter().map(|event| event.id().to_string()).collect();
    let mut stored_events = stored_versions(connection, "events", "id", &event_ids).await?;
    let event_plan = plan(events, &event_ids, |event| event.source_updated_at, &mut stored_events);
    (counts.events_inserted, counts.events_updated) = (event_plan.inserted, event_plan.updated);
    (counts.events_unchanged, counts.events_stale) = (event_plan.unchanged, event_plan.stale);
    for chunk in event_plan.writes.chunks(EVENTS_PER_STATEMENT) {
        write_events(connection, chunk, now).await?;
        touched_events.extend(chunk.iter().map(|(event, _)| event.id().to_string()));
    }

    let market_ids: Vec<String> = markets.iter().map(|market| market.id().to_string()).collect();
    let mut stored_markets = stored_versions(connection, "markets", "event_id", &market_ids).await?;
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
    for chunk in market_plan.writes.chunks(MARKETS_PER_STATEMENT) {
        write_markets(connection, chunk, now).await?;
        for (market, _) in chunk {
            touched_events.extend(previous_events.get(&market.id().to_string()).cloned());
            touched_events.extend(market.event_id().map(|id| id.to_string()));
        }
    }

    let touched: Vec<String> = touched_events.into_iter().collect();
    for chunk in touched.chunks(IDS_PER_STATEMENT) {
        refresh_event_aggregates(connection, chunk).await?;
    }
    Ok(counts)
}

async fn write_markets(
    connection: &mut SqliteConnection,
    chunk: &[(&Market, i64)],
    now: Timestamp,
) -> Result<(), StoreError> {
    let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(
        "INSERT INTO markets (id, exchange, external_id, event_id, event_external_id, question, search_text, \
            description, status, category, liquidity, volume, volume_24h, start_date, end_date, source_created_at, \
            created_at, updated_at, source_updated_at, outcomes, headline_price, url_market, url_event, url_series, \
            url, image_url, fingerprint, first_seen_at) ",
    );
    let mut failure = None;
    builder.push_values(chunk, |mut row, (market, fingerprint)| {
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
            // Without the exchange's times: first seen now (kept on later updates), changed now.
            .push_bind(to_epoch_millis(market.created_at.unwrap_or(now)))
            .push_bind(to_epoch_millis(market.source_updated_at.unwrap_or(now)))
            .push_bind(market.source_updated_at.map(to_epoch_millis))
            .push_bind(outcomes)
            .push_bind(market.headline_price())
            .push_bind(market.url_keys.market.clone())
            .push_bind(market.url_keys.event.clone())
            .push_bind(market.url_keys.series.clone())
            .push_bind(market.url.clone())
            .push_bind(market.image_url.clone())
            .push_bind(*fingerprint)
            .push_bind(to_epoch_millis(now));
    });
    if let Some(error) = failure {
        return Err(StoreError::Internal(format!("outcomes do not serialize: {error}")));
    }
    builder.push(
        " ON CONFLICT (id) DO UPDATE SET event_id = excluded.event_id, event_external_id = excluded.event_external_id, \
            question = excluded.question, search_text = excluded.search_text, description = excluded.description, \
            status = excluded.status, category = excluded.category, liquidity = excluded.liquidity, \
            volume = excluded.volume, volume_24h = excluded.volume_24h, start_date = excluded.start_date, \
            end_date = excluded.end_date, source_created_at = excluded.source_created_at, \
            created_at = COALESCE(excluded.source_created_at, markets.created_at), updated_at = excluded.updated_at, \
            source_updated_at = excluded.source_updated_at, outcomes = excluded.outcomes, \
            headline_price = excluded.headline_price, url_market = excluded.url_market, \
            url_event = excluded.url_event, url_series = excluded.url_series, url = excluded.url, \
            image_url = excluded.image_url, fingerprint = excluded.fingerprint",
    );
    builder.build().execute(&mut *connection).await?;
    Ok(())
}

async fn write_events(
    connection: &mut SqliteConnection,
    chunk: &[(&Event, i64)],
    now: Timestamp,
) -> Result<(), StoreError> {
    let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(
        "INSERT INTO events (id, exchange, external_id, title, description, category, reported_volume, image_url, \
            source_created_at, source_updated_at, slug, series_slug, fingerprint, first_seen_at, created_at) ",
    );
    builder.push_values(chunk, |mut row, (event, fingerprint)| {
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
            .push_bind(*fingerprint)
            .push_bind(to_epoch_millis(now))
            // Recomputed by the aggregate refresh; the exchange's time, or now, until then.
            .push_bind(to_epoch_millis(event.created_at.unwrap_or(now)));
    });
    builder.push(
        " ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description, \
            category = excluded.category, reported_volume = excluded.reported_volume, image_url = excluded.image_url, \
            source_created_at = excluded.source_created_at, source_updated_at = excluded.source_updated_at, \
            slug = excluded.slug, series_slug = excluded.series_slug, fingerprint = excluded.fingerprint",
    );
    builder.build().execute(&mut *connection).await?;
    Ok(())
}

/// Recomputes what these events derive from their stored markets.
async fn refresh_event_aggregates(connection: &mut SqliteConnection, event_ids: &[String]) -> Result<(), StoreError> {
    let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(
        "UPDATE events SET \
            market_count = (SELECT COUNT(*) FROM markets WHERE event_id = events.id), \
            total_volume = COALESCE(reported_volume, (SELECT TOTAL(volume) FROM markets WHERE event_id = events.id)), \
            created_at = COALESCE(source_created_at, \
                (SELECT MIN(created_at) FROM markets WHERE event_id = events.id), first_seen_at) \
         WHERE id IN (",
    );
    let mut separated = builder.separated(", ");
    for id in event_ids {
        separated.push_bind(id.clone());
    }
    builder.push(")");
    builder.build().execute(&mut *connection).await?;
    Ok(())
}
