//! The news step of explain over every recorded feed, as the integrated service will run it:
//! deduplicate, index, search a market's query at a moment, and take key factors from what
//! was found. Key factors come only from articles about the market; a market without news
//! gets none.

use std::fs;
use std::path::Path;

use chrono::TimeDelta;
use marketlens_domain::article::Article;
use marketlens_domain::text::words;
use marketlens_domain::time::{Timestamp, from_epoch_millis};
use marketlens_news::{
    FactorSource, FeedError, IndexedArticle, KeyFactor, MAX_KEY_FACTORS, NewsIndex, NewsQuery, Recency, deduplicate,
    key_factors, parse_feed,
};

struct News {
    articles: Vec<Article>,
    index: NewsIndex,
}

fn news() -> News {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo-data/news");
    let mut articles = Vec::new();
    for entry in fs::read_dir(directory).unwrap() {
        let bytes = fs::read(entry.unwrap().path()).unwrap();
        match parse_feed(&bytes, "https://feeds.example/", from_epoch_millis(1_767_225_600_000)) {
            Ok(feed) => articles.extend(feed.articles),
            Err(FeedError::Truncated { recovered }) => articles.extend(recovered.articles),
            Err(_) => {}
        }
    }
    let (articles, _) = deduplicate(articles);
    let index = NewsIndex::build(articles.iter().enumerate().map(|(id, article)| IndexedArticle {
        id: id as i64,
        title: &article.title,
        summary: &article.summary,
        dated_at: article.dated_at(),
    }));
    News { articles, index }
}

fn at(iso: &str) -> Timestamp {
    chrono::DateTime::parse_from_rfc3339(iso).unwrap().to_utc()
}

/// The key factors for a market at `now`, with the articles they came from.
fn explain<'a>(
    news: &'a News,
    question: &str,
    event_title: Option<&str>,
    now: Timestamp,
) -> Vec<(KeyFactor, &'a Article)> {
    let query = NewsQuery::for_market(question, event_title);
    let recency = Recency {
        now,
        max_age: TimeDelta::days(14),
    };
    let found = news.index.search(&query, recency, 20);
    assert!(found.total >= found.best.len());
    let sources: Vec<FactorSource> = found
        .best
        .iter()
        .map(|ranked| {
            let article = &news.articles[ranked.id as usize];
            FactorSource {
                id: ranked.id,
                title: &article.title,
                summary: &article.summary,
            }
        })
        .collect();
    let factors = key_factors(&query, &sources, MAX_KEY_FACTORS);
    println!("{question}");
    factors
        .into_iter()
        .map(|factor| {
            let article = &news.articles[factor.article_id as usize];
            println!("  - {} ({}, {})", factor.text, article.publisher, article.url);
            (factor, article)
        })
        .collect()
}

fn names_any(text: &str, spellings: &[&str]) -> bool {
    let text_words: Vec<String> = words(text).collect();
    spellings
        .iter()
        .any(|spelling| text_words.iter().any(|word| word == spelling))
}

#[test]
fn bitcoin_factors_come_from_bitcoin_news() {
    let news = news();
    let factors = explain(
        &news,
        "Will Bitcoin dip to $80,000 by December 31, 2025?",
        Some("What price will Bitcoin hit in 2025?"),
        at("2023-03-14T00:00:00Z"),
    );
    assert!(factors.len() >= 3, "{factors:?}");
    for (factor, article) in &factors {
        assert!(names_any(&factor.text, &["bitcoin", "btc"]), "{}", factor.text);
        assert!(article.url.contains("coindesk.com"), "{}", article.url);
    }
}

#[test]
fn an_ethereum_market_gets_no_bitcoin_story() {
    let news = news();
    let factors = explain(
        &news,
        "Will Ethereum hit $6,000 by December 31?",
        Some("What price will Ethereum hit in 2025?"),
        at("2023-03-14T00:00:00Z"),
    );
    assert!(!factors.is_empty());
    for (factor, article) in &factors {
        assert!(
            names_any(&factor.text, &["ethereum", "ether", "eth"]),
            "{}",
            factor.text
        );
        assert!(!article.title.starts_with("Bitcoin Bounces"), "{}", article.title);
    }
}

#[test]
fn politics_factors_name_the_person_asked_about() {
    let news = news();
    let hillary = explain(
        &news,
        "Will Hillary Clinton win the 2028 Democratic presidential nomination?",
        Some("Democratic Presidential Nominee 2028"),
        at("2016-06-15T00:00:00Z"),
    );
    assert!(!hillary.is_empty());
    assert!(hillary.iter().all(|(factor, _)| names_any(&factor.text, &["clinton"])));
    let chelsea = explain(
        &news,
        "Will Chelsea Clinton win the 2028 Democratic presidential nomination?",
        Some("Democratic Presidential Nominee 2028"),
        at("2016-06-15T00:00:00Z"),
    );
    assert!(chelsea.is_empty(), "{chelsea:?}");
}

#[test]
fn a_market_without_news_gets_no_factors() {
    let news = news();
    // The 2026 NCAA tournament: no recorded feed covers it.
    assert!(
        explain(
            &news,
            "Will Georgia win the College Basketball National Championship?",
            None,
            at("2026-03-15T00:00:00Z"),
        )
        .is_empty()
    );
    // Bitcoin news exists, but none is recent in 2026.
    assert!(
        explain(
            &news,
            "Will Bitcoin reach $150,000 by December 31, 2025?",
            None,
            at("2026-01-01T00:00:00Z")
        )
        .is_empty()
    );
}
