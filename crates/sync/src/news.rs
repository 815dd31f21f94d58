//! News from the configured feeds into the store: each feed fetched (with the same retries as
//! the exchanges, see `http`), parsed, cleared of repeats, and what is new and recent stored;
//! then what has grown older than the window is deleted.
//!
//! Repeats are cleared at three levels: within a feed (`marketlens_news::deduplicate`), against
//! the recent articles the store holds (`Deduplicator`, which also catches near-identical
//! headlines), and by the store itself (a link or headline key already held is not stored
//! again, whoever writes it). Articles older than the window are not stored at all: they would
//! be deleted at once.

use chrono::TimeDelta;
use marketlens_domain::article::Article;
use marketlens_domain::redact;
use marketlens_domain::time::Timestamp;
use marketlens_news::{Deduplicator, FeedError, ParsedFeed, deduplicate, parse_feed};
use marketlens_storage::{FeedPoll, Store, StoreError};
use std::fmt;

use crate::http::{FetchError, Reading, Retrying};
use crate::settings::SyncSettings;

/// Feed requests per second, across all feeds (they are on many hosts).
const FEED_REQUESTS_PER_SECOND: u32 = 5;
/// The largest feed document accepted.
const MAX_FEED_BYTES: usize = 8 << 20;

/// The HTTP client for news feeds.
pub struct FeedFetcher {
    http: Retrying,
}

impl FeedFetcher {
    pub fn new(settings: &SyncSettings) -> Result<FeedFetcher, FetchError> {
        Ok(FeedFetcher {
            http: Retrying::new(settings, FEED_REQUESTS_PER_SECOND, MAX_FEED_BYTES)?,
        })
    }

    /// Fetches and parses the feed at `url`. A cut-off document is fetched again; a page that
    /// is not a feed (an error page, HTML) fails at once.
    pub async fn feed(&self, url: &str, fetched_at: Timestamp) -> Result<ParsedFeed, FetchError> {
        self.http
            .get(url, url, |body| match parse_feed(body, url, fetched_at) {
                Ok(parsed) => Reading::Read(parsed),
                Err(error @ FeedError::Truncated { .. }) => Reading::Garbled(error.to_string()),
                Err(error) => Reading::Refused(error.to_string()),
            })
            .await
    }
}

/// What storing a batch of articles did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StoredNews {
    pub found: u64,
    pub added: u64,
    pub repeats: u64,
    /// Dated before the window: not stored.
    pub too_old: u64,
}

impl StoredNews {
    pub fn add(&mut self, other: StoredNews) {
        self.found += other.found;
        self.added += other.added;
        self.repeats += other.repeats;
        self.too_old += other.too_old;
    }
}

/// The articles held since `since`, as a deduplicator that tells new articles from repeats.
pub async fn recent_deduplicator(store: &dyn Store, since: Timestamp) -> Result<Deduplicator, StoreError> {
    let mut deduplicator = Deduplicator::new();
    for (url, title) in store.recent_articles(since).await? {
        deduplicator.remember(&url, &title);
    }
    Ok(deduplicator)
}

/// Stores the articles that are recent (dated at or after `since`) and new to `seen`.
pub async fn store_articles(
    store: &dyn Store,
    articles: Vec<Article>,
    seen: &mut Deduplicator,
    since: Timestamp,
) -> Result<StoredNews, StoreError> {
    let found = articles.len() as u64;
    let (articles, _) = deduplicate(articles);
    let (recent, old): (Vec<Article>, Vec<Article>) =
        articles.into_iter().partition(|article| article.dated_at() >= since);
    let new: Vec<Article> = recent
        .into_iter()
        .filter(|article| seen.admit(article).is_none())
        .collect();
    let added = store.insert_articles(&new).await?;
    Ok(StoredNews {
        found,
        added,
        // Repeats within the batch, of what the store held, or caught by the store itself.
        repeats: found - old.len() as u64 - added,
        too_old: old.len() as u64,
    })
}

/// What one poll of every feed did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewsReport {
    pub feeds: usize,
    pub failed: Vec<(String, String)>,
    pub articles: StoredNews,
    pub aged_out: u64,
}

impl fmt::Display for NewsReport {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "{} feeds polled, {} failed; {} articles found, {} new, {} repeats, {} older than the window; {} aged out",
            self.feeds,
            self.failed.len(),
            self.articles.found,
            self.articles.added,
            self.articles.repeats,
            self.articles.too_old,
            self.aged_out
        )
    }
}

/// Polls every feed once, stores what is new and recent, records each feed's poll, and
/// deletes what is older than `window`. A feed that fails is recorded and skipped; the store
/// failing ends the poll.
pub async fn poll_feeds(
    store: &dyn Store,
    fetcher: &FeedFetcher,
    feeds: &[String],
    window: TimeDelta,
    now: Timestamp,
) -> Result<NewsReport, StoreError> {
    let since = now - window;
    let mut seen = recent_deduplicator(store, since).await?;
    let mut report = NewsReport {
        feeds: feeds.len(),
        ..NewsReport::default()
    };
    for url in feeds {
        let (error, added) = match fetcher.feed(url, now).await {
            Ok(parsed) => {
                let stored = store_articles(store, parsed.articles, &mut seen, since).await?;
                report.articles.add(stored);
                (None, stored.added)
            }
            Err(error) => {
                // The error names the feed already, redacted (see `http`).
                tracing::warn!(%error, "a news feed could not be read");
                report.failed.push((redact::url(url), error.to_string()));
                (Some(error.to_string()), 0)
            }
        };
        store
            .record_feed_poll(&FeedPoll {
                url: url.clone(),
                polled_at: now,
                error,
                articles_added: added,
            })
            .await?;
    }
    report.aged_out = store.age_out_articles(since).await?;
    Ok(report)
}
