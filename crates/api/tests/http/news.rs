//! Explain's news: key factors only from recent articles about the market, each traceable to
//! a `news-feed` source; none, and a summary that says so, when there is no news.

use chrono::{TimeDelta, Utc};
use marketlens_domain::article::Article;
use serde_json::Value;
use std::collections::BTreeSet;

use crate::TestServer;

fn article(url: &str, title: &str, summary: &str, age: TimeDelta) -> Article {
    let now = Utc::now();
    Article {
        url: url.to_owned(),
        title: title.to_owned(),
        summary: summary.to_owned(),
        publisher: "Test Wire".to_owned(),
        published_at: Some(now - age),
        fetched_at: now,
    }
}

pub(crate) fn news() -> Vec<Article> {
    let hours = TimeDelta::hours;
    vec![
        article(
            "https://news.example/btc-rally",
            "Bitcoin climbs toward $100k as ETF inflows accelerate",
            "Bitcoin rose 4% on Tuesday as exchange-traded funds took in record sums. Traders now price \
             a test of $100,000 before the end of the year.",
            hours(3),
        ),
        article(
            "https://news.example/btc-miners",
            "Bitcoin miners sell reserves after the halving squeezes margins",
            "Publicly listed bitcoin miners sold more coins than they mined in November, analysts said.",
            hours(30),
        ),
        article(
            "https://news.example/eth-upgrade",
            "Ethereum developers set a date for the next network upgrade",
            "Ethereum's core developers agreed on a March date for the upgrade, which cuts fees for rollups.",
            hours(5),
        ),
        article(
            "https://news.example/fed-minutes",
            "Fed minutes show officials split on a March rate cut",
            "Federal Reserve officials were divided over whether to cut rates in March, the minutes showed.",
            hours(8),
        ),
        article(
            "https://news.example/btc-2019",
            "Bitcoin halves in a day as crypto lenders fail",
            "An old story: bitcoin lost half its value as lenders froze withdrawals.",
            TimeDelta::days(40),
        ),
    ]
}

fn news_sources(data: &Value) -> Vec<&Value> {
    data["sources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|source| source["type"] == "news-feed")
        .collect()
}

#[tokio::test]
async fn key_factors_come_only_from_recent_articles_about_the_market() {
    let server = TestServer::start().await;
    server.add_news(&news()).await;
    let key = server.key().await;
    let (status, body) = server
        .get("/api/v1/explain?query=bitcoin%20100k%20december", &key)
        .await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    let factors: Vec<&str> = data["keyFactors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|factor| factor.as_str().unwrap())
        .collect();
    assert!(!factors.is_empty(), "{body}");
    assert!(factors.len() <= 5, "{body}");
    assert_eq!(
        factors.iter().collect::<BTreeSet<_>>().len(),
        factors.len(),
        "distinct: {body}"
    );
    for factor in &factors {
        assert!(
            !factor.contains("Ethereum") && !factor.contains("Fed"),
            "not about this market: {factor}"
        );
        assert!(
            !factor.contains("old story") && !factor.contains("halves in a day"),
            "too old: {factor}"
        );
    }
    let sources = news_sources(data);
    assert!(!sources.is_empty(), "{body}");
    let urls: BTreeSet<&str> = sources.iter().map(|source| source["url"].as_str().unwrap()).collect();
    assert!(urls.contains("https://news.example/btc-rally"), "{body}");
    assert!(
        urls.iter()
            .all(|url| url.starts_with("https://news.example/btc-") && *url != "https://news.example/btc-2019"),
        "{body}"
    );
    for source in &sources {
        let fields: BTreeSet<&str> = source.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            fields,
            BTreeSet::from(["type", "title", "url", "publisher", "publishedAt"])
        );
        assert_eq!(source["publisher"], "Test Wire");
        assert!(chrono::DateTime::parse_from_rfc3339(source["publishedAt"].as_str().unwrap()).is_ok());
    }
    // Every factor is traceable: it is a sentence or the headline of a cited article.
    let cited: Vec<String> = news()
        .into_iter()
        .filter(|article| urls.contains(article.url.as_str()))
        .map(|article| format!("{} {}", article.title, article.summary))
        .collect();
    for factor in &factors {
        let stem = factor.trim_end_matches(['.', '…']);
        assert!(
            cited.iter().any(|text| text.contains(stem)),
            "untraceable factor {factor:?}"
        );
    }
    let summary = data["summary"].as_str().unwrap();
    // The miners' story is about Bitcoin but not about its price reaching a level.
    assert!(
        summary.ends_with("1 news article about it from the market's time was found."),
        "{summary}"
    );
}

#[tokio::test]
async fn a_market_without_news_gets_no_factors_and_a_summary_that_says_so() {
    let server = TestServer::start().await;
    server.add_news(&news()).await;
    let key = server.key().await;
    let (status, body) = server.get("/api/v1/explain?query=pokemon%20legends", &key).await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(
        data["market"]["question"],
        "Will Pokémon Legends Z-A sell 10 million copies?"
    );
    assert_eq!(data["keyFactors"], serde_json::json!([]));
    assert!(news_sources(data).is_empty(), "{body}");
    assert_eq!(data["sources"][0]["type"], "market-db");
    assert!(
        data["summary"]
            .as_str()
            .unwrap()
            .ends_with("No news articles about this market from its time were found."),
        "{body}"
    );
}

#[tokio::test]
async fn a_resolved_market_gets_no_news_from_after_its_time() {
    let server = TestServer::start().await;
    server.add_news(&news()).await;
    let key = server.key().await;
    let (status, body) = server
        .get("/api/v1/explain?query=fed%20cut%20rates%20march", &key)
        .await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["market"]["question"], "Will the Fed cut rates in March 2026?");
    // The market resolved on December 2, 2025: today's minutes, about its subject, are news
    // of another time.
    assert_eq!(data["market"]["status"], "closed");
    assert!(news_sources(data).is_empty(), "{body}");
    assert!(
        data["summary"]
            .as_str()
            .unwrap()
            .ends_with("No news articles about this market from its time were found."),
        "{body}"
    );
}

#[tokio::test]
async fn at_most_five_distinct_factors_however_much_news() {
    let server = TestServer::start().await;
    let headlines = [
        "Bitcoin nears $100k as funds pile in",
        "Options traders bet on bitcoin reaching $100k by December",
        "Bitcoin slips from record, still eyes $100k",
        "Miners hoard bitcoin ahead of a run at $100k",
        "Analysts split on whether bitcoin can reach $100k this year",
        "Bitcoin ETF demand could lift the price to $100k, bank says",
        "Retail buyers return as bitcoin approaches $100k",
        "Bitcoin rally to $100k faces a wall of sellers",
    ];
    let many: Vec<Article> = headlines
        .iter()
        .zip(1..)
        .map(|(headline, number)| {
            article(
                &format!("https://news.example/btc-{number}"),
                headline,
                "",
                TimeDelta::hours(number),
            )
        })
        .collect();
    server.add_news(&many).await;
    let key = server.key().await;
    let (status, body) = server
        .get("/api/v1/explain?query=bitcoin%20100k%20december", &key)
        .await;
    assert_eq!(status, 200, "{body}");
    let factors = body["data"]["keyFactors"].as_array().unwrap();
    assert_eq!(factors.len(), 5, "{body}");
    let summary = body["data"]["summary"].as_str().unwrap();
    assert!(
        summary.contains(" news articles about it from the market's time were found."),
        "{summary}"
    );
    assert!(news_sources(&body["data"]).len() <= 5);
}
