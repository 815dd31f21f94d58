//! Synthetic news for benchmarks: any number of articles drawn from the recorded feeds, so that
//! explain's news index meets real words at their real frequencies.
//!
//! Each article takes the headline of a recorded article, with a serial number so that the
//! store keeps it (it refuses repeated headlines), and a summary of two to six sentences drawn
//! from all recorded summaries; it is dated at random within the last 14 days (the default
//! window: every article is a candidate, the worst case for explain). Deterministic for a
//! given seed and start time.

use chrono::TimeDelta;
use marketlens_domain::time::Timestamp;
use marketlens_news::Article;
use marketlens_news::sentences::sentences;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// How far back the synthetic articles are dated.
const SPREAD_DAYS: i64 = 14;

pub struct SyntheticNews {
    /// (headline, publisher) of every recorded article.
    headlines: Vec<(String, String)>,
    /// Every sentence of the recorded summaries long enough to say something.
    sentences: Vec<String>,
    random: Xoshiro256PlusPlus,
    now: Timestamp,
    serial: u64,
}

impl SyntheticNews {
    /// # Panics
    ///
    /// If `recorded` holds no article.
    pub fn new(recorded: &[Article], seed: u64, now: Timestamp) -> SyntheticNews {
        assert!(!recorded.is_empty(), "synthetic news needs recorded articles");
        SyntheticNews {
            headlines: recorded
                .iter()
                .map(|article| (article.title.clone(), article.publisher.clone()))
                .collect(),
            sentences: recorded
                .iter()
                .flat_map(|article| sentences(&article.summary))
                .filter(|sentence| sentence.len() > 40)
                .map(str::to_owned)
                .collect(),
            random: Xoshiro256PlusPlus::seed_from_u64(seed),
            now,
            serial: 0,
        }
    }

    pub fn next_article(&mut self) -> Article {
        self.serial += 1;
        let (headline, publisher) = &self.headlines[self.random.random_range(0..self.headlines.len())];
        let count = if self.sentences.is_empty() {
            0
        } else {
            self.random.random_range(2..=6)
        };
        let summary: Vec<&str> = (0..count)
            .map(|_| self.sentences[self.random.random_range(0..self.sentences.len())].as_str())
            .collect();
        let age = TimeDelta::seconds(self.random.random_range(0..SPREAD_DAYS * 86_400));
        Article {
            url: format!("https://news.example/synthetic/{}", self.serial),
            title: format!("{headline} ({})", self.serial),
            summary: summary.join(" "),
            publisher: publisher.clone(),
            published_at: Some(self.now - age),
            fetched_at: self.now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorded() -> Vec<Article> {
        let now = chrono::Utc::now();
        vec![Article {
            url: "https://news.example/a".into(),
            title: "Fed holds rates steady".into(),
            summary: "The Federal Reserve kept its benchmark rate unchanged on Wednesday. Officials signalled two cuts later this year, citing cooling inflation.".into(),
            publisher: "Wire".into(),
            published_at: Some(now),
            fetched_at: now,
        }]
    }

    #[test]
    fn articles_are_distinct_recent_and_deterministic() {
        let now = chrono::Utc::now();
        let mut first = SyntheticNews::new(&recorded(), 3, now);
        let mut second = SyntheticNews::new(&recorded(), 3, now);
        let articles: Vec<Article> = (0..50).map(|_| first.next_article()).collect();
        assert_eq!(articles, (0..50).map(|_| second.next_article()).collect::<Vec<_>>());
        let titles: std::collections::BTreeSet<&str> = articles.iter().map(|article| article.title.as_str()).collect();
        assert_eq!(titles.len(), 50);
        assert!(
            articles
                .iter()
                .all(|article| article.dated_at() >= now - TimeDelta::days(SPREAD_DAYS))
        );
        assert!(articles.iter().all(|article| !article.summary.is_empty()));
    }
}
