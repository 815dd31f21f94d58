//! Relevance precision and recall of the news index on a labelled sample that the tests keep:
//! `tests/data/relevance.jsonl`, 101 market/article pairs. Each names a real market of
//! `demo-data/` (file, id, question and event title as recorded), an article of
//! `demo-data/news/` (file and link), a label with its reason, including hard negatives
//! (a Bitcoin story for an Ethereum market, Hillary for Chelsea Clinton, the Chiefs rugby team
//! for the Kansas City Chiefs), and when the article appeared against the market's life.
//!
//! `label` judges content: "relevant" means the article reports on the market's subject in a
//! way a reader following that market would want to know; an article that shares words, or
//! names the subject in passing, is "irrelevant". `time` places the article's date against
//! the market's life as recorded: "during" from a week before it opened to two days after it
//! ended or resolved, else "before" or "after" (the first 53 pairs were labelled for content
//! on 2026-11-25; `time` and 48 more pairs, many of the right subject at the wrong time, a 2023
//! Bitcoin rally for a 2020 Bitcoin market, were added on 2026-11-26). An article is news for
//! the market, the answer the index should give, when it is relevant and during.
//!
//! Each pair is searched with "now" set an hour after the article's date and the default
//! 14-day window, so the window neither helps nor hurts; the market's life, read from its
//! recorded payload, then decides time. The figures are printed twice: without the life (the
//! rule before issue 20, every article of the window counts) and with it.
//!
//! The index is built over every recorded article (572 after deduplication), so each query
//! competes with all of them, as it would in a store.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use chrono::TimeDelta;
use marketlens_domain::Exchange;
use marketlens_domain::article::Article;
use marketlens_domain::time::from_epoch_millis;
use marketlens_news::{FeedError, IndexedArticle, MarketLife, NewsIndex, NewsQuery, Recency, deduplicate, parse_feed};
use serde::Deserialize;

/// The precision the index must keep on the sample, with each market's life: measured 0.857
/// (6 of 7) on 2026-11-26; without the life, the rule before, 0.273 (6 of 22).
const MIN_PRECISION: f64 = 0.8;
/// The recall it must keep: lower, because refusing is worth more than finding. Explain
/// without news says so; explain with the wrong news misleads. Measured 0.300 (6 of 20): the
/// positives of the market's own time are mostly stories that bear on a market without naming
/// its subject and predicate up front (tariff revenue in a story on tariffs' cost), which the
/// index's gates refuse by design.
const MIN_RECALL: f64 = 0.25;

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
    time: String,
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
        assert!(matches!(pair.time.as_str(), "before" | "during" | "after"));
        assert!(!pair.reason.is_empty());
    }
    assert!(pairs.len() >= 100);
    assert!(
        pairs
            .iter()
            .any(|pair| pair.label == "relevant" && pair.time != "during")
    );
}

/// The pair's market as its recorded payload has it, normalized as an import would.
fn life_of(pair: &LabelledPair) -> MarketLife {
    let exchange = if pair.market_file.contains("/kalshi/") {
        Exchange::Kalshi
    } else {
        Exchange::Polymarket
    };
    let bytes = fs::read(repository().join(&pair.market_file)).unwrap();
    let (_, normalized) = marketlens_exchanges::normalize(exchange, &bytes).unwrap();
    let market = normalized
        .markets
        .iter()
        .find(|market| market.external_id == pair.market_id)
        .unwrap_or_else(|| panic!("{} not in {}", pair.market_id, pair.market_file));
    MarketLife::of(market)
}

/// Precision and recall of the index on the pairs, each searched with the life `life_for`
/// gives it; prints the misses when `verbose`.
fn measure(
    index: &NewsIndex,
    articles: &[Article],
    pairs: &[LabelledPair],
    life_for: impl Fn(&LabelledPair) -> MarketLife,
    verbose: bool,
) -> (f64, f64, String) {
    let id_of: HashMap<&str, usize> = articles
        .iter()
        .enumerate()
        .map(|(position, article)| (article.url.as_str(), position))
        .collect();
    let (mut true_positives, mut false_positives, mut false_negatives, mut true_negatives) = (0, 0, 0, 0);
    for pair in pairs {
        let article_id = id_of[pair.article_url.as_str()];
        let recency = Recency {
            now: articles[article_id].dated_at() + TimeDelta::hours(1),
            max_age: TimeDelta::days(14),
        };
        let query = NewsQuery::for_market(&pair.question, pair.event_title.as_deref());
        let found = index
            .search(&query, recency, life_for(pair), usize::MAX)
            .best
            .iter()
            .any(|ranked| ranked.id == article_id as i64);
        let news = pair.label == "relevant" && pair.time == "during";
        match (found, news) {
            (true, true) => true_positives += 1,
            (true, false) => false_positives += 1,
            (false, true) => false_negatives += 1,
            (false, false) => true_negatives += 1,
        }
        if verbose && found != news {
            println!(
                "{}: {:?} / {:?}\n    {}, {} — {}",
                if found { "false positive" } else { "false negative" },
                pair.question,
                articles[article_id].title,
                pair.label,
                pair.time,
                pair.reason
            );
        }
    }
    let precision = f64::from(true_positives) / f64::from((true_positives + false_positives).max(1));
    let recall = f64::from(true_positives) / f64::from((true_positives + false_negatives).max(1));
    let counts = format!("TP {true_positives}, FP {false_positives}, FN {false_negatives}, TN {true_negatives}");
    (precision, recall, counts)
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
    let pairs = labelled_pairs();
    let (precision_before, recall_before, counts_before) =
        measure(&index, &articles, &pairs, |_| MarketLife::ANY, false);
    println!(
        "relevance on {} labelled pairs, any date of the window (the rule before issue 20): \
         precision {precision_before:.3}, recall {recall_before:.3} ({counts_before})",
        pairs.len()
    );
    let (precision, recall, counts) = measure(&index, &articles, &pairs, life_of, true);
    println!(
        "relevance on {} labelled pairs, the market's own time: precision {precision:.3}, \
         recall {recall:.3} ({counts})",
        pairs.len()
    );
    assert!(
        precision >= MIN_PRECISION,
        "precision {precision:.3} below {MIN_PRECISION}"
    );
    assert!(recall >= MIN_RECALL, "recall {recall:.3} below {MIN_RECALL}");
}
