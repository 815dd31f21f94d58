//! Deduplication over the recorded feeds: a second poll of a feed is all repeats, the NPR
//! morning's two "5 takeaways from the 2025 elections" stories are one, and so are the few
//! stories the captures carry twice (checked by hand: the same event, other words).

use std::fs;
use std::path::Path;

use marketlens_domain::article::Article;
use marketlens_domain::time::from_epoch_millis;
use marketlens_news::{Deduplicator, FeedError, Repeat, deduplicate, parse_feed};

fn articles_of(file: &str) -> Vec<Article> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../demo-data/news")
        .join(file);
    match parse_feed(
        &fs::read(path).unwrap(),
        "https://feeds.example/",
        from_epoch_millis(1_767_225_600_000),
    ) {
        Ok(feed) => feed.articles,
        Err(FeedError::Truncated { recovered }) => recovered.articles,
        Err(error) => panic!("{file}: {error}"),
    }
}

#[test]
fn a_second_poll_is_all_repeats() {
    let mut deduplicator = Deduplicator::new();
    let first = articles_of("bbc-news-home-2020-08.xml");
    assert!(first.iter().all(|article| deduplicator.admit(article).is_none()));
    let second = articles_of("bbc-news-home-2020-08.xml");
    assert!(
        second
            .iter()
            .all(|article| deduplicator.admit(article) == Some(Repeat::SameUrl))
    );
}

#[test]
fn near_identical_npr_headlines_are_one_story() {
    let (kept, repeats) = deduplicate(articles_of("npr-news-elections-shutdown-2025-11.xml"));
    assert_eq!(repeats, 1);
    let takeaways: Vec<&str> = kept
        .iter()
        .map(|article| article.title.as_str())
        .filter(|title| title.contains("5 takeaways"))
        .collect();
    // The earlier of the two (10:00 UTC; the newsletter followed at 12:29) is kept.
    assert_eq!(
        takeaways,
        ["Democrats had a big night. Here are 5 takeaways from the 2025 elections"]
    );
}

#[test]
fn the_captures_repeat_only_the_same_stories() {
    let files = [
        "aljazeera-america-2016-02.xml",
        "arstechnica-tech-companies-2025-09.xml",
        "bbc-news-home-2020-08.xml",
        "cnbc-finance-fed-2019-07.xml",
        "cnn-international-2020-08.xml",
        "coindesk-crypto-2023-03.xml",
        "espn-nfl-2012-09.xml",
        "foxnews-latest-2020-08.xml",
        "foxnews-truncated-2020-05.xml",
        "guardian-sport-2016-06.xml",
        "guardian-us-politics-2018-01.xml",
        "npr-news-elections-shutdown-2025-11.xml",
        "npr-news-fed-crypto-2025-03.xml",
        "npr-news-superbowl-2025-02.xml",
        "nytimes-us-news-2020-08.xml",
        "tpm-politics-2017-11.atom",
        "uol-noticias-eleicoes-2018-09.xml",
        "vox-politics-2016-06.atom",
        "wsj-world-2020-08.xml",
    ];
    let all: Vec<Article> = files.iter().flat_map(|file| articles_of(file)).collect();
    let total = all.len();
    let (kept, repeats) = deduplicate(all);
    println!("{total} recorded articles, {} kept, {repeats} repeats", kept.len());
    assert_eq!(total, 578);
    // NPR's takeaways; the National Zoo panda (NYT, CNN); Jack Sherman's death (BBC, Fox);
    // Hong Kong's minorities (CNN twice); Stormy Daniels on Kimmel (Guardian article and
    // video); UOL's "Match Eleitoral" (twice, verbatim).
    assert_eq!(repeats, 6);
}
