//! The catalogue half of the storage interface: markets, events and matches.

use async_trait::async_trait;
use marketlens_domain::market_url::MarketUrl;
use marketlens_domain::matching::{MatchInput, MatchPair};
use marketlens_domain::time::Timestamp;
use marketlens_domain::{Category, Event, Exchange, Market, MarketStatus, Outcome};
use uuid::Uuid;

use crate::StoreError;

/// The keys `sortBy` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarketSort {
    Volume,
    Volume24h,
    Liquidity,
    CreatedAt,
}

impl MarketSort {
    pub const ALL: [MarketSort; 4] = [
        MarketSort::Volume,
        MarketSort::Volume24h,
        MarketSort::Liquidity,
        MarketSort::CreatedAt,
    ];

    /// The name in the API.
    pub fn as_str(self) -> &'static str {
        match self {
            MarketSort::Volume => "volume",
            MarketSort::Volume24h => "volume24h",
            MarketSort::Liquidity => "liquidity",
            MarketSort::CreatedAt => "createdAt",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    Asc,
    Desc,
}

impl SortOrder {
    pub fn as_sql(self) -> &'static str {
        match self {
            SortOrder::Asc => "ASC",
            SortOrder::Desc => "DESC",
        }
    }
}

/// A search text as the stores take it (`docs/contract/decisions.md#d6-search`): its words,
/// already folded by `marketlens_domain::text::words` (lower-case ASCII letters and digits
/// only, so they are safe to place in any index's query syntax), and, when the text is one
/// token that could be an exchange's name for a market, that token in lower case
/// (`decisions.md#d6-search-identifiers`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchWords {
    words: Vec<String>,
    identifier: Option<Box<str>>,
}

impl SearchWords {
    /// The words of `text`, and its identifier; `None` when it has no words.
    pub fn parse(text: &str) -> Option<SearchWords> {
        let words: Vec<String> = marketlens_domain::text::words(text).collect();
        let token = text.trim();
        // Exchange ids, tickers and slugs are printable ASCII without spaces; anything else
        // cannot name a market, and keeping to ASCII makes `lower()` the same on both stores.
        let identifier = token
            .bytes()
            .all(|byte| byte.is_ascii_graphic())
            .then(|| token.to_ascii_lowercase().into_boxed_str());
        (!words.is_empty()).then_some(SearchWords { words, identifier })
    }

    /// The text in lower case when it is one token of printable ASCII: a market whose exchange
    /// id equals it (ignoring case) or whose URL slug (`url_market`) equals it is found too.
    pub fn identifier(&self) -> Option<&str> {
        self.identifier.as_deref()
    }

    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// The words, each written as `each` makes it, joined by `operator`: a backend's query.
    pub(crate) fn joined(&self, each: impl Fn(&str) -> String, operator: &str) -> String {
        self.words
            .iter()
            .map(|word| each(word))
            .collect::<Vec<_>>()
            .join(operator)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarketFilter {
    pub exchange: Option<Exchange>,
    pub status: Option<MarketStatus>,
    pub category: Option<Category>,
    /// Every word must start a word of the question (`docs/contract/decisions.md#d6-search`),
    /// or the text must be the market's exchange id or URL slug (`#d6-search-identifiers`).
    pub search: Option<SearchWords>,
    /// The exchange's own market id, matched exactly (a Polymarket id or a Kalshi ticker).
    pub external_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketQuery {
    pub filter: MarketFilter,
    pub sort: MarketSort,
    /// Applies to the sort key and to the id tie-break alike.
    pub order: SortOrder,
    pub limit: u32,
    pub offset: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventQuery {
    pub exchange: Option<Exchange>,
    pub category: Option<Category>,
    pub limit: u32,
    pub offset: u64,
}

/// One page of a list and the count of everything that matched.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: u64,
}

/// A market as stored: the normalized record and what the store derived for it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMarket {
    pub id: Uuid,
    pub market: Market,
    /// The exchange's creation time, or when the store first saw the market.
    pub created_at: Timestamp,
    /// The exchange's last change, or when the store last changed the record.
    pub updated_at: Timestamp,
    /// When the figures stored were observed: the time of the sync or import that last
    /// changed them (a sync that finds a market unchanged does not write it; see
    /// `SyncStatus` for when each exchange was last confirmed whole).
    pub observed_at: Timestamp,
}

/// A market as lists show it, and as explain ranks candidates: a stored market without what
/// only a single market's page shows (description, start date, URLs, update time). What the
/// in-memory catalogue keeps of every market, so it is kept small.
#[derive(Debug, Clone, PartialEq)]
pub struct MarketSummary {
    pub id: Uuid,
    pub exchange: Exchange,
    pub external_id: Box<str>,
    pub question: Box<str>,
    pub status: MarketStatus,
    pub category: Category,
    pub liquidity: f64,
    pub volume: f64,
    pub volume_24h: f64,
    pub created_at: Timestamp,
    pub end_date: Option<Timestamp>,
    pub outcomes: Box<[Outcome]>,
    pub event_id: Option<Uuid>,
    /// See [`StoredMarket::observed_at`].
    pub observed_at: Timestamp,
    /// How the market's public URL names it: a Polymarket market slug or a Kalshi ticker, lower
    /// case ([`UrlKeys::market`](marketlens_domain::market::UrlKeys)); search finds it by it.
    pub url_market: Option<Box<str>>,
}

impl From<&StoredMarket> for MarketSummary {
    fn from(stored: &StoredMarket) -> Self {
        let market = &stored.market;
        MarketSummary {
            id: stored.id,
            exchange: market.exchange,
            external_id: market.external_id.as_str().into(),
            question: market.question.as_str().into(),
            status: market.status,
            category: market.category,
            liquidity: market.liquidity,
            volume: market.volume,
            volume_24h: market.volume_24h,
            created_at: stored.created_at,
            end_date: market.end_date,
            outcomes: market.outcomes.clone().into_boxed_slice(),
            event_id: market.event_id(),
            observed_at: stored.observed_at,
            url_market: market.url_keys.market.as_deref().map(Box::from),
        }
    }
}

impl MarketSummary {
    /// The price of the first outcome ("Yes" for binary markets), 0 when there is none.
    pub fn headline_price(&self) -> f64 {
        self.outcomes.first().map_or(0.0, |outcome| outcome.price)
    }
}

/// What the in-memory catalogue keeps of an event: enough to order, filter and count the
/// events list; a page's events are then read in full from the store.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EventSummary {
    pub id: Uuid,
    pub exchange: Exchange,
    pub category: Category,
    pub total_volume: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    pub id: Uuid,
    pub event: Event,
    /// Markets of the event in the store.
    pub market_count: u64,
    /// The exchange's reported event volume, else the sum of the stored markets' volumes.
    pub total_volume: f64,
    pub created_at: Timestamp,
}

/// A market as listed inside its event.
#[derive(Debug, Clone, PartialEq)]
pub struct EventMarket {
    pub id: Uuid,
    pub question: String,
    /// The first outcome's price ("Yes" for binary markets).
    pub price: f64,
    pub volume_24h: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MatchedMarket {
    pub id: Uuid,
    pub exchange: Exchange,
    pub question: String,
    pub similarity: f64,
}

/// What an upsert did, per record kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UpsertCounts {
    pub markets_inserted: u64,
    pub markets_updated: u64,
    pub markets_unchanged: u64,
    /// Older than the stored record, so left out.
    pub markets_stale: u64,
    pub events_inserted: u64,
    pub events_updated: u64,
    pub events_unchanged: u64,
    pub events_stale: u64,
}

impl UpsertCounts {
    pub fn add(&mut self, other: UpsertCounts) {
        self.markets_inserted += other.markets_inserted;
        self.markets_updated += other.markets_updated;
        self.markets_unchanged += other.markets_unchanged;
        self.markets_stale += other.markets_stale;
        self.events_inserted += other.events_inserted;
        self.events_updated += other.events_updated;
        self.events_unchanged += other.events_unchanged;
        self.events_stale += other.events_stale;
    }
}

/// What the catalogue holds, for summaries and readiness.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CatalogCounts {
    pub polymarket_markets: u64,
    pub kalshi_markets: u64,
    pub events: u64,
    /// Matched pairs (each counted once, not per direction).
    pub match_pairs: u64,
}

#[async_trait]
pub trait CatalogStore: Send + Sync {
    /// Inserts new records and updates changed ones, in one transaction, by the rule of
    /// `marketlens_domain::upsert::decide`. `now` stamps first sightings and changes.
    async fn upsert(&self, markets: &[Market], events: &[Event], now: Timestamp) -> Result<UpsertCounts, StoreError>;

    /// Starts a bulk load (see `crate::bulk`) if the catalogue is empty; returns whether it
    /// did. Until [`CatalogStore::finish_bulk_load`], this store's upserts belong to it.
    async fn begin_bulk_load(&self) -> Result<bool, StoreError>;

    /// Ends the bulk load: builds what it deferred (one transaction).
    async fn finish_bulk_load(&self) -> Result<(), StoreError>;

    async fn list_markets(&self, query: &MarketQuery) -> Result<Page<StoredMarket>, StoreError>;

    async fn get_market(&self, id: Uuid) -> Result<Option<StoredMarket>, StoreError>;

    /// The market's matches, best first, at most `marketlens_domain::matching::MAX_MATCHES_PER_MARKET`.
    async fn matched_markets(&self, id: Uuid) -> Result<Vec<MatchedMarket>, StoreError>;

    async fn list_events(&self, query: &EventQuery) -> Result<Page<StoredEvent>, StoreError>;

    async fn get_event(&self, id: Uuid) -> Result<Option<StoredEvent>, StoreError>;

    /// The events with these ids that exist, in the order of `ids`.
    async fn events_by_ids(&self, ids: &[Uuid]) -> Result<Vec<StoredEvent>, StoreError>;

    /// Up to `limit` market summaries whose ids come after `after` (from the first when
    /// `None`), by id: how the in-memory catalogue loads.
    async fn market_summaries(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<MarketSummary>, StoreError>;

    /// Up to `limit` event summaries whose ids come after `after`, by id.
    async fn event_summaries(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<EventSummary>, StoreError>;

    /// The event's markets, highest price first, ties by id.
    async fn event_markets(&self, event_id: Uuid) -> Result<Vec<EventMarket>, StoreError>;

    /// The markets named by the first of the URL's keys that names any.
    async fn markets_by_url(&self, url: &MarketUrl) -> Result<Vec<StoredMarket>, StoreError>;

    /// Up to `limit` markets whose question holds any of `words` (as word prefixes), most
    /// relevant first by the index's own ranking. Explain ranks these further.
    async fn search_any_words(&self, words: &SearchWords, limit: u32) -> Result<Vec<StoredMarket>, StoreError>;

    /// What the matcher needs of every market.
    async fn match_inputs(&self) -> Result<Vec<MatchInput>, StoreError>;

    /// What the matcher needs of the markets written since catalogue revision `revision`
    /// (themselves, or their event), by id: read [`CatalogStore::catalog_revision`] first, and
    /// pass it next time.
    async fn match_inputs_changed_since(&self, revision: i64) -> Result<Vec<MatchInput>, StoreError>;

    /// Replaces every stored match with `pairs` (both directions of each pair).
    async fn replace_matches(&self, pairs: &[MatchPair]) -> Result<(), StoreError>;

    /// Replaces the stored matches of `markets` (the rows from each of them) with `pairs`:
    /// what an incremental match (`MatchIndex::upsert`) changed.
    async fn update_matches(&self, markets: &[Uuid], pairs: &[MatchPair]) -> Result<(), StoreError>;

    async fn catalog_counts(&self) -> Result<CatalogCounts, StoreError>;

    /// A number every write to the catalogue raises (in the write's own transaction): equal
    /// revisions mean an unchanged catalogue.
    async fn catalog_revision(&self) -> Result<i64, StoreError>;

    /// The exchange ids of `exchange`'s markets stored as open: after a sync of what is open,
    /// those it did not see may have closed.
    async fn open_market_ids(&self, exchange: Exchange) -> Result<Vec<String>, StoreError>;
}

/// Market ids per delete of their matches.
pub(crate) const MATCH_ROWS_PER_STATEMENT: usize = 2_000;

pub(crate) fn sort_column(sort: MarketSort) -> &'static str {
    match sort {
        MarketSort::Volume => "volume",
        MarketSort::Volume24h => "volume_24h",
        MarketSort::Liquidity => "liquidity",
        MarketSort::CreatedAt => "created_at",
    }
}

/// [`CatalogStore`] for a [`Backend`](crate::backend::Backend) store: the same filters, the
/// same order with the same id tie-break (UUIDs compare as their text does), and search over
/// the same folded words on both backends.
macro_rules! catalog_store_sql {
    ($store:ty) => {
        impl $store {
            fn push_market_filter(
                builder: &mut sqlx::QueryBuilder<<$store as $crate::backend::Backend>::Db>,
                filter: &$crate::MarketFilter,
            ) {
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
                    builder
                        .push(" AND m.external_id = ")
                        .push_bind(external_id.clone());
                }
                if let Some(search) = &filter.search {
                    builder.push(" AND (");
                    Self::push_all_words(builder, search);
                    if let Some(identifier) = search.identifier() {
                        builder
                            .push(" OR m.url_market = ")
                            .push_bind(identifier.to_owned())
                            .push(" OR lower(m.external_id) = ")
                            .push_bind(identifier.to_owned());
                    }
                    builder.push(")");
                }
            }

            fn push_event_filter(
                builder: &mut sqlx::QueryBuilder<<$store as $crate::backend::Backend>::Db>,
                query: &$crate::EventQuery,
            ) {
                builder.push(" WHERE 1 = 1");
                if let Some(exchange) = query.exchange {
                    builder.push(" AND e.exchange = ").push_bind(exchange.as_str());
                }
                if let Some(category) = query.category {
                    builder.push(" AND e.category = ").push_bind(category.as_str());
                }
            }

            /// Up to `limit` rows of `table` (`"markets m"` or `"events e"`), each with `columns`,
            /// whose ids come after `after` (from the first when `None`), by id: how the catalogue
            /// and a copy are read page by page.
            async fn rows_after(
                &self,
                columns: &str,
                table: &'static str,
                after: Option<uuid::Uuid>,
                limit: u32,
            ) -> Result<Vec<<<$store as $crate::backend::Backend>::Db as sqlx::Database>::Row>, $crate::StoreError>
            {
                let alias = table.rsplit(' ').next().unwrap_or(table);
                Ok(sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {columns} FROM {table} WHERE {alias}.id > $1 ORDER BY {alias}.id LIMIT $2"
                )))
                .bind(Self::id(after.unwrap_or(uuid::Uuid::nil())))
                .bind(i64::from(limit))
                .fetch_all(self.reader())
                .await?)
            }

            fn markets_from(
                rows: Vec<<<$store as $crate::backend::Backend>::Db as sqlx::Database>::Row>,
            ) -> Result<Vec<$crate::StoredMarket>, $crate::StoreError> {
                rows.iter().map($crate::records::stored_market).collect()
            }

            async fn insert_matches(
                connection: &mut Connection,
                pairs: &[marketlens_domain::matching::MatchPair],
            ) -> Result<(), $crate::StoreError> {
                use $crate::table_rows::RowWriter;
                Statements(connection).insert_rows("market_matches", pairs).await
            }

            /// The matching inputs of the markets `condition` (on `m`) selects, binding `revision`
            /// as `$1` if given.
            async fn match_inputs_where(
                &self,
                condition: &'static str,
                revision: Option<i64>,
            ) -> Result<Vec<marketlens_domain::matching::MatchInput>, $crate::StoreError> {
                let query = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT m.id, m.exchange, m.question, m.end_date, m.outcomes, e.title AS event_title, m.external_id \
                     FROM markets m LEFT JOIN events e ON e.id = m.event_id WHERE {condition} ORDER BY m.id"
                )));
                let query = match revision {
                    Some(revision) => query.bind(revision),
                    None => query,
                };
                let rows = query.fetch_all(self.reader()).await?;
                rows.iter().map($crate::records::match_input).collect()
            }
        }

        #[async_trait::async_trait]
        impl $crate::CatalogStore for $store {
            async fn upsert(
                &self,
                markets: &[marketlens_domain::Market],
                events: &[marketlens_domain::Event],
                now: marketlens_domain::time::Timestamp,
            ) -> Result<$crate::UpsertCounts, $crate::StoreError> {
                // Taken out for the transaction (a std mutex is not held across it) and put back
                // whatever happens: what it counts is only ever more than the store holds.
                let mut load = self.bulk_state().lock().expect("bulk load state").take();
                let written = async {
                    let mut transaction = self.begin_catalog_write().await?;
                    let counts =
                        $crate::upsert::upsert(&mut Statements(&mut transaction), markets, events, now, load.as_mut())
                            .await?;
                    transaction.commit().await?;
                    Ok::<_, $crate::StoreError>(counts)
                }
                .await;
                *self.bulk_state().lock().expect("bulk load state") = load;
                let counts = written?;
                self.after_catalog_write().await;
                Ok(counts)
            }

            async fn begin_bulk_load(&self) -> Result<bool, $crate::StoreError> {
                let mut transaction = self.begin_catalog_write().await?;
                let held: bool = sqlx::query_scalar(
                    "SELECT EXISTS (SELECT 1 FROM markets) OR EXISTS (SELECT 1 FROM events)",
                )
                .fetch_one(&mut *transaction)
                .await?;
                if held {
                    return Ok(false);
                }
                let revision: i64 = sqlx::query_scalar("SELECT revision FROM catalog_state WHERE id = 1")
                    .fetch_one(&mut *transaction)
                    .await?;
                <$store as $crate::backend::Backend>::defer_indexes(&mut transaction).await?;
                transaction.commit().await?;
                *self.bulk_state().lock().expect("bulk load state") = Some($crate::bulk::BulkLoad::new(revision));
                Ok(true)
            }

            async fn finish_bulk_load(&self) -> Result<(), $crate::StoreError> {
                self.bulk_state().lock().expect("bulk load state").take();
                let mut transaction = self.begin_catalog_write().await?;
                <$store as $crate::backend::Backend>::build_deferred(&mut transaction).await?;
                transaction.commit().await?;
                self.after_catalog_write().await;
                Ok(())
            }

            async fn list_markets(
                &self,
                query: &$crate::MarketQuery,
            ) -> Result<$crate::Page<$crate::StoredMarket>, $crate::StoreError> {
                let mut count_builder = sqlx::QueryBuilder::new("SELECT COUNT(*) FROM markets m");
                Self::push_market_filter(&mut count_builder, &query.filter);
                let total: i64 = count_builder
                    .build_query_scalar()
                    .fetch_one(self.reader())
                    .await?;

                let mut builder = sqlx::QueryBuilder::new(format!(
                    "SELECT {} FROM markets m",
                    $crate::records::MARKET_COLUMNS
                ));
                Self::push_market_filter(&mut builder, &query.filter);
                let column = $crate::catalog::sort_column(query.sort);
                let direction = query.order.as_sql();
                builder
                    .push(format!(
                        " ORDER BY m.{column} {direction}, m.id {direction} LIMIT "
                    ))
                    .push_bind(i64::from(query.limit))
                    .push(" OFFSET ")
                    .push_bind($crate::records::to_i64(query.offset));
                let rows = builder.build().fetch_all(self.reader()).await?;
                Ok($crate::Page {
                    items: Self::markets_from(rows)?,
                    total: total.max(0) as u64,
                })
            }

            async fn get_market(&self, id: uuid::Uuid) -> Result<Option<$crate::StoredMarket>, $crate::StoreError> {
                let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM markets m WHERE m.id = $1",
                    $crate::records::MARKET_COLUMNS
                )))
                .bind(Self::id(id))
                .fetch_optional(self.reader())
                .await?;
                row.as_ref().map($crate::records::stored_market).transpose()
            }

            async fn matched_markets(&self, id: uuid::Uuid) -> Result<Vec<$crate::MatchedMarket>, $crate::StoreError> {
                let rows = sqlx::query(
                    "SELECT m.id, m.exchange, m.question, mm.similarity FROM market_matches mm \
                     JOIN markets m ON m.id = mm.matched_id \
                     WHERE mm.market_id = $1 ORDER BY mm.similarity DESC, m.id ASC LIMIT $2",
                )
                .bind(Self::id(id))
                .bind(marketlens_domain::matching::MAX_MATCHES_PER_MARKET as i64)
                .fetch_all(self.reader())
                .await?;
                rows.iter().map($crate::records::matched_market).collect()
            }

            async fn list_events(
                &self,
                query: &$crate::EventQuery,
            ) -> Result<$crate::Page<$crate::StoredEvent>, $crate::StoreError> {
                let mut count_builder = sqlx::QueryBuilder::new("SELECT COUNT(*) FROM events e");
                Self::push_event_filter(&mut count_builder, query);
                let total: i64 = count_builder
                    .build_query_scalar()
                    .fetch_one(self.reader())
                    .await?;

                let mut builder =
                    sqlx::QueryBuilder::new(format!("SELECT {} FROM events e", $crate::records::EVENT_COLUMNS));
                Self::push_event_filter(&mut builder, query);
                builder
                    .push(" ORDER BY e.total_volume DESC, e.id DESC LIMIT ")
                    .push_bind(i64::from(query.limit))
                    .push(" OFFSET ")
                    .push_bind($crate::records::to_i64(query.offset));
                let rows = builder.build().fetch_all(self.reader()).await?;
                let items = rows
                    .iter()
                    .map($crate::records::stored_event)
                    .collect::<Result<_, _>>()?;
                Ok($crate::Page {
                    items,
                    total: total.max(0) as u64,
                })
            }

            async fn get_event(&self, id: uuid::Uuid) -> Result<Option<$crate::StoredEvent>, $crate::StoreError> {
                let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM events e WHERE e.id = $1",
                    $crate::records::EVENT_COLUMNS
                )))
                .bind(Self::id(id))
                .fetch_optional(self.reader())
                .await?;
                row.as_ref().map($crate::records::stored_event).transpose()
            }

            async fn events_by_ids(&self, ids: &[uuid::Uuid]) -> Result<Vec<$crate::StoredEvent>, $crate::StoreError> {
                if ids.is_empty() {
                    return Ok(Vec::new());
                }
                let mut builder = sqlx::QueryBuilder::new(format!(
                    "SELECT {} FROM events e WHERE e.id",
                    $crate::records::EVENT_COLUMNS
                ));
                Self::push_ids(&mut builder, ids);
                let rows = builder.build().fetch_all(self.reader()).await?;
                $crate::records::in_order_of(
                    ids,
                    rows.iter()
                        .map($crate::records::stored_event)
                        .collect::<Result<_, _>>()?,
                )
            }

            async fn market_summaries(
                &self,
                after: Option<uuid::Uuid>,
                limit: u32,
            ) -> Result<Vec<$crate::MarketSummary>, $crate::StoreError> {
                let rows = self
                    .rows_after($crate::records::SUMMARY_COLUMNS, "markets m", after, limit)
                    .await?;
                rows.iter().map($crate::records::market_summary).collect()
            }

            async fn event_summaries(
                &self,
                after: Option<uuid::Uuid>,
                limit: u32,
            ) -> Result<Vec<$crate::EventSummary>, $crate::StoreError> {
                let rows = self
                    .rows_after($crate::records::EVENT_SUMMARY_COLUMNS, "events e", after, limit)
                    .await?;
                rows.iter().map($crate::records::event_summary).collect()
            }

            async fn event_markets(
                &self,
                event_id: uuid::Uuid,
            ) -> Result<Vec<$crate::EventMarket>, $crate::StoreError> {
                let rows = sqlx::query(
                    "SELECT id, question, headline_price, volume_24h FROM markets WHERE event_id = $1 \
                     ORDER BY headline_price DESC, id ASC",
                )
                .bind(Self::id(event_id))
                .fetch_all(self.reader())
                .await?;
                rows.iter().map($crate::records::event_market).collect()
            }

            async fn markets_by_url(
                &self,
                url: &marketlens_domain::market_url::MarketUrl,
            ) -> Result<Vec<$crate::StoredMarket>, $crate::StoreError> {
                use marketlens_domain::market_url::UrlKey;
                let byte_order = <Self as $crate::backend::Backend>::BYTE_ORDER;
                for key in &url.keys {
                    let mut builder = sqlx::QueryBuilder::new(format!(
                        "SELECT {} FROM markets m WHERE m.exchange = ",
                        $crate::records::MARKET_COLUMNS
                    ));
                    builder.push_bind(url.exchange.as_str());
                    match key {
                        UrlKey::Market(slug) => {
                            builder.push(" AND m.url_market = ").push_bind(slug.clone());
                        }
                        UrlKey::Event(slug) => {
                            builder.push(" AND m.url_event = ").push_bind(slug.clone());
                        }
                        UrlKey::Series(slug) => {
                            // Kalshi markets imported without their event carry no series ticker;
                            // their event tickers still begin with it ("kxmarmad-26"), so a range
                            // of the event key in byte order finds them (through SQLite's index).
                            builder
                                .push(" AND (m.url_series = ")
                                .push_bind(slug.clone())
                                .push(format!(" OR (m.url_event{byte_order} >= "))
                                .push_bind(format!("{slug}-"))
                                .push(format!(" AND m.url_event{byte_order} < "))
                                .push_bind(format!("{slug}."))
                                .push("))");
                        }
                    }
                    builder.push(" ORDER BY m.id LIMIT 1000");
                    let rows = builder.build().fetch_all(self.reader()).await?;
                    if !rows.is_empty() {
                        return Self::markets_from(rows);
                    }
                }
                Ok(Vec::new())
            }

            async fn search_any_words(
                &self,
                words: &$crate::SearchWords,
                limit: u32,
            ) -> Result<Vec<$crate::StoredMarket>, $crate::StoreError> {
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} {}",
                    $crate::records::MARKET_COLUMNS,
                    <Self as $crate::backend::Backend>::ANY_WORDS
                )))
                .bind(Self::any_words(words))
                .bind(i64::from(limit))
                .fetch_all(self.reader())
                .await?;
                Self::markets_from(rows)
            }

            async fn match_inputs(&self) -> Result<Vec<marketlens_domain::matching::MatchInput>, $crate::StoreError> {
                self.match_inputs_where("1 = 1", None).await
            }

            async fn match_inputs_changed_since(
                &self,
                revision: i64,
            ) -> Result<Vec<marketlens_domain::matching::MatchInput>, $crate::StoreError> {
                self.match_inputs_where(
                    "m.id IN (SELECT id FROM markets WHERE changed_revision > $1 \
                        UNION SELECT c.id FROM events x JOIN markets c ON c.event_id = x.id \
                        WHERE x.changed_revision > $1)",
                    Some(revision),
                )
                .await
            }

            async fn replace_matches(
                &self,
                pairs: &[marketlens_domain::matching::MatchPair],
            ) -> Result<(), $crate::StoreError> {
                use $crate::upsert::CatalogWriter;
                let mut transaction = self.begin_write().await?;
                sqlx::query("DELETE FROM market_matches")
                    .execute(&mut *transaction)
                    .await?;
                Self::insert_matches(&mut transaction, pairs).await?;
                Statements(&mut transaction).bump_revision().await?;
                transaction.commit().await?;
                Ok(())
            }

            async fn update_matches(
                &self,
                markets: &[uuid::Uuid],
                pairs: &[marketlens_domain::matching::MatchPair],
            ) -> Result<(), $crate::StoreError> {
                use $crate::upsert::CatalogWriter;
                let mut transaction = self.begin_write().await?;
                for chunk in markets.chunks($crate::catalog::MATCH_ROWS_PER_STATEMENT) {
                    let mut builder = sqlx::QueryBuilder::new("DELETE FROM market_matches WHERE market_id");
                    Self::push_ids(&mut builder, chunk);
                    builder.build().execute(&mut *transaction).await?;
                }
                Self::insert_matches(&mut transaction, pairs).await?;
                Statements(&mut transaction).bump_revision().await?;
                transaction.commit().await?;
                Ok(())
            }

            async fn catalog_counts(&self) -> Result<$crate::CatalogCounts, $crate::StoreError> {
                use $crate::records::RecordRow;
                let row = sqlx::query(
                    "SELECT \
                        (SELECT COUNT(*) FROM markets WHERE exchange = 'POLYMARKET') AS polymarket_markets, \
                        (SELECT COUNT(*) FROM markets WHERE exchange = 'KALSHI') AS kalshi_markets, \
                        (SELECT COUNT(*) FROM events) AS events, \
                        (SELECT COUNT(*) FROM market_matches) AS match_rows",
                )
                .fetch_one(self.reader())
                .await?;
                Ok($crate::CatalogCounts {
                    polymarket_markets: row.count("polymarket_markets")?,
                    kalshi_markets: row.count("kalshi_markets")?,
                    events: row.count("events")?,
                    match_pairs: row.count("match_rows")? / 2,
                })
            }

            async fn catalog_revision(&self) -> Result<i64, $crate::StoreError> {
                Ok(
                    sqlx::query_scalar("SELECT revision FROM catalog_state WHERE id = 1")
                        .fetch_one(self.reader())
                        .await?,
                )
            }

            async fn open_market_ids(
                &self,
                exchange: marketlens_domain::Exchange,
            ) -> Result<Vec<String>, $crate::StoreError> {
                let ids = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                    "SELECT external_id FROM markets WHERE exchange = $1 AND status = 'OPEN' ORDER BY external_id{}",
                    <Self as $crate::backend::Backend>::BYTE_ORDER
                )))
                .bind(exchange.as_str())
                .fetch_all(self.reader())
                .await?;
                Ok(ids)
            }
        }
    };
}
pub(crate) use catalog_store_sql;
