//! How fast explain's news step is at 100,000 stored articles.
//!
//! ```sh
//! cargo run --release -p marketlens-news --example news_bench
//! ```
//!
//! Builds 100,000 articles deterministically by recombining the headlines and sentences of
//! every recorded feed in `demo-data/news/` (so the words and their frequencies are those of
//! real news), all dated within the 14-day window (the worst case: every article is a
//! candidate). Then, for every market question and event title recorded in
//! `demo-data/polymarket/` and `demo-data/kalshi/`, it times what explain does: derive the
//! query, search the index, and extract key factors from the top articles. Prints the index
//! build time, the process's resident memory before and after building, and the latency
//! percentiles.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use chrono::TimeDelta;
use marketlens_domain::article::Article;
use marketlens_domain::time::{Timestamp, from_epoch_millis};
use marketlens_news::sentences::sentences;
use marketlens_news::{
    FactorSource, FeedError, IndexedArticle, MAX_KEY_FACTORS, MarketLife, NewsIndex, NewsQuery, Recency, key_factors,
    parse_feed,
};

const ARTICLES: usize = 100_000;
/// How many ranked articles explain reads back from the store for key factors.
const RANKED_FOR_FACTORS: usize = 20;

/// A small deterministic generator (SplitMix64), so every run builds the same articles.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut mixed = self.0;
        mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        mixed ^ (mixed >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn recorded_articles() -> Vec<Article> {
    let fetched_at = from_epoch_millis(1_767_225_600_000);
    let mut articles = Vec::new();
    for entry in fs::read_dir(repository().join("demo-data/news")).unwrap() {
        let path = entry.unwrap().path();
        let bytes = fs::read(&path).unwrap();
        match parse_feed(&bytes, "https://feeds.example/", fetched_at) {
            Ok(feed) => articles.extend(feed.articles),
            Err(FeedError::Truncated { recovered }) => articles.extend(recovered.articles),
            Err(_) => {}
        }
    }
    articles
}

/// Every market question with its event title (if it has one) in the recorded payloads.
fn recorded_questions() -> Vec<(String, Option<String>)> {
    let mut questions = Vec::new();
    for exchange in ["polymarket", "kalshi"] {
        for entry in fs::read_dir(repository().join("demo-data").join(exchange)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|extension| extension != "json") {
                continue;
            }
            let value: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
            collect_questions(&value, None, &mut questions);
        }
    }
    questions.sort();
    questions.dedup();
    questions
}

fn collect_questions(
    value: &serde_json::Value,
    event_title: Option<&str>,
    questions: &mut Vec<(String, Option<String>)>,
) {
    match value {
        serde_json::Value::Array(items) => items
            .iter()
            .for_each(|item| collect_questions(item, event_title, questions)),
        serde_json::Value::Object(fields) => {
            let question = fields
                .get("question")
                .or_else(|| fields.get("title"))
                .and_then(|q| q.as_str());
            let nested_title = fields
                .get("events")
                .and_then(|events| events.get(0))
                .and_then(|event| event.get("title"))
                .and_then(|title| title.as_str())
                .or(event_title);
            if let Some(question) = question {
                questions.push((question.to_owned(), nested_title.map(str::to_owned)));
            }
            for (key, nested) in fields {
                if matches!(key.as_str(), "markets" | "events" | "series") && nested.is_array() {
                    collect_questions(nested, question.or(event_title), questions);
                }
            }
        }
        _ => {}
    }
}

fn resident_megabytes() -> f64 {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kilobytes| kilobytes / 1024.0)
}

fn percentile(sorted: &[f64], share: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * share).round() as usize]
}

fn main() {
    let recorded = recorded_articles();
    let titles: Vec<&str> = recorded.iter().map(|article| article.title.as_str()).collect();
    let pool: Vec<&str> = recorded
        .iter()
        .flat_map(|article| sentences(&article.summary))
        .filter(|sentence| sentence.len() > 40)
        .collect();
    let now: Timestamp = from_epoch_millis(1_767_225_600_000);
    let window_millis = TimeDelta::days(14).num_milliseconds() as u64;

    let mut random = SplitMix64(5);
    let synthetic: Vec<(String, String, Timestamp)> = (0..ARTICLES)
        .map(|_| {
            let title = titles[random.below(titles.len())].to_owned();
            let sentence_count = 2 + random.below(5);
            let summary = (0..sentence_count)
                .map(|_| pool[random.below(pool.len())])
                .collect::<Vec<_>>()
                .join(" ");
            let age = (random.next() % window_millis) as i64;
            (title, summary, from_epoch_millis(now.timestamp_millis() - age))
        })
        .collect();
    let average_chars = synthetic
        .iter()
        .map(|(title, summary, _)| title.len() + summary.len())
        .sum::<usize>()
        / ARTICLES;

    let before = resident_megabytes();
    let started = Instant::now();
    let index = NewsIndex::build(
        synthetic
            .iter()
            .enumerate()
            .map(|(id, (title, summary, dated_at))| IndexedArticle {
                id: id as i64,
                title,
                summary,
                dated_at: *dated_at,
            }),
    );
    let build_seconds = started.elapsed().as_secs_f64();
    let after = resident_megabytes();

    let questions = recorded_questions();
    let recency = Recency {
        now,
        max_age: TimeDelta::days(14),
    };
    let mut latencies: Vec<f64> = Vec::with_capacity(questions.len());
    let mut slowest: Vec<(f64, &str, usize)> = Vec::new();
    let mut with_news = 0;
    let mut factor_count = 0;
    for (question, event_title) in &questions {
        let started = Instant::now();
        let query = NewsQuery::for_market(question, event_title.as_deref());
        let found = index.search(&query, recency, MarketLife::ANY, RANKED_FOR_FACTORS);
        let sources: Vec<FactorSource> = found
            .best
            .iter()
            .map(|ranked| {
                let (title, summary, _) = &synthetic[ranked.id as usize];
                FactorSource {
                    id: ranked.id,
                    title,
                    summary,
                }
            })
            .collect();
        let factors = key_factors(&query, &sources, MAX_KEY_FACTORS);
        let milliseconds = started.elapsed().as_secs_f64() * 1000.0;
        latencies.push(milliseconds);
        slowest.push((milliseconds, question, found.total));
        with_news += usize::from(found.total > 0);
        factor_count += factors.len();
    }
    latencies.sort_by(f64::total_cmp);
    slowest.sort_by(|left, right| right.0.total_cmp(&left.0));

    println!(
        "articles: {} (average {average_chars} characters of text), from {} recorded",
        index.len(),
        recorded.len()
    );
    println!(
        "index build: {build_seconds:.2} s; resident memory {before:.0} MB before, {after:.0} MB after (index ≈ {:.0} MB)",
        after - before
    );
    println!(
        "queries: {} market questions, {with_news} with news, {factor_count} key factors in all",
        questions.len()
    );
    println!(
        "query + key factors: p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or_default()
    );
    for (milliseconds, question, found) in slowest.iter().take(3) {
        println!("  slowest: {milliseconds:.3} ms, {found} found: {question:?}");
    }
}
