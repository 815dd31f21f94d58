//! News feed glue: any bytes as an RSS or Atom feed, then deduplicated and indexed as the
//! server does. It never panics, and every article kept has a title and a link.
#![no_main]

use chrono::{TimeZone, Utc};
use libfuzzer_sys::fuzz_target;
use marketlens_news::{IndexedArticle, NewsIndex, deduplicate, parse_feed};

fuzz_target!(|bytes: &[u8]| {
    let fetched_at = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap();
    let Ok(parsed) = parse_feed(bytes, "https://feed.example/rss.xml", fetched_at) else {
        return;
    };
    for article in &parsed.articles {
        assert!(
            !article.title.trim().is_empty(),
            "an article with no title: {article:?}"
        );
        assert!(!article.url.is_empty(), "an article with no link: {article:?}");
    }
    let (articles, _) = deduplicate(parsed.articles);
    let _ = NewsIndex::build(articles.iter().enumerate().map(|(position, article)| IndexedArticle {
        id: position as i64,
        title: &article.title,
        summary: &article.summary,
        dated_at: article.dated_at(),
    }));
});
