//! The news half of the storage interface: articles from the configured feeds, each kept once,
//! and what each feed's last poll did.
//!
//! Repeats are refused by the store itself: an article whose canonical link or headline key
//! (`marketlens_domain::article::title_key`) is already held is not stored again, whoever writes it. (Near
//! but not exactly identical headlines are caught before, by `marketlens_news::Deduplicator`
//! over [`NewsStore::recent_articles`].)

use async_trait::async_trait;
use marketlens_domain::article::Article;
use marketlens_domain::time::Timestamp;

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

/// Articles per multi-row insert: 8 values each.
pub(crate) const ARTICLES_PER_STATEMENT: usize = 500;

/// [`NewsStore`] for a [`Backend`](crate::backend::Backend) store.
macro_rules! news_store_sql {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl $crate::NewsStore for $store {
            async fn insert_articles(&self, articles: &[marketlens_domain::article::Article]) -> Result<u64, $crate::StoreError> {
                let mut transaction = self.begin_write().await?;
                let mut inserted = 0;
                for chunk in articles.chunks($crate::news::ARTICLES_PER_STATEMENT) {
                    // DO NOTHING: a link or headline key already held is a repeat, not an error.
                    let mut builder: sqlx::QueryBuilder<<Self as $crate::backend::Backend>::Db> = sqlx::QueryBuilder::new(
                        "INSERT INTO articles (url, title_key, title, summary, publisher, published_at, fetched_at, \
                            dated_at) ",
                    );
                    builder.push_values(chunk, |mut row, article| {
                        row.push_bind(article.url.clone())
                            .push_bind(marketlens_domain::article::title_key(&article.title))
                            .push_bind(article.title.clone())
                            .push_bind(article.summary.clone())
                            .push_bind(article.publisher.clone())
                            .push_bind(article.published_at.map(Self::time))
                            .push_bind(Self::time(article.fetched_at))
                            .push_bind(Self::time(article.dated_at()));
                    });
                    builder.push(" ON CONFLICT DO NOTHING");
                    inserted += builder.build().execute(&mut *transaction).await?.rows_affected();
                }
                transaction.commit().await?;
                Ok(inserted)
            }

            async fn articles_after(
                &self,
                after: i64,
                since: marketlens_domain::time::Timestamp,
                limit: u32,
            ) -> Result<Vec<$crate::StoredArticle>, $crate::StoreError> {
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM articles a WHERE a.id > $1 AND a.dated_at >= $2 ORDER BY a.id LIMIT $3",
                    $crate::records::ARTICLE_COLUMNS
                )))
                .bind(after)
                .bind(Self::time(since))
                .bind(i64::from(limit))
                .fetch_all(self.reader())
                .await?;
                rows.iter().map($crate::records::stored_article).collect()
            }

            async fn recent_articles(
                &self,
                since: marketlens_domain::time::Timestamp,
            ) -> Result<Vec<(String, String)>, $crate::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query("SELECT url, title FROM articles WHERE dated_at >= $1 ORDER BY id")
                    .bind(Self::time(since))
                    .fetch_all(self.reader())
                    .await?;
                rows.iter()
                    .map(|row| Ok((row.try_get("url")?, row.try_get("title")?)))
                    .collect()
            }

            async fn age_out_articles(&self, cutoff: marketlens_domain::time::Timestamp) -> Result<u64, $crate::StoreError> {
                let deleted = sqlx::query("DELETE FROM articles WHERE dated_at < $1")
                    .bind(Self::time(cutoff))
                    .execute(self.writer())
                    .await?;
                Ok(deleted.rows_affected())
            }

            async fn record_feed_poll(&self, poll: &$crate::FeedPoll) -> Result<(), $crate::StoreError> {
                sqlx::query(
                    "INSERT INTO news_feeds (url, last_polled_at, last_success_at, last_error, articles_added) \
                     VALUES ($1, $2, CASE WHEN CAST($3 AS TEXT) IS NULL THEN $2 END, $3, $4) \
                     ON CONFLICT (url) DO UPDATE SET last_polled_at = excluded.last_polled_at, \
                        last_success_at = COALESCE(excluded.last_success_at, news_feeds.last_success_at), \
                        last_error = excluded.last_error, \
                        articles_added = CASE WHEN excluded.last_error IS NULL THEN excluded.articles_added \
                            ELSE news_feeds.articles_added END",
                )
                .bind(&poll.url)
                .bind(Self::time(poll.polled_at))
                .bind(&poll.error)
                .bind($crate::records::to_i64(poll.articles_added))
                .execute(self.writer())
                .await?;
                Ok(())
            }

            async fn feed_statuses(&self) -> Result<Vec<$crate::FeedStatus>, $crate::StoreError> {
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT url, last_polled_at, last_success_at, last_error, articles_added FROM news_feeds \
                     ORDER BY url{}",
                    <Self as $crate::backend::Backend>::BYTE_ORDER
                )))
                .fetch_all(self.reader())
                .await?;
                rows.iter().map($crate::records::feed_status).collect()
            }
        }
    };
}
pub(crate) use news_store_sql;
