//! Relevance precision and recall of the news index on a labelled sample that the tests keep:
//! `tests/data/relevance.jsonl`, 53 market/article pairs. Each names a real market of
//! `demo-data/` (file, id, question and event title as recorded), an article of
//! `demo-data/news/` (file and link) and a label with its reason, including hard negatives
//! (a Bitcoin story for an Ethereum market, Hillary for Chelsea Clinton, the Chiefs rugby team
//! for the Kansas City Chiefs).
//!
//! Labels judge content only: "relevant" means the article reports on the market's subject
//! in a way a reader following that market would want to know; an article that shares
//! words, or names the subject in passing, is "irrelevant". Time is not judged, because the
//! feeds are dated 2012–2025 and the markets 2020–2026: each pair is searched with "now" set
//! an hour after the article's date and the default 14-day window, so the window neither
//! helps nor hurts, and the recency rule is tested on its own in the index's unit tests.
//!
//! The index is built over every recorded article (572 after deduplication), so each query
//! competes with all of them, as it would in a store.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use chrono::TimeDelta;
use marketlens_domain::article::Article;
use marketlens_domain::time::from_epoch_millis;
use marketlens_news::{FeedError, IndexedArticle, NewsIndex, NewsQuery, Recency, deduplicate, parse_feed};
use serde::Deserialize;

/// The precision the index must keep on the sample.
const MIN_PRECISION: f64 = 0.9;
/// The recall it must keep: lower, because refusing is worth more than finding. Explain
/// without news says so; explain with the wrong news misleads.
const MIN_RECALL: f64 = 0.5;

#[derive(Deserialize)]
struct LabelledPair {
    market_file: String,
    market_id: String,
    question: String,
    event_title: Option<String>,
    article_file: String,
    article_url: String,
    label: String,
    reason: String,
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn every_recorded_article() -> Vec<Article> {
    let fetched_at = from_epoch_millis(1_767_225_600_000);
    let mut articles = Vec::new();
    let mut files: Vec<PathBuf> = fs::read_dir(repository().join("demo-data/news"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension != "md"))
        .collect();
    files.sort();
    for path in files {
        let bytes = fs::read(&path).unwrap();
        match parse_feed(&bytes, "https://feeds.example/", fetched_at) {
            Ok(feed) => articles.extend(feed.articles),
            Err(FeedError::Truncated { recovered }) => articles.extend(recovered.articles),
            Err(_) => {}
        }
    }
    deduplicate(articles).0
}

fn labelled_pairs() -> Vec<LabelledPair> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/relevance.jsonl");
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn the_sample_names_real_markets_and_articles() {
    let articles = every_recorded_article();
    let pairs = labelled_pairs();
    assert!(pairs.len() >= 30);
    for pair in &pairs {
        let market_file = fs::read_to_string(repository().join(&pair.market_file)).unwrap();
        assert!(market_file.contains(&pair.market_id), "{}", pair.market_id);
        assert!(
            market_file.contains(&pair.question.replace('"', "\\\"")),
            "{}",
            pair.question
        );
        assert!(pair.article_file.starts_with("demo-data/news/"));
        assert!(
            articles.iter().any(|article| article.url == pair.article_url),
            "{}",
            pair.article_url
        );
        assert!(matches!(pair.label.as_str(), "relevant" | "irrelevant"));
        assert!(!pair.reason.is_empty());
    }
}

#[test]
fn precision_and_recall_on_the_labelled_sample() {
    let articles = every_recorded_article();
    let index = NewsIndex::build(articles.iter().enumerate().map(|(position, article)| IndexedArticle {
        id: position as i64,
        title: &article.title,
        summary: &article.summary,
        dated_at: article.dated_at(),
    }));
    let id_of: HashMap<&str, usize> = articles
        .iter()
        .enumerate()
        .map(|(position, article)| (article.url.as_str(), position))
        .collect();

    let (mut true_positives, mut false_positives, mut false_negatives, mut true_negatives) = (0, 0, 0, 0);
    for pair in labelled_pairs() {
        let article_id = id_of[pair.article_url.as_str()];
        let recency = Recency {
            now: articles[article_id].dated_at() + TimeDelta::hours(1),
            max_age: TimeDelta::days(14),
        };
        let query = NewsQuery::for_market(&pair.question, pair.event_title.as_deref());
        let found = index
            .search(&query, recency, usize::MAX)
            .best
            .iter()
            .any(|ranked| ranked.id == article_id as i64);
        let relevant = pair.label == "relevant";
        match (found, relevant) {
            (true, true) => true_positives += 1,
            (true, false) => false_positives += 1,
            (false, true) => false_negatives += 1,
            (false, false) => true_negatives += 1,
        }
        if found != relevant {
            println!(
                "{}: {:?} / {:?}\n    {} — {}",
                if found { "false positive" } else { "false negative" },
                pair.question,
                articles[article_id].title,
                pair.label,
                pair.reason
            );
        }
    }
    let precision = f64::from(true_positives) / f64::from((true_positives + false_positives).max(1));
    let recall = f64::from(true_positives) / f64::from((true_positives + false_negatives).max(1));
    println!(
        "relevance on {} labelled pairs: precision {precision:.3}, recall {recall:.3} \
         (TP {true_positives}, FP {false_positives}, FN {false_negatives}, TN {true_negatives})",
        true_positives + false_positives + false_negatives + true_negatives
    );
    assert!(
        precision >= MIN_PRECISION,
        "precision {precision:.3} below {MIN_PRECISION}"
    );
    assert!(recall >= MIN_RECALL, "recall {recall:.3} below {MIN_RECALL}");
}
