//! News on SQLite.

use async_trait::async_trait;
use marketlens_domain::time::{Timestamp, to_epoch_millis};
use marketlens_news::{Article, title_key};
use sqlx::sqlite::Sqlite;
use sqlx::{QueryBuilder, Row};

use super::SqliteStore;
use crate::StoreError;
use crate::news::{FeedPoll, FeedStatus, NewsStore, StoredArticle};
use crate::records::{self, ARTICLE_COLUMNS, to_i64};

/// Articles per multi-row insert: 8 values each.
const ARTICLES_PER_STATEMENT: usize = 500;

#[async_trait]
impl NewsStore for SqliteStore {
    async fn insert_articles(&self, articles: &[Article]) -> Result<u64, StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let mut inserted = 0;
        for chunk in articles.chunks(ARTICLES_PER_STATEMENT) {
            // OR IGNORE: a link or headline key already held is a repeat, not an error.
            let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(
                "INSERT OR IGNORE INTO articles (url, title_key, title, summary, publisher, published_at, fetched_at, \
                    dated_at) ",
            );
            builder.push_values(chunk, |mut row, article| {
                row.push_bind(article.url.clone())
                    .push_bind(title_key(&article.title))
                    .push_bind(article.title.clone())
                    .push_bind(article.summary.clone())
                    .push_bind(article.publisher.clone())
                    .push_bind(article.published_at.map(to_epoch_millis))
                    .push_bind(to_epoch_millis(article.fetched_at))
                    .push_bind(to_epoch_millis(article.dated_at()));
            });
            inserted += builder.build().execute(&mut *transaction).await?.rows_affected();
        }
        transaction.commit().await?;
        Ok(inserted)
    }

    async fn articles_after(&self, after: i64, since: Timestamp, limit: u32) -> Result<Vec<StoredArticle>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {ARTICLE_COLUMNS} FROM articles a WHERE a.id > ?1 AND a.dated_at >= ?2 ORDER BY a.id LIMIT ?3"
        )))
        .bind(after)
        .bind(to_epoch_millis(since))
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::stored_article).collect()
    }

    async fn recent_articles(&self, since: Timestamp) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query("SELECT url, title FROM articles WHERE dated_at >= ?1 ORDER BY id")
            .bind(to_epoch_millis(since))
            .fetch_all(&self.reader)
            .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("url")?, row.try_get("title")?)))
            .collect()
    }

    async fn age_out_articles(&self, cutoff: Timestamp) -> Result<u64, StoreError> {
        let deleted = sqlx::query("DELETE FROM articles WHERE dated_at < ?1")
            .bind(to_epoch_millis(cutoff))
            .execute(&self.writer)
            .await?;
        Ok(deleted.rows_affected())
    }

    async fn record_feed_poll(&self, poll: &FeedPoll) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO news_feeds (url, last_polled_at, last_success_at, last_error, articles_added) \
             VALUES (?1, ?2, CASE WHEN ?3 IS NULL THEN ?2 END, ?3, ?4) \
             ON CONFLICT (url) DO UPDATE SET last_polled_at = excluded.last_polled_at, \
                last_success_at = COALESCE(excluded.last_success_at, news_feeds.last_success_at), \
                last_error = excluded.last_error, \
                articles_added = CASE WHEN excluded.last_error IS NULL THEN excluded.articles_added \
                    ELSE news_feeds.articles_added END",
        )
        .bind(&poll.url)
        .bind(to_epoch_millis(poll.polled_at))
        .bind(&poll.error)
        .bind(to_i64(poll.articles_added))
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    async fn feed_statuses(&self) -> Result<Vec<FeedStatus>, StoreError> {
        let rows = sqlx::query(
            "SELECT url, last_polled_at, last_success_at, last_error, articles_added FROM news_feeds ORDER BY url",
        )
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::feed_status).collect()
    }
}
