use marketlens_domain::article::Article;
use marketlens_storage::FeedPoll;

use crate::{at, backends};

fn article(url: &str, title: &str, published: Option<i64>, fetched: i64) -> Article {
    Article {
        url: url.to_owned(),
        title: title.to_owned(),
        summary: format!("About {title}."),
        publisher: "NPR".to_owned(),
        published_at: published.map(at),
        fetched_at: at(fetched),
    }
}

#[tokio::test]
async fn articles_are_kept_once_read_in_order_and_aged_out() {
    for backend in backends().await {
        let store = &backend.store;
        let first = article("https://npr.org/a", "Fed holds rates steady", Some(100), 200);
        let undated = article("https://npr.org/b", "Bitcoin reaches a record", None, 300);
        let later = article("https://npr.org/c", "Chiefs win the Super Bowl", Some(1_000), 1_100);
        assert_eq!(
            store
                .insert_articles(&[first.clone(), undated.clone(), later.clone()])
                .await
                .unwrap(),
            3,
            "{}",
            backend.name
        );
        let same_link = article("https://npr.org/a", "Another headline", Some(150), 400);
        let same_headline = article("https://bbc.co.uk/x", "Fed holds rates steady!", Some(120), 400);
        let both_new = article("https://bbc.co.uk/y", "A new headline", Some(120), 400);
        assert_eq!(
            store
                .insert_articles(&[same_link, same_headline, both_new.clone(), both_new.clone()])
                .await
                .unwrap(),
            1,
            "{}: repeats by link or headline key, in the store or the batch, are not stored",
            backend.name
        );

        let all = store.articles_after(0, at(0), 100).await.unwrap();
        assert_eq!(
            all.iter().map(|stored| stored.article.clone()).collect::<Vec<_>>(),
            [first.clone(), undated.clone(), later.clone(), both_new.clone()]
        );
        assert!(all.windows(2).all(|pair| pair[0].id < pair[1].id));
        let after_first = store.articles_after(all[0].id, at(0), 2).await.unwrap();
        assert_eq!(after_first.len(), 2);
        assert_eq!(after_first[0].article, undated);
        let recent = store.articles_after(0, at(250), 100).await.unwrap();
        assert_eq!(
            recent
                .iter()
                .map(|stored| stored.article.url.as_str())
                .collect::<Vec<_>>(),
            ["https://npr.org/b", "https://npr.org/c"],
            "dated by publication, or fetch when undated"
        );
        assert_eq!(
            store.recent_articles(at(250)).await.unwrap(),
            [
                ("https://npr.org/b".to_owned(), "Bitcoin reaches a record".to_owned()),
                ("https://npr.org/c".to_owned(), "Chiefs win the Super Bowl".to_owned())
            ]
        );

        assert_eq!(store.age_out_articles(at(250)).await.unwrap(), 2);
        assert_eq!(store.articles_after(0, at(0), 100).await.unwrap().len(), 2);
        assert_eq!(
            store.insert_articles(std::slice::from_ref(&first)).await.unwrap(),
            1,
            "an aged-out article may come back"
        );
    }
}

#[tokio::test]
async fn feed_polls_keep_the_last_success_and_the_last_error() {
    for backend in backends().await {
        let store = &backend.store;
        let poll = |at_second: i64, error: Option<&str>, added: u64| FeedPoll {
            url: "https://feeds.npr.org/1001/rss.xml".to_owned(),
            polled_at: at(at_second),
            error: error.map(str::to_owned),
            articles_added: added,
        };
        store.record_feed_poll(&poll(10, None, 7)).await.unwrap();
        store.record_feed_poll(&poll(20, Some("HTTP 503"), 0)).await.unwrap();
        let statuses = store.feed_statuses().await.unwrap();
        assert_eq!(statuses.len(), 1, "{}", backend.name);
        let status = &statuses[0];
        assert_eq!(status.last_polled_at, at(20));
        assert_eq!(status.last_success_at, Some(at(10)));
        assert_eq!(status.last_error.as_deref(), Some("HTTP 503"));
        assert_eq!(status.articles_added, 7, "what the last success added");
        store.record_feed_poll(&poll(30, None, 2)).await.unwrap();
        let status = &store.feed_statuses().await.unwrap()[0];
        assert_eq!(
            (
                status.last_success_at,
                status.last_error.as_deref(),
                status.articles_added
            ),
            (Some(at(30)), None, 2)
        );
    }
}
