//! The catalogue a server answers from: the latest in-memory [`Snapshot`] of the store, kept
//! in step with it by a background task, and the store's own queries until the first snapshot
//! is loaded (a server answers at once, and fast once loaded).
//!
//! Staying in step: every write to the catalogue raises the store's revision (in the write's
//! own transaction, whichever process or node wrote), so the task asks for that one number
//! every [`CatalogSettings::check_every`] and loads a new snapshot when it moved, at most every
//! [`CatalogSettings::min_interval`] (a long sync raises it with every page). A new snapshot
//! replaces the old one in a single atomic swap: a request sees one picture or the other,
//! never half of each.
//!
//! Single markets and events in full (with descriptions) stay in the store, which finds them
//! by primary key; the ones read are kept in bounded caches that live and die with the
//! snapshot, so they are exactly as fresh as the lists. (Reading the store on every call is
//! costly under load: each commit of a batch of charges makes every SQLite reader drop its
//! page cache, and a page of events read cold took milliseconds, measured.)

use arc_swap::ArcSwapOption;
use async_trait::async_trait;
use marketlens_domain::Exchange;
use marketlens_domain::time::Timestamp;
use marketlens_storage::{
    EventMarket, EventQuery, MarketQuery, MarketSummary, MatchedMarket, Page, SearchWords, Store, StoreError,
    StoredEvent, StoredMarket,
};
use moka::sync::Cache;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use uuid::Uuid;

use tokio_util::sync::CancellationToken;

use crate::rendered::{ItemForm, RenderedItems};
use crate::{CatalogReader, SearchHit, Snapshot, Spread, SpreadQuery, StoreReader};

/// How the background task keeps the catalogue in step with the store.
#[derive(Debug, Clone, Copy)]
pub struct CatalogSettings {
    /// How often the store's revision is read.
    pub check_every: Duration,
    /// The least time between two loads.
    pub min_interval: Duration,
}

impl Default for CatalogSettings {
    fn default() -> Self {
        CatalogSettings {
            check_every: Duration::from_secs(1),
            min_interval: Duration::from_secs(10),
        }
    }
}

/// What `/readyz` says about the catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogStatus {
    /// Whether lists are answered from memory (else by the store, while the first load runs).
    pub in_memory: bool,
    pub revision: Option<i64>,
    pub markets: usize,
    /// How long ago the current snapshot was loaded.
    pub age: Option<Duration>,
}

pub struct LiveCatalog {
    store: Arc<dyn Store>,
    store_reader: StoreReader,
    current: ArcSwapOption<Loaded>,
    /// One load at a time.
    loading: tokio::sync::Mutex<()>,
}

struct Loaded {
    snapshot: Snapshot,
    at: Instant,
    /// Markets' list items as the API renders them, each kept once rendered.
    rendered: RenderedItems,
    markets: Cache<Uuid, Arc<StoredMarket>>,
    events: Cache<Uuid, Arc<StoredEvent>>,
}

/// Bytes of full records each cache holds at most.
const MARKET_CACHE_BYTES: u64 = 64 << 20;
const EVENT_CACHE_BYTES: u64 = 32 << 20;

/// About how many bytes a record takes in memory.
fn weight(text_bytes: usize) -> u32 {
    u32::try_from(text_bytes + 400).unwrap_or(u32::MAX)
}

impl Loaded {
    fn new(snapshot: Snapshot) -> Loaded {
        Loaded {
            rendered: RenderedItems::new(snapshot.market_count()),
            snapshot,
            at: Instant::now(),
            markets: Cache::builder()
                .max_capacity(MARKET_CACHE_BYTES)
                .weigher(|_, stored: &Arc<StoredMarket>| {
                    let market = &stored.market;
                    let rules = &market.rules;
                    let rules_bytes: usize = [&rules.primary, &rules.secondary, &rules.source]
                        .into_iter()
                        .flatten()
                        .map(String::len)
                        .sum();
                    weight(
                        market.question.len()
                            + market.description.len()
                            + rules_bytes
                            + market.url.len()
                            + market.image_url.len(),
                    )
                })
                .build(),
            events: Cache::builder()
                .max_capacity(EVENT_CACHE_BYTES)
                .weigher(|_, stored: &Arc<StoredEvent>| {
                    let event = &stored.event;
                    weight(event.title.len() + event.description.len() + event.image_url.len())
                })
                .build(),
        }
    }
}

impl LiveCatalog {
    pub fn new(store: Arc<dyn Store>) -> Arc<LiveCatalog> {
        Arc::new(LiveCatalog {
            store_reader: StoreReader(store.clone()),
            store,
            current: ArcSwapOption::empty(),
            loading: tokio::sync::Mutex::new(()),
        })
    }

    /// Loads a new snapshot if the store changed since the current one (or none is loaded).
    /// Returns whether it loaded one.
    pub async fn refresh(&self) -> Result<bool, StoreError> {
        let _one_at_a_time = self.loading.lock().await;
        let revision = self.store.catalog_revision().await?;
        if self
            .current
            .load()
            .as_ref()
            .is_some_and(|loaded| loaded.snapshot.revision() == revision)
        {
            return Ok(false);
        }
        let started = Instant::now();
        let snapshot = Snapshot::load(self.store.as_ref()).await?;
        tracing::info!(
            markets = snapshot.market_count(),
            revision = snapshot.revision(),
            seconds = started.elapsed().as_secs_f64(),
            "catalogue loaded into memory"
        );
        self.current.store(Some(Arc::new(Loaded::new(snapshot))));
        Ok(true)
    }

    /// Loads the catalogue now and then keeps it in step with the store, until the returned
    /// task is aborted or the catalogue dropped.
    pub fn keep_in_step(
        self: &Arc<Self>,
        settings: CatalogSettings,
        shutdown: CancellationToken,
    ) -> tokio::task::JoinHandle<()> {
        let catalog = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut last_load: Option<Instant> = None;
            loop {
                let Some(live) = catalog.upgrade() else { return };
                let due = last_load.is_none_or(|at| at.elapsed() >= settings.min_interval);
                if due {
                    match live.refresh().await {
                        Ok(true) => last_load = Some(Instant::now()),
                        Ok(false) => {}
                        Err(error) => tracing::warn!(%error, "could not load the catalogue; serving the last one"),
                    }
                }
                drop(live);
                tokio::select! {
                    () = shutdown.cancelled() => return,
                    () = tokio::time::sleep(settings.check_every) => {}
                }
            }
        })
    }

    pub fn status(&self) -> CatalogStatus {
        match self.current.load().as_ref() {
            Some(loaded) => CatalogStatus {
                in_memory: true,
                revision: Some(loaded.snapshot.revision()),
                markets: loaded.snapshot.market_count(),
                age: Some(loaded.at.elapsed()),
            },
            None => CatalogStatus {
                in_memory: false,
                revision: None,
                markets: 0,
                age: None,
            },
        }
    }

    /// The snapshot to answer from, if one is loaded.
    fn snapshot(&self) -> Option<Arc<Loaded>> {
        self.current.load_full()
    }

    /// The current snapshot, loaded first if there is none yet: for what only a snapshot
    /// answers (spreads, which the store has no query for, and freshness).
    async fn loaded(&self) -> Result<Arc<Loaded>, StoreError> {
        if let Some(loaded) = self.snapshot() {
            return Ok(loaded);
        }
        self.refresh().await?;
        self.snapshot()
            .ok_or_else(|| StoreError::Internal("the catalogue did not load".to_owned()))
    }

    /// A page of the cross-exchange spreads `query` keeps, and how many it keeps.
    pub async fn spreads(&self, query: &SpreadQuery) -> Result<(Vec<Spread>, u64), StoreError> {
        Ok(self.loaded().await?.snapshot.spreads(query))
    }

    /// A page of markets, each as `render` writes its list item in `form`: from the snapshot,
    /// each market rendered once for the snapshot's life (see `rendered`); from the store
    /// while none is loaded, each rendered now. `render` must give the same bytes for the same
    /// market and form.
    pub async fn list_rendered_markets(
        &self,
        query: &MarketQuery,
        form: ItemForm,
        render: impl Fn(&MarketSummary) -> Vec<u8>,
    ) -> Result<Page<Arc<[u8]>>, StoreError> {
        let Some(loaded) = self.snapshot() else {
            let page = self.store_reader.list_markets(query).await?;
            return Ok(Page {
                items: page.items.iter().map(|summary| render(summary).into()).collect(),
                total: page.total,
            });
        };
        let page = loaded.snapshot.list_market_docs(query);
        let items = page
            .items
            .iter()
            .map(|doc| {
                loaded
                    .rendered
                    .item(form, *doc, || render(&loaded.snapshot.market_summary(*doc)))
            })
            .collect();
        Ok(Page {
            items,
            total: page.total,
        })
    }

    /// The latest time any of `exchange`'s markets was observed (written by a sync or an
    /// import), if it has any and the catalogue is loaded: never worth waiting for a load.
    pub fn newest_observed(&self, exchange: Exchange) -> Option<Timestamp> {
        self.snapshot()?.snapshot.newest_observed(exchange)
    }
}

/// Answers from the current snapshot, or from the store while none is loaded.
#[async_trait]
impl CatalogReader for LiveCatalog {
    async fn get_market(&self, id: Uuid) -> Result<Option<Arc<StoredMarket>>, StoreError> {
        let Some(loaded) = self.snapshot() else {
            return self.store_reader.get_market(id).await;
        };
        if let Some(stored) = loaded.markets.get(&id) {
            return Ok(Some(stored));
        }
        let stored = self.store.get_market(id).await?.map(Arc::new);
        if let Some(stored) = &stored {
            loaded.markets.insert(id, stored.clone());
        }
        Ok(stored)
    }

    async fn get_event(&self, id: Uuid) -> Result<Option<Arc<StoredEvent>>, StoreError> {
        let Some(loaded) = self.snapshot() else {
            return self.store_reader.get_event(id).await;
        };
        Ok(self.events_by_ids(&loaded, &[id]).await?.pop())
    }

    async fn list_markets(&self, query: &MarketQuery) -> Result<Page<MarketSummary>, StoreError> {
        match self.snapshot() {
            Some(loaded) => Ok(loaded.snapshot.list_markets(query)),
            None => self.store_reader.list_markets(query).await,
        }
    }

    async fn matched_markets(&self, id: Uuid) -> Result<Vec<MatchedMarket>, StoreError> {
        match self.snapshot() {
            Some(loaded) => Ok(loaded.snapshot.matched_markets(id)),
            None => self.store_reader.matched_markets(id).await,
        }
    }

    async fn list_events(&self, query: &EventQuery) -> Result<Page<Arc<StoredEvent>>, StoreError> {
        match self.snapshot() {
            Some(loaded) => {
                let page = loaded.snapshot.list_events(query);
                Ok(Page {
                    items: self.events_by_ids(&loaded, &page.items).await?,
                    total: page.total,
                })
            }
            None => self.store_reader.list_events(query).await,
        }
    }

    async fn event_markets(&self, event_id: Uuid) -> Result<Vec<EventMarket>, StoreError> {
        match self.snapshot() {
            Some(loaded) => Ok(loaded.snapshot.event_markets(event_id)),
            None => self.store_reader.event_markets(event_id).await,
        }
    }

    async fn search_any_words(&self, words: &SearchWords, limit: u32) -> Result<Vec<SearchHit>, StoreError> {
        match self.snapshot() {
            Some(loaded) => Ok(loaded.snapshot.search_any_words(words, limit)),
            None => self.store_reader.search_any_words(words, limit).await,
        }
    }

    async fn summaries_of(&self, ids: &[Uuid]) -> Result<Vec<MarketSummary>, StoreError> {
        match self.snapshot() {
            Some(loaded) => Ok(loaded.snapshot.summaries_of(ids)),
            None => self.store_reader.summaries_of(ids).await,
        }
    }
}

impl LiveCatalog {
    /// The events with these ids that exist, in that order: from the snapshot's cache, the
    /// others read from the store in one query and cached.
    async fn events_by_ids(&self, loaded: &Loaded, ids: &[Uuid]) -> Result<Vec<Arc<StoredEvent>>, StoreError> {
        let mut found: Vec<Option<Arc<StoredEvent>>> = ids.iter().map(|id| loaded.events.get(id)).collect();
        let missing: Vec<Uuid> = ids
            .iter()
            .zip(&found)
            .filter(|(_, cached)| cached.is_none())
            .map(|(id, _)| *id)
            .collect();
        if !missing.is_empty() {
            let read: HashMap<Uuid, Arc<StoredEvent>> = self
                .store
                .events_by_ids(&missing)
                .await?
                .into_iter()
                .map(|stored| (stored.id, Arc::new(stored)))
                .collect();
            for (id, slot) in ids.iter().zip(found.iter_mut()) {
                if slot.is_none()
                    && let Some(stored) = read.get(id)
                {
                    loaded.events.insert(*id, stored.clone());
                    *slot = Some(stored.clone());
                }
            }
        }
        Ok(found.into_iter().flatten().collect())
    }
}
