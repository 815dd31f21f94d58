//! Each story once: repeats by canonical URL and by near-identical headline.
//!
//! The same story reaches the service many times: every poll of a feed returns it again, two
//! feeds of one publisher carry it, a newsletter repeats a headline in its own. Explain must
//! not show one story as two key factors, so the store keeps one copy.
//!
//! Two articles are the same story when their canonical URLs are equal, or when their
//! headlines are near-identical: equal as words ([`title_key`]: case, accents and
//! punctuation ignored), or one headline has a clause of at least [`MIN_CLAUSE_WORDS`]
//! informative words that all appear in one clause of the other. Clauses are the parts of a
//! headline between sentence stops, colons, dashes and bars, so "Democrats had a big night.
//! Here are 5 takeaways from the 2025 elections" and "5 takeaways from the 2025 elections.
//! And, the shutdown now the longest in U.S. history" (NPR, the same morning) are one story,
//! while "Portugal v Iceland: Euro 2016 – live!" and "Hungary v Iceland: Euro 2016 – live!"
//! are two, because no clause of four informative words is shared. What precedes a headline's
//! first colon is its label, and two labels alone do not make one story: CNBC's daily
//! "Stocks making the biggest moves premarket: …" are different articles.
//!
//! The store keeps [`title_key`] in a unique column beside the canonical URL, which catches
//! the exact repeats cheaply; a [`Deduplicator`] loaded with the recent headlines catches the
//! near-identical ones before they are written.

use std::collections::{HashMap, HashSet};

use marketlens_domain::text::{is_stopword, words};

use marketlens_domain::article::{Article, title_key};

/// The fewest informative words a clause needs to make two headlines one story.
pub const MIN_CLAUSE_WORDS: usize = 4;

/// Why an article was found to repeat one already seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    SameUrl,
    SameTitle,
    NearIdenticalTitle,
}

/// The stories seen so far, to tell whether another is new. Load it with what the store
/// holds ([`Deduplicator::remember`]), then [`Deduplicator::admit`] each incoming article.
#[derive(Debug, Default)]
pub struct Deduplicator {
    urls: HashSet<String>,
    title_keys: HashSet<String>,
    /// Every remembered clause of at least [`MIN_CLAUSE_WORDS`] informative words.
    clauses: Vec<Clause>,
    /// For each word, the remembered clauses holding it.
    clauses_by_word: HashMap<String, Vec<usize>>,
}

impl Deduplicator {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a story already kept (by canonical URL and headline).
    pub fn remember(&mut self, url: &str, title: &str) {
        self.urls.insert(url.to_owned());
        self.title_keys.insert(title_key(title));
        for clause in clauses(title) {
            if clause.words.len() < MIN_CLAUSE_WORDS {
                continue;
            }
            let index = self.clauses.len();
            for word in &clause.words {
                self.clauses_by_word.entry(word.clone()).or_default().push(index);
            }
            self.clauses.push(clause);
        }
    }

    /// Whether a story with this URL and headline was seen, and how.
    pub fn repeat_of(&self, url: &str, title: &str) -> Option<Repeat> {
        if self.urls.contains(url) {
            return Some(Repeat::SameUrl);
        }
        if self.title_keys.contains(&title_key(title)) {
            return Some(Repeat::SameTitle);
        }
        clauses(title)
            .iter()
            .any(|clause| self.shares_clause(clause))
            .then_some(Repeat::NearIdenticalTitle)
    }

    /// `None` and remembers the article when it is new; otherwise how it repeats.
    pub fn admit(&mut self, article: &Article) -> Option<Repeat> {
        let repeat = self.repeat_of(&article.url, &article.title);
        if repeat.is_none() {
            self.remember(&article.url, &article.title);
        }
        repeat
    }

    /// Whether `clause` lies within a remembered clause, or a remembered clause within it.
    /// Two labels do not count: headlines of one series share their label and nothing else.
    fn shares_clause(&self, clause: &Clause) -> bool {
        let mut hits: HashMap<usize, usize> = HashMap::new();
        for word in &clause.words {
            for &index in self.clauses_by_word.get(word).into_iter().flatten() {
                *hits.entry(index).or_default() += 1;
            }
        }
        hits.into_iter().any(|(index, shared)| {
            let remembered = &self.clauses[index];
            let contained = (shared == clause.words.len() && clause.words.len() >= MIN_CLAUSE_WORDS)
                || shared == remembered.words.len();
            contained && !(clause.label && remembered.label)
        })
    }
}

/// One clause of a headline: its informative words, sorted and unique, and whether it is the
/// headline's label (what precedes its first colon: "Stocks making the biggest moves
/// premarket: Pfizer, Mylan…", "First Mover Asia: …").
#[derive(Debug)]
struct Clause {
    words: Vec<String>,
    label: bool,
}

fn clauses(title: &str) -> Vec<Clause> {
    let (label, rest) = match title.split_once(':') {
        Some((label, rest)) => (label, rest),
        None => ("", title),
    };
    let split = |text: &str, label: bool| -> Vec<Clause> {
        text.split(['.', ':', '|', '–', '—', '?', '!', ';'])
            .flat_map(|part| part.split(" - "))
            .map(|clause| {
                let mut informative: Vec<String> = words(clause)
                    .filter(|word| word.len() > 1 || word.chars().all(|character| character.is_ascii_digit()))
                    .filter(|word| !is_stopword(word))
                    .collect();
                informative.sort();
                informative.dedup();
                Clause {
                    words: informative,
                    label,
                }
            })
            .filter(|clause| !clause.words.is_empty())
            .collect()
    };
    let mut all = split(label, true);
    all.extend(split(rest, false));
    all
}

/// The first copy of each story in `articles`, and how many repeats were dropped. The
/// earliest-dated copy is kept, and of copies dated alike the one with the longer summary.
pub fn deduplicate(mut articles: Vec<Article>) -> (Vec<Article>, usize) {
    articles.sort_by(|left, right| {
        left.dated_at()
            .cmp(&right.dated_at())
            .then_with(|| right.summary.len().cmp(&left.summary.len()))
    });
    let mut deduplicator = Deduplicator::new();
    let before = articles.len();
    articles.retain(|article| deduplicator.admit(article).is_none());
    let repeats = before - articles.len();
    (articles, repeats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_keys_ignore_case_accents_and_punctuation() {
        assert_eq!(
            title_key("Fed Holds Rates Steady."),
            title_key("fed holds  rates steady")
        );
        assert_eq!(title_key("Eleição em São Paulo"), "eleicao em sao paulo");
        assert_ne!(title_key("Fed holds rates"), title_key("Fed cuts rates"));
    }

    #[test]
    fn a_shared_clause_of_four_informative_words_is_one_story() {
        let mut deduplicator = Deduplicator::new();
        deduplicator.remember(
            "https://npr.example/a",
            "5 takeaways from the 2025 elections. And, the shutdown now the longest in U.S. history",
        );
        assert_eq!(
            deduplicator.repeat_of(
                "https://npr.example/b",
                "Democrats had a big night. Here are 5 takeaways from the 2025 elections"
            ),
            Some(Repeat::NearIdenticalTitle)
        );
        // Contained the other way round: the new clause holds a remembered one.
        let mut reversed = Deduplicator::new();
        reversed.remember("https://x.example/1", "Fed holds interest rates steady");
        assert_eq!(
            reversed.repeat_of(
                "https://x.example/2",
                "Analysis: why the Fed holds interest rates steady again"
            ),
            Some(Repeat::NearIdenticalTitle)
        );
    }

    #[test]
    fn similar_but_different_headlines_are_two_stories() {
        let mut deduplicator = Deduplicator::new();
        deduplicator.remember("https://g.example/1", "Portugal v Iceland: Euro 2016 – live!");
        deduplicator.remember("https://g.example/3", "Fed cuts rates");
        assert_eq!(
            deduplicator.repeat_of("https://g.example/2", "Hungary v Iceland: Euro 2016 – live!"),
            None
        );
        assert_eq!(
            deduplicator.repeat_of("https://g.example/4", "Fed cuts rates again, citing trade war"),
            None
        );
        assert_eq!(
            deduplicator.repeat_of("https://g.example/5", "Bitcoin rises above $100,000 for the first time"),
            None
        );
    }

    #[test]
    fn a_shared_series_label_is_not_one_story() {
        let mut deduplicator = Deduplicator::new();
        deduplicator.remember(
            "https://cnbc.example/1",
            "Stocks making the biggest moves premarket: Pfizer, Mylan, BlackRock, Domino's & more",
        );
        assert_eq!(
            deduplicator.repeat_of(
                "https://cnbc.example/2",
                "Stocks making the biggest moves premarket: Twitter, Amazon, Alphabet, Apple, Intel & more"
            ),
            None
        );
        // A label against a whole headline still counts.
        deduplicator.remember(
            "https://bbc.example/1",
            "Red Hot Chili Peppers: Guitarist Jack Sherman dies aged 64",
        );
        assert_eq!(
            deduplicator.repeat_of(
                "https://fox.example/1",
                "Red Hot Chili Peppers guitarist Jack Sherman dead at 64"
            ),
            Some(Repeat::NearIdenticalTitle)
        );
    }

    #[test]
    fn urls_and_exact_titles_repeat() {
        let mut deduplicator = Deduplicator::new();
        deduplicator.remember("https://x.example/1", "Fed cuts rates");
        assert_eq!(
            deduplicator.repeat_of("https://x.example/1", "Other"),
            Some(Repeat::SameUrl)
        );
        assert_eq!(
            deduplicator.repeat_of("https://x.example/2", "FED CUTS RATES!"),
            Some(Repeat::SameTitle)
        );
    }
}
