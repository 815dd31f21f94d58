//! News on PostgreSQL.

use async_trait::async_trait;
use marketlens_domain::time::Timestamp;
use marketlens_news::{Article, title_key};
use sqlx::Row;

use super::PgStore;
use crate::StoreError;
use crate::news::{FeedPoll, FeedStatus, NewsStore, StoredArticle};
use crate::records::{self, ARTICLE_COLUMNS, to_i64};

#[async_trait]
impl NewsStore for PgStore {
    async fn insert_articles(&self, articles: &[Article]) -> Result<u64, StoreError> {
        let urls: Vec<&str> = articles.iter().map(|article| article.url.as_str()).collect();
        let keys: Vec<String> = articles.iter().map(|article| title_key(&article.title)).collect();
        let titles: Vec<&str> = articles.iter().map(|article| article.title.as_str()).collect();
        let summaries: Vec<&str> = articles.iter().map(|article| article.summary.as_str()).collect();
        let publishers: Vec<&str> = articles.iter().map(|article| article.publisher.as_str()).collect();
        let published: Vec<Option<Timestamp>> = articles.iter().map(|article| article.published_at).collect();
        let fetched: Vec<Timestamp> = articles.iter().map(|article| article.fetched_at).collect();
        let dated: Vec<Timestamp> = articles.iter().map(Article::dated_at).collect();
        // ON CONFLICT DO NOTHING: a link or headline key already held is a repeat, not an error.
        let inserted = sqlx::query(
            "INSERT INTO articles (url, title_key, title, summary, publisher, published_at, fetched_at, dated_at) \
             SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], \
                $7::timestamptz[], $8::timestamptz[]) \
             ON CONFLICT DO NOTHING",
        )
        .bind(urls)
        .bind(keys)
        .bind(titles)
        .bind(summaries)
        .bind(publishers)
        .bind(published)
        .bind(fetched)
        .bind(dated)
        .execute(&self.pool)
        .await?;
        Ok(inserted.rows_affected())
    }

    async fn articles_after(&self, after: i64, since: Timestamp, limit: u32) -> Result<Vec<StoredArticle>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {ARTICLE_COLUMNS} FROM articles a WHERE a.id > $1 AND a.dated_at >= $2 ORDER BY a.id LIMIT $3"
        )))
        .bind(after)
        .bind(since)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(records::stored_article).collect()
    }

    async fn recent_articles(&self, since: Timestamp) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query("SELECT url, title FROM articles WHERE dated_at >= $1 ORDER BY id")
            .bind(since)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("url")?, row.try_get("title")?)))
            .collect()
    }

    async fn age_out_articles(&self, cutoff: Timestamp) -> Result<u64, StoreError> {
        let deleted = sqlx::query("DELETE FROM articles WHERE dated_at < $1")
            .bind(cutoff)
            .execute(&self.pool)
            .await?;
        Ok(deleted.rows_affected())
    }

    async fn record_feed_poll(&self, poll: &FeedPoll) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO news_feeds (url, last_polled_at, last_success_at, last_error, articles_added) \
             VALUES ($1, $2, CASE WHEN $3::text IS NULL THEN $2 END, $3, $4) \
             ON CONFLICT (url) DO UPDATE SET last_polled_at = excluded.last_polled_at, \
                last_success_at = COALESCE(excluded.last_success_at, news_feeds.last_success_at), \
                last_error = excluded.last_error, \
                articles_added = CASE WHEN excluded.last_error IS NULL THEN excluded.articles_added \
                    ELSE news_feeds.articles_added END",
        )
        .bind(&poll.url)
        .bind(poll.polled_at)
        .bind(&poll.error)
        .bind(to_i64(poll.articles_added))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn feed_statuses(&self) -> Result<Vec<FeedStatus>, StoreError> {
        let rows = sqlx::query(
            "SELECT url, last_polled_at, last_success_at, last_error, articles_added FROM news_feeds \
             ORDER BY url COLLATE \"C\"",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(records::feed_status).collect()
    }
}
