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
    FactorSource, FeedError, IndexedArticle, KeyFactor, MAX_KEY_FACTORS, MarketLife, NewsIndex, NewsQuery, Recency,
    deduplicate, key_factors, parse_feed,
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

/// The key factors for a market at `now`, with the articles they came from: the articles of
/// the last 14 days, whatever the market's life (content alone decides).
fn explain<'a>(
    news: &'a News,
    question: &str,
    event_title: Option<&str>,
    now: Timestamp,
) -> Vec<(KeyFactor, &'a Article)> {
    let recency = Recency {
        now,
        max_age: TimeDelta::days(14),
    };
    explain_during(news, question, event_title, recency, MarketLife::ANY)
}

/// The key factors for a market that lived `life`, with the articles they came from.
fn explain_during<'a>(
    news: &'a News,
    question: &str,
    event_title: Option<&str>,
    recency: Recency,
    life: MarketLife,
) -> Vec<(KeyFactor, &'a Article)> {
    let query = NewsQuery::for_market(question, event_title);
    let found = news.index.search(&query, recency, life, 20);
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

#[test]
fn only_news_of_the_market_s_own_time_counts() {
    let news = news();
    // As the demo serves it: every recorded article is within its century-long window.
    let demo = Recency {
        now: at("2026-04-09T00:00:00Z"),
        max_age: TimeDelta::days(36_525),
    };
    let patriots = "Will the New England Patriots win Super Bowl 2026?";
    let patriots_life = MarketLife {
        opened: Some(at("2025-04-30T10:43:15Z")),
        ended: Some(at("2026-02-08T12:00:00Z")),
    };
    // A 2012 trade names the Patriots, but is no news of the 2025-26 season.
    assert!(!explain_during(&news, patriots, None, demo, MarketLife::ANY).is_empty());
    assert!(explain_during(&news, patriots, None, demo, patriots_life).is_empty());

    let bitcoin = "Will Bitcoin reach $150,000 by December 31, 2025?";
    let bitcoin_life = MarketLife {
        opened: Some(at("2024-12-30T20:44:03Z")),
        ended: Some(at("2025-12-31T12:00:00Z")),
    };
    let any_time = explain_during(&news, bitcoin, None, demo, MarketLife::ANY);
    assert!(any_time.iter().any(|(_, article)| article.url.contains("coindesk.com")));
    // Of its time there is only the March 2025 crypto reserve story, which is not about the
    // price: no key factor rather than a 2023 bank run.
    let its_time = explain_during(&news, bitcoin, None, demo, bitcoin_life);
    for (_, article) in &its_time {
        let published = article.published_at.unwrap();
        assert!(published.format("%Y").to_string() == "2025", "{}", article.url);
    }
}
