//! The news half of the storage interface: articles from the configured feeds, each kept once,
//! and what each feed's last poll did.
//!
//! Repeats are refused by the store itself: an article whose canonical link or headline key
//! (`marketlens_news::title_key`) is already held is not stored again, whoever writes it. (Near
//! but not exactly identical headlines are caught before, by `marketlens_news::Deduplicator`
//! over [`NewsStore::recent_articles`].)

use async_trait::async_trait;
use marketlens_domain::time::Timestamp;
use marketlens_news::Article;

use crate::StoreError;

/// An article as stored: the id the in-memory news index knows it by.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredArticle {
    pub id: i64,
    pub article: Article,
}

/// What one poll of a feed did.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedPoll {
    pub url: String,
    pub polled_at: Timestamp,
    /// The error that made the poll fail, if it failed.
    pub error: Option<String>,
    pub articles_added: u64,
}

/// A feed's last poll and its last successful one.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedStatus {
    pub url: String,
    pub last_polled_at: Timestamp,
    pub last_success_at: Option<Timestamp>,
    pub last_error: Option<String>,
    pub articles_added: u64,
}

#[async_trait]
pub trait NewsStore: Send + Sync {
    /// Stores the articles whose link and headline key the store does not hold yet (the
    /// others are repeats); returns how many it stored.
    async fn insert_articles(&self, articles: &[Article]) -> Result<u64, StoreError>;

    /// Up to `limit` articles with ids after `after` (0 for the first), dated at or after
    /// `since`, by id: how a news index loads and catches up.
    async fn articles_after(&self, after: i64, since: Timestamp, limit: u32) -> Result<Vec<StoredArticle>, StoreError>;

    /// The link and headline of every article dated at or after `since`, for telling a new
    /// article from a near-repeat of one held.
    async fn recent_articles(&self, since: Timestamp) -> Result<Vec<(String, String)>, StoreError>;

    /// Deletes the articles dated before `cutoff`; returns how many.
    async fn age_out_articles(&self, cutoff: Timestamp) -> Result<u64, StoreError>;

    async fn record_feed_poll(&self, poll: &FeedPoll) -> Result<(), StoreError>;

    /// Every feed ever polled, by URL.
    async fn feed_statuses(&self) -> Result<Vec<FeedStatus>, StoreError>;
}
