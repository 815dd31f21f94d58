//! News feed glue: any bytes as an RSS or Atom feed, then deduplicated and indexed as the
//! server does. Beyond not panicking: deduplication keeps or counts every article and keeps
//! no URL twice, and the index holds every article kept.
#![no_main]

use std::collections::HashSet;

use chrono::{TimeZone, Utc};
use libfuzzer_sys::fuzz_target;
use marketlens_news::{IndexedArticle, NewsIndex, deduplicate, parse_feed};

fuzz_target!(|bytes: &[u8]| {
    let fetched_at = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap();
    let Ok(parsed) = parse_feed(bytes, "https://feed.example/rss.xml", fetched_at) else {
        return;
    };
    let parsed_count = parsed.articles.len();
    let (articles, dropped) = deduplicate(parsed.articles);
    assert_eq!(articles.len() + dropped, parsed_count, "articles lost in deduplication");
    let mut urls = HashSet::new();
    assert!(
        articles.iter().all(|article| urls.insert(article.url.as_str())),
        "a URL kept twice"
    );
    let index = NewsIndex::build(articles.iter().enumerate().map(|(position, article)| IndexedArticle {
        id: position as i64,
        title: &article.title,
        summary: &article.summary,
        dated_at: article.dated_at(),
    }));
    assert_eq!(index.len(), articles.len(), "the index lost articles");
});
