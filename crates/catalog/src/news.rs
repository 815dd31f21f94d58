//! The news a server answers explain from: every recent article of the store in a
//! `marketlens_news::NewsIndex` in memory, kept in step with the store (which one node fills by
//! polling the feeds), so that finding a market's news and its key factors costs no query.
//!
//! Staying in step: articles get increasing ids as they are stored, so the task asks the store
//! for the articles after the last id it holds, every few seconds, and adds them; articles that
//! grow older than the window leave the index as they leave the store. Rebuilding from scratch
//! (at start, and every so often to pick up anything the id order could miss) happens beside
//! the live index, which is then swapped in.

use chrono::TimeDelta;
use marketlens_domain::article::Article;
use marketlens_domain::time::Timestamp;
use marketlens_news::{
    FactorSource, IndexedArticle, KeyFactor, MAX_KEY_FACTORS, MarketLife, NewsIndex, NewsQuery, Recency, key_factors,
};
use marketlens_storage::{Store, StoreError, StoredArticle};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// Articles read from the store per query.
const SCAN_PAGE: u32 = 5_000;
/// How many of the best articles key factors are chosen from.
const FACTOR_CANDIDATES: usize = 20;
/// How often the index is rebuilt from scratch.
const REBUILD_EVERY: Duration = Duration::from_secs(3_600);

/// What explain learns about a market from the news.
#[derive(Debug, Clone, Default)]
pub struct MarketNews {
    /// Every article about the market from its own time within the news window.
    pub articles_found: usize,
    /// At most five key factors, most relevant and recent first.
    pub key_factors: Vec<KeyFactor>,
    /// The articles the key factors come from, by their id.
    pub sources: HashMap<i64, Arc<Article>>,
}

struct Held {
    index: NewsIndex,
    articles: HashMap<i64, Arc<Article>>,
    last_id: i64,
}

impl Held {
    fn empty() -> Held {
        Held {
            index: NewsIndex::new(),
            articles: HashMap::new(),
            last_id: 0,
        }
    }

    fn add(&mut self, stored: Vec<StoredArticle>) {
        for StoredArticle { id, article } in stored {
            self.index.insert(IndexedArticle {
                id,
                title: &article.title,
                summary: &article.summary,
                dated_at: article.dated_at(),
            });
            self.last_id = self.last_id.max(id);
            self.articles.insert(id, Arc::new(article));
        }
    }
}

pub struct LiveNews {
    store: Arc<dyn Store>,
    /// How old an article may be and still count as news.
    window: TimeDelta,
    /// A std lock: held only to search or to add a few articles, never across an `.await`.
    held: RwLock<Held>,
}

impl LiveNews {
    pub fn new(store: Arc<dyn Store>, window: TimeDelta) -> Arc<LiveNews> {
        Arc::new(LiveNews {
            store,
            window,
            held: RwLock::new(Held::empty()),
        })
    }

    /// Reads every recent article of the store into a new index and swaps it in.
    pub async fn rebuild(&self, now: Timestamp) -> Result<usize, StoreError> {
        let mut fresh = Held::empty();
        loop {
            let page = self
                .store
                .articles_after(fresh.last_id, now - self.window, SCAN_PAGE)
                .await?;
            if page.is_empty() {
                break;
            }
            fresh.add(page);
        }
        let count = fresh.articles.len();
        *self.held.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = fresh;
        Ok(count)
    }

    /// Adds the articles stored since the last look and drops those grown too old; returns how
    /// many it added.
    pub async fn catch_up(&self, now: Timestamp) -> Result<usize, StoreError> {
        let cutoff = now - self.window;
        let mut added = 0;
        loop {
            let after = self
                .held
                .read()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .last_id;
            let page = self.store.articles_after(after, cutoff, SCAN_PAGE).await?;
            if page.is_empty() {
                break;
            }
            added += page.len();
            self.held
                .write()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .add(page);
        }
        // Ageing out rebuilds every posting list (tens of milliseconds at 100,000 articles,
        // under the lock that explain reads through), so it waits until articles an hour past
        // the window have gathered; search ignores those past the window meanwhile.
        let overdue = cutoff - TimeDelta::hours(1);
        let has_overdue = self
            .held
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .articles
            .values()
            .any(|article| article.dated_at() < overdue);
        if has_overdue {
            let mut held = self.held.write().unwrap_or_else(|poisoned| poisoned.into_inner());
            if held.index.age_out(cutoff) > 0 {
                held.articles.retain(|_, article| article.dated_at() >= cutoff);
            }
        }
        Ok(added)
    }

    /// Loads the news now and keeps it in step with the store until the task is aborted or
    /// the news dropped.
    pub fn keep_in_step(
        self: &Arc<Self>,
        check_every: Duration,
        shutdown: CancellationToken,
    ) -> tokio::task::JoinHandle<()> {
        let news = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut rebuilt: Option<Instant> = None;
            loop {
                let Some(live) = news.upgrade() else { return };
                let now = chrono::Utc::now();
                let outcome = if rebuilt.is_none_or(|at| at.elapsed() >= REBUILD_EVERY) {
                    let rebuilding = live.rebuild(now).await;
                    if let Ok(count) = &rebuilding {
                        tracing::info!(articles = count, "news loaded into memory");
                        rebuilt = Some(Instant::now());
                    }
                    rebuilding
                } else {
                    live.catch_up(now).await
                };
                if let Err(error) = outcome {
                    tracing::warn!(%error, "could not read the news; serving what is held");
                }
                drop(live);
                tokio::select! {
                    () = shutdown.cancelled() => return,
                    () = tokio::time::sleep(check_every) => {}
                }
            }
        })
    }

    /// How many articles are held.
    pub fn article_count(&self) -> usize {
        self.held
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .articles
            .len()
    }

    /// The news about a market from its own `life`, within the news window at `now`.
    pub fn about(&self, question: &str, event_title: Option<&str>, life: MarketLife, now: Timestamp) -> MarketNews {
        let query = NewsQuery::for_market(question, event_title);
        let held = self.held.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        let recency = Recency {
            now,
            max_age: self.window,
        };
        let found = held.index.search(&query, recency, life, FACTOR_CANDIDATES);
        let candidates: Vec<(i64, Arc<Article>)> = found
            .best
            .iter()
            .filter_map(|ranked| {
                held.articles
                    .get(&ranked.id)
                    .map(|article| (ranked.id, article.clone()))
            })
            .collect();
        drop(held);
        let factor_sources: Vec<FactorSource> = candidates
            .iter()
            .map(|(id, article)| FactorSource {
                id: *id,
                title: &article.title,
                summary: &article.summary,
            })
            .collect();
        let key_factors = key_factors(&query, &factor_sources, MAX_KEY_FACTORS);
        let sources = candidates
            .into_iter()
            .filter(|(id, _)| key_factors.iter().any(|factor| factor.article_id == *id))
            .collect();
        MarketNews {
            articles_found: found.total,
            key_factors,
            sources,
        }
    }
}
