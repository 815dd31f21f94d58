//! The relevance index: which recent articles concern a market, best first, and which do not.
//!
//! Scoring alone cannot refuse: an article about Bitcoin scores well for an Ethereum market on
//! "price" and "$4,000". So an article must first pass two gates, then it is scored.
//!
//! 1. **Subject.** It must name the query's subject entities (every word of one spelling, in
//!    its headline or lede: the first sentences of its summary, up to [`LEDE_CHARS`]) that
//!    carry at least [`SUBJECT_SHARE`] of their total weight. An entity weighs the inverse
//!    document frequency of its commonest spelling's words, doubled for the question's
//!    grammatical subject ("Will **X** …"). So of "Trump" and "Hillary Clinton" the rarer name
//!    decides, and a Trump article without Clinton is refused for "Will Trump jail Hillary
//!    Clinton?"; of "New England Patriots" and "Super Bowl", the Patriots must be named. News
//!    names its subject up front, so a name found only deep in an article is a mention in
//!    passing. A query without entities finds nothing.
//! 2. **Predicate.** It must hold one of the words the question says of its subject
//!    ([`NewsQuery::predicate`](crate::query::NewsQuery::predicate): "out" or "president" for "Putin out as President of
//!    Russia?"), with plurals and tenses; price words stand for one another. This refuses the
//!    story that names the subject for another reason (Bitcoin in a conference report for a
//!    Bitcoin price market). It costs recall, knowingly: a wrong key factor misleads, a
//!    missing one only says less (see `tests/relevance.rs` for the measured trade).
//!
//! Articles that pass are scored with BM25 over the query's words, the headline counting
//! [`TITLE_WEIGHT`] times (a simple BM25F), and the score halves every
//! [`RECENCY_HALF_LIFE_DAYS`] days of age, so the order is most relevant and most recent
//! first. Only articles dated within the recency window and within the market's own life
//! ([`MarketLife`]: from shortly before it opened to shortly after it ended) are considered,
//! so that a 2012 trade does not speak for a 2026 Super Bowl market, nor a 2023 bank run for a
//! 2025 Bitcoin price.
//!
//! BM25 is written here rather than taken from a crate: the crates that exist (`bm25`,
//! `tantivy`) either score whole collections through their own tokenizers or are full
//! search engines on disk, while this index needs our word folding
//! (`marketlens_domain::text::words`, shared with search and the matcher), the subject gate
//! and the recency window inside one pass over a few thousand candidates. The scoring itself
//! is a dozen lines.
//!
//! The index holds no text, only each article's id, date and word counts, so 100,000
//! articles fit in tens of megabytes; the store keeps the text. It is built once from the
//! store and then kept current: [`NewsIndex::insert`] as articles arrive, and
//! [`NewsIndex::age_out`] when they leave the window, which compacts the postings.

use std::collections::HashMap;

use chrono::TimeDelta;
use marketlens_domain::Market;
use marketlens_domain::text::words;
use marketlens_domain::time::Timestamp;

use crate::query::NewsQuery;
use crate::sentences::sentences;

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// BM25's length normalization.
const B: f64 = 0.75;
/// How many times a word of the headline counts against one of the summary.
pub const TITLE_WEIGHT: u32 = 3;
/// The share of the subjects' weight an article must name.
pub const SUBJECT_SHARE: f64 = 0.5;
/// How much of the summary, in characters, is the lede: whole sentences, at least one.
pub const LEDE_CHARS: usize = 300;
/// Age at which an article's score is halved.
pub const RECENCY_HALF_LIFE_DAYS: f64 = 7.0;
/// How long before a market opened an article still counts for it: a market is often listed
/// days after the news that prompted it ("Will X be sentenced?" after the verdict).
pub const LIFE_LEAD_DAYS: i64 = 7;
/// How long after a market ended or resolved an article still counts for it: the reports of
/// its outcome, which come within a day or two.
pub const LIFE_TAIL_DAYS: i64 = 2;

/// An article as the index reads it.
#[derive(Debug, Clone, Copy)]
pub struct IndexedArticle<'a> {
    /// The store's id of the article.
    pub id: i64,
    pub title: &'a str,
    pub summary: &'a str,
    /// [`crate::Article::dated_at`].
    pub dated_at: Timestamp,
}

/// An article found for a query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankedArticle {
    pub id: i64,
    /// BM25 weighed by recency: comparable within one query's results only.
    pub score: f64,
    pub dated_at: Timestamp,
}

/// What a search found: how many recent articles passed, and the best of them.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Every recent article about the market: the count explain's summary states.
    pub total: usize,
    /// The best `limit` of them, best first.
    pub best: Vec<RankedArticle>,
}

/// Which articles count as recent: those dated in `[now - max_age, now]`.
#[derive(Debug, Clone, Copy)]
pub struct Recency {
    pub now: Timestamp,
    pub max_age: TimeDelta,
}

/// When a market lived, as its news is read: an article counts for it only if dated from
/// [`LIFE_LEAD_DAYS`] before it opened to [`LIFE_TAIL_DAYS`] after it ended. An end not
/// known, or not yet come, bounds nothing; nor does an unknown opening.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MarketLife {
    /// When the market opened: the earlier of its start and its creation on the exchange.
    pub opened: Option<Timestamp>,
    /// When it resolved, if the exchange says; otherwise its end date.
    pub ended: Option<Timestamp>,
}

impl MarketLife {
    /// No bounds: every article of the recency window counts.
    pub const ANY: MarketLife = MarketLife {
        opened: None,
        ended: None,
    };

    pub fn of(market: &Market) -> MarketLife {
        let opened = [market.start_date, market.created_at].into_iter().flatten().min();
        let resolved_at = market.resolution.as_ref().and_then(|resolution| resolution.resolved_at);
        MarketLife {
            opened,
            ended: resolved_at.or(market.end_date),
        }
    }

    /// The articles' dates that count, in epoch milliseconds: the recency window narrowed to
    /// the market's life (empty when they do not meet).
    fn bounds_millis(&self, recency: Recency) -> (i64, i64) {
        let mut start = recency.now - recency.max_age;
        let mut end = recency.now;
        // A date so far out that the margin overflows bounds nothing.
        if let Some(lead) = self
            .opened
            .and_then(|opened| opened.checked_sub_signed(TimeDelta::days(LIFE_LEAD_DAYS)))
        {
            start = start.max(lead);
        }
        if let Some(tail) = self
            .ended
            .and_then(|ended| ended.checked_add_signed(TimeDelta::days(LIFE_TAIL_DAYS)))
        {
            end = end.min(tail);
        }
        (start.timestamp_millis(), end.timestamp_millis())
    }
}

/// The opening sentences of `summary`: the first, and the next ones while they fit in
/// [`LEDE_CHARS`].
fn lede(summary: &str) -> String {
    let mut lede = String::new();
    for sentence in sentences(summary) {
        if !lede.is_empty() && lede.len() + sentence.len() > LEDE_CHARS {
            break;
        }
        lede.push_str(sentence);
        lede.push(' ');
    }
    lede
}

/// `word` and its regular inflections both ways: "cut" → "cuts", "withdraw" → "withdrawing";
/// "launches" → "launch". Crude, but enough to match a question's verb to an article's.
fn word_forms(word: &str) -> Vec<String> {
    let mut forms = vec![word.to_owned()];
    for suffix in ["s", "es", "ed", "d", "ing"] {
        forms.push(format!("{word}{suffix}"));
        if let Some(stem) = word.strip_suffix(suffix).filter(|stem| stem.len() >= 3) {
            forms.push(stem.to_owned());
        }
    }
    forms
}

#[derive(Debug, Clone)]
struct Document {
    id: i64,
    dated_at_millis: i64,
    /// Weighted word count (headline words count [`TITLE_WEIGHT`] times).
    length: u32,
    /// The article's words as term ids, sorted, each with its weighted frequency.
    terms: Box<[u32]>,
    frequencies: Box<[u16]>,
    /// The term ids of the headline and the lede, sorted: where the subject must be named.
    lede_terms: Box<[u32]>,
}

impl Document {
    fn frequency(&self, term: u32) -> Option<u16> {
        self.terms
            .binary_search(&term)
            .ok()
            .map(|position| self.frequencies[position])
    }

    fn names_in_lede(&self, term: u32) -> bool {
        self.lede_terms.binary_search(&term).is_ok()
    }
}

/// The relevance index over the stored articles.
#[derive(Debug, Clone, Default)]
pub struct NewsIndex {
    term_ids: HashMap<String, u32>,
    /// For each term id, the slots of the documents holding it, ascending.
    postings: Vec<Vec<u32>>,
    documents: Vec<Document>,
    total_length: u64,
}

impl NewsIndex {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn build<'a>(articles: impl IntoIterator<Item = IndexedArticle<'a>>) -> Self {
        let mut index = Self::new();
        for article in articles {
            index.insert(article);
        }
        index
    }

    pub fn len(&self) -> usize {
        self.documents.len()
    }

    pub fn is_empty(&self) -> bool {
        self.documents.is_empty()
    }

    /// Adds an article. An article is added once: the store deduplicates before this.
    pub fn insert(&mut self, article: IndexedArticle<'_>) {
        let mut counts: HashMap<u32, u32> = HashMap::new();
        let mut length = 0;
        for (text, weight) in [(article.title, TITLE_WEIGHT), (article.summary, 1)] {
            for word in words(text) {
                *counts.entry(self.term_id(word)).or_default() += weight;
                length += weight;
            }
        }
        let mut lede_terms: Vec<u32> = words(article.title)
            .chain(words(&lede(article.summary)))
            .map(|word| self.term_id(word))
            .collect();
        lede_terms.sort_unstable();
        lede_terms.dedup();
        let mut pairs: Vec<(u32, u32)> = counts.into_iter().collect();
        pairs.sort_unstable();
        let slot = u32::try_from(self.documents.len()).expect("fewer than 4 billion articles");
        for &(term, _) in &pairs {
            self.postings[term as usize].push(slot);
        }
        self.total_length += u64::from(length);
        self.documents.push(Document {
            id: article.id,
            dated_at_millis: article.dated_at.timestamp_millis(),
            length,
            terms: pairs.iter().map(|&(term, _)| term).collect(),
            frequencies: pairs
                .iter()
                .map(|&(_, frequency)| u16::try_from(frequency).unwrap_or(u16::MAX))
                .collect(),
            lede_terms: lede_terms.into(),
        });
    }

    /// Removes the articles dated before `cutoff` and compacts the postings; returns how
    /// many were removed. Costs one pass over the index, so call it now and then (hourly),
    /// not per request.
    pub fn age_out(&mut self, cutoff: Timestamp) -> usize {
        let cutoff_millis = cutoff.timestamp_millis();
        let before = self.documents.len();
        self.documents
            .retain(|document| document.dated_at_millis >= cutoff_millis);
        let removed = before - self.documents.len();
        if removed > 0 {
            for postings in &mut self.postings {
                postings.clear();
            }
            for (slot, document) in self.documents.iter().enumerate() {
                for &term in &document.terms {
                    self.postings[term as usize].push(slot as u32);
                }
            }
            self.total_length = self.documents.iter().map(|document| u64::from(document.length)).sum();
        }
        removed
    }

    /// The recent articles about `query`'s subject from the market's `life`: how many, and
    /// the best `limit`. Age is counted from the end of that time: the newest articles of a
    /// market that ended long ago rank first among its own.
    pub fn search(&self, query: &NewsQuery, recency: Recency, life: MarketLife, limit: usize) -> Found {
        let (window_start, window_end) = life.bounds_millis(recency);
        let is_recent = |document: &Document| (window_start..=window_end).contains(&document.dated_at_millis);

        // Each entity as its spellings' term ids (a spelling with an unknown word can match
        // nothing), weighted by the inverse document frequency of its rarest spelling.
        let entities: Vec<(Vec<Vec<u32>>, f64)> = query
            .entities
            .iter()
            .enumerate()
            .map(|(position, entity)| {
                let spellings: Vec<Vec<u32>> = entity
                    .spellings
                    .iter()
                    .filter_map(|spelling| spelling.iter().map(|word| self.term_ids.get(word).copied()).collect())
                    .collect();
                // The commonest spelling says how specific the subject is ("BTC" is rarer
                // than "bitcoin", but names the same thing).
                let weight = entity
                    .spellings
                    .iter()
                    .map(|spelling| spelling.iter().map(|word| self.idf_of_word(word)).sum::<f64>())
                    .fold(f64::INFINITY, f64::min);
                let leading = if position == 0 && query.leading_subject {
                    2.0
                } else {
                    1.0
                };
                (spellings, leading * weight)
            })
            .collect();
        let total_weight: f64 = entities.iter().map(|(_, weight)| weight).sum();
        if total_weight <= 0.0 {
            return Found {
                total: 0,
                best: Vec::new(),
            };
        }
        let names = |document: &Document, spellings: &[Vec<u32>]| {
            spellings
                .iter()
                .any(|spelling| spelling.iter().all(|&term| document.names_in_lede(term)))
        };

        // Each predicate word with its plurals and tenses, as term ids the index holds.
        let predicate_terms: Vec<u32> = query
            .predicate
            .iter()
            .flat_map(|word| word_forms(word))
            .filter_map(|form| self.term_ids.get(&form).copied())
            .collect();
        let says_predicate = |document: &Document| {
            query.predicate.is_empty() || predicate_terms.iter().any(|&term| document.frequency(term).is_some())
        };

        // Candidates: every article that passes holds the rarest word of a spelling of some
        // entity (of a required entity, one the others cannot outweigh, when there is one),
        // and a predicate word. Both lists are merged through a bitmap, so the gates below
        // run only on articles that hold both.
        let required = entities
            .iter()
            .find(|(_, weight)| total_weight - weight < SUBJECT_SHARE * total_weight);
        let subject_lists: Vec<&[u32]> = match required {
            Some(entity) => self.rarest_word_lists(std::slice::from_ref(entity)),
            None => self.rarest_word_lists(&entities),
        };
        let mut candidates: Vec<u32> = if query.predicate.is_empty() {
            subject_lists.into_iter().flatten().copied().collect()
        } else {
            let mut holds_predicate = vec![false; self.documents.len()];
            for &term in &predicate_terms {
                for &slot in &self.postings[term as usize] {
                    holds_predicate[slot as usize] = true;
                }
            }
            subject_lists
                .into_iter()
                .flatten()
                .copied()
                .filter(|&slot| holds_predicate[slot as usize])
                .collect()
        };
        candidates.sort_unstable();
        candidates.dedup();

        let scored_terms: Vec<(u32, f64)> = query
            .terms
            .iter()
            .filter_map(|word| self.term_ids.get(word).map(|&term| (term, self.idf(term))))
            .collect();
        let average_length = self.total_length as f64 / self.documents.len().max(1) as f64;
        let mut ranked: Vec<RankedArticle> = candidates
            .into_iter()
            .map(|slot| &self.documents[slot as usize])
            .filter(|document| is_recent(document))
            .filter(|document| {
                let named: f64 = entities
                    .iter()
                    .filter(|(spellings, _)| names(document, spellings))
                    .map(|(_, weight)| weight)
                    .sum();
                named >= SUBJECT_SHARE * total_weight
            })
            .filter(|document| says_predicate(document))
            .map(|document| {
                let length_norm = K1 * (1.0 - B + B * f64::from(document.length) / average_length);
                let bm25: f64 = scored_terms
                    .iter()
                    .filter_map(|&(term, idf)| {
                        let frequency = f64::from(document.frequency(term)?);
                        Some(idf * frequency * (K1 + 1.0) / (frequency + length_norm))
                    })
                    .sum();
                let age_days = (window_end - document.dated_at_millis) as f64 / 86_400_000.0;
                RankedArticle {
                    id: document.id,
                    score: bm25 * 0.5f64.powf(age_days / RECENCY_HALF_LIFE_DAYS),
                    dated_at: chrono::DateTime::from_timestamp_millis(document.dated_at_millis).unwrap_or_default(),
                }
            })
            .collect();
        ranked.sort_by(|left, right| {
            right
                .score
                .total_cmp(&left.score)
                .then(right.dated_at.cmp(&left.dated_at))
                .then(left.id.cmp(&right.id))
        });
        let total = ranked.len();
        ranked.truncate(limit);
        Found { total, best: ranked }
    }

    /// For each spelling of each entity, the postings of its rarest word.
    fn rarest_word_lists(&self, entities: &[(Vec<Vec<u32>>, f64)]) -> Vec<&[u32]> {
        entities
            .iter()
            .flat_map(|(spellings, _)| spellings)
            .filter_map(|spelling| {
                spelling
                    .iter()
                    .map(|&term| self.postings[term as usize].as_slice())
                    .min_by_key(|list| list.len())
            })
            .collect()
    }

    fn term_id(&mut self, word: String) -> u32 {
        if let Some(&term) = self.term_ids.get(&word) {
            return term;
        }
        let term = u32::try_from(self.postings.len()).expect("fewer than 4 billion words");
        self.term_ids.insert(word, term);
        self.postings.push(Vec::new());
        term
    }

    /// BM25's inverse document frequency, always positive.
    fn idf(&self, term: u32) -> f64 {
        let documents = self.documents.len() as f64;
        let frequency = self.postings[term as usize].len() as f64;
        ((documents - frequency + 0.5) / (frequency + 0.5) + 1.0).ln()
    }

    /// [`Self::idf`] of a word, as if in no document when the index has never seen it.
    fn idf_of_word(&self, word: &str) -> f64 {
        match self.term_ids.get(word) {
            Some(&term) => self.idf(term),
            None => ((self.documents.len() as f64 + 0.5) / 0.5 + 1.0).ln(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marketlens_domain::time::from_epoch_millis;

    const DAY_MILLIS: i64 = 86_400_000;

    fn day(day: i64) -> Timestamp {
        from_epoch_millis(1_767_225_600_000 + day * DAY_MILLIS)
    }

    fn recent(now_day: i64) -> Recency {
        Recency {
            now: day(now_day),
            max_age: TimeDelta::days(14),
        }
    }

    fn index(articles: &[(i64, &str, &str, i64)]) -> NewsIndex {
        NewsIndex::build(articles.iter().map(|&(id, title, summary, dated)| IndexedArticle {
            id,
            title,
            summary,
            dated_at: day(dated),
        }))
    }

    fn found(index: &NewsIndex, question: &str, now_day: i64) -> Vec<i64> {
        found_during(index, question, now_day, MarketLife::ANY)
    }

    fn found_during(index: &NewsIndex, question: &str, now_day: i64, life: MarketLife) -> Vec<i64> {
        index
            .search(&NewsQuery::for_market(question, None), recent(now_day), life, 10)
            .best
            .iter()
            .map(|ranked| ranked.id)
            .collect()
    }

    fn corpus() -> NewsIndex {
        index(&[
            (
                1,
                "Bitcoin price tops $100,000",
                "The price of bitcoin rose to a record.",
                10,
            ),
            (
                2,
                "Ether price slides below $3,000",
                "Ethereum fell as traders sold.",
                10,
            ),
            (
                3,
                "Trump to speak on tariffs",
                "The president will address Congress on the price of tariffs.",
                10,
            ),
            (
                4,
                "Clinton responds to Trump",
                "Hillary Clinton said Trump threatened to jail her.",
                10,
            ),
            (5, "Old bitcoin news", "The BTC price was flat.", 1),
            (
                7,
                "Bitcoin conference opens in Miami",
                "Developers met to discuss the network.",
                11,
            ),
            (6, "BTC miners sell reserves", "Miners sold coins as fees fell.", 12),
        ])
    }

    #[test]
    fn refuses_articles_that_do_not_name_the_subject() {
        let index = corpus();
        assert_eq!(
            found(&index, "Will Bitcoin reach $150,000 by December 31, 2025?", 12),
            [6, 1, 5]
        );
        assert_eq!(found(&index, "Will Ethereum hit $4,000 by December 31?", 12), [2]);
        assert_eq!(found(&index, "Will Trump jail Hillary Clinton?", 12), [4]);
        assert!(found(&index, "Will Solana reach $500?", 12).is_empty());
        // Naming the subject is not enough either: a price market needs a price story.
        assert!(!found(&index, "Will Bitcoin reach $150,000?", 12).contains(&7));
        assert!(found(&index, "Will Bitcoin hold a conference in Miami?", 12).contains(&7));
        // No subject, no news: shared generic words are not enough.
        assert!(found(&index, "Will the price go up in 2025?", 12).is_empty());
    }

    #[test]
    fn only_recent_articles_count_and_newer_rank_higher() {
        let index = corpus();
        // Day 1's article is 16 days old on day 17: outside the window.
        assert_eq!(found(&index, "Will Bitcoin reach $150,000?", 17), [6, 1]);
        assert_eq!(found(&index, "Will Bitcoin reach $150,000?", 14), [6, 1, 5]);
        // Nothing from the future.
        assert!(found(&index, "Will Bitcoin reach $150,000?", 0).is_empty());
    }

    #[test]
    fn only_articles_of_the_market_s_own_time_count() {
        let index = corpus();
        let question = "Will Bitcoin reach $150,000?";
        // Opened on day 9: day 1's article is too early even with the lead; day 10's counts.
        let opened_day_9 = MarketLife {
            opened: Some(day(9)),
            ended: None,
        };
        assert_eq!(found_during(&index, question, 14, opened_day_9), [6, 1]);
        // A lead of a week: opened on day 8, day 1's article is just in.
        let opened_day_8 = MarketLife {
            opened: Some(day(8)),
            ended: None,
        };
        assert_eq!(found_during(&index, question, 14, opened_day_8), [6, 1, 5]);
        // Ended on day 7: the tail reaches day 9, so only day 1's article counts.
        let ended_day_7 = MarketLife {
            opened: None,
            ended: Some(day(7)),
        };
        assert_eq!(found_during(&index, question, 14, ended_day_7), [5]);
        // A market that ended before the window began has no news in it.
        let long_ago = MarketLife {
            opened: Some(day(-400)),
            ended: Some(day(-300)),
        };
        assert!(found_during(&index, question, 14, long_ago).is_empty());
    }

    #[test]
    fn a_market_s_life_runs_from_its_opening_to_its_resolution_or_end() {
        use marketlens_domain::market::{Resolution, Rules, UrlKeys};
        use marketlens_domain::{Category, Exchange, MarketStatus};
        let mut market = Market {
            exchange: Exchange::Polymarket,
            external_id: "1".into(),
            event_external_id: None,
            question: "Will it snow?".into(),
            description: String::new(),
            status: MarketStatus::Open,
            category: Category::Other,
            liquidity: 0.0,
            volume: 0.0,
            volume_24h: 0.0,
            start_date: Some(day(3)),
            end_date: Some(day(30)),
            created_at: Some(day(2)),
            source_updated_at: None,
            outcomes: Vec::new(),
            url_keys: UrlKeys::default(),
            url: String::new(),
            image_url: String::new(),
            rules: Rules::default(),
            resolution: None,
        };
        assert_eq!(
            MarketLife::of(&market),
            MarketLife {
                opened: Some(day(2)),
                ended: Some(day(30))
            }
        );
        market.status = MarketStatus::Resolved;
        market.resolution = Some(Resolution {
            outcome: Some("No".into()),
            resolved_at: Some(day(20)),
        });
        assert_eq!(MarketLife::of(&market).ended, Some(day(20)));
        market.start_date = None;
        market.created_at = None;
        assert_eq!(MarketLife::of(&market).opened, None);
    }

    #[test]
    fn ageing_out_removes_old_articles_and_keeps_the_rest_searchable() {
        let mut index = corpus();
        assert_eq!(index.age_out(day(5)), 1);
        assert_eq!(index.len(), 6);
        assert_eq!(found(&index, "Will Bitcoin reach $150,000?", 14), [6, 1]);
        index.insert(IndexedArticle {
            id: 8,
            title: "Bitcoin price jumps as ETF approved",
            summary: "",
            dated_at: day(13),
        });
        assert_eq!(found(&index, "Will Bitcoin reach $150,000?", 14).len(), 3);
    }

    #[test]
    fn an_empty_index_finds_nothing() {
        assert!(found(&NewsIndex::new(), "Will Bitcoin reach $150,000?", 14).is_empty());
    }
}
