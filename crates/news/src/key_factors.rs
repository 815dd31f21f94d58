//! Key factors: a few short statements from the news about a market, each from one article.
//!
//! Explain promises "key factors taken from recent news" and forbids AI-written analysis,
//! sentiment and advice, so every factor is extracted, never written: the article's headline
//! when it names the market's subject, otherwise the sentence of its summary that names the
//! subject and holds the most of the query's words. The text is only cleaned: a leading
//! byline or dateline ("By Jane Doe", "WASHINGTON —", "(CNN)") is dropped, and a long
//! sentence is cut at a word boundary with "…" at [`MAX_FACTOR_CHARS`] characters.
//!
//! Articles are taken in the order given (the index's: most relevant and most recent first),
//! one factor each, so each factor cites one source. A factor too close to one already
//! chosen (half its informative words shared) is dropped as a repeat of the same news.

use std::collections::BTreeSet;

use marketlens_domain::text::{is_stopword, words};

use crate::plain_text::{collapse_whitespace, truncate_at_boundary};
use crate::query::NewsQuery;
use crate::sentences::sentences;

/// At most this many factors, as the specification says.
pub const MAX_KEY_FACTORS: usize = 5;
/// The longest factor, in characters.
pub const MAX_FACTOR_CHARS: usize = 200;
/// The fewest words a statement needs to say something.
const MIN_FACTOR_WORDS: usize = 4;
/// Factors sharing at least this share of their informative words say the same thing.
const MAX_SHARED_WORDS: f64 = 0.5;

/// An article to draw a factor from, as the store keeps it.
#[derive(Debug, Clone, Copy)]
pub struct FactorSource<'a> {
    pub id: i64,
    pub title: &'a str,
    pub summary: &'a str,
}

/// One key factor and the article it was taken from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyFactor {
    pub text: String,
    pub article_id: i64,
}

/// At most `max` (and at most [`MAX_KEY_FACTORS`]) distinct factors from `articles`, in
/// their order.
pub fn key_factors(query: &NewsQuery, articles: &[FactorSource<'_>], max: usize) -> Vec<KeyFactor> {
    let max = max.min(MAX_KEY_FACTORS);
    let mut chosen: Vec<(KeyFactor, BTreeSet<String>)> = Vec::new();
    for article in articles {
        if chosen.len() >= max {
            break;
        }
        let Some(text) = statement_of(query, article) else {
            continue;
        };
        let informative = informative_words(&text);
        let repeats = chosen
            .iter()
            .any(|(_, other)| shared_share(&informative, other) >= MAX_SHARED_WORDS);
        if !repeats {
            chosen.push((
                KeyFactor {
                    text,
                    article_id: article.id,
                },
                informative,
            ));
        }
    }
    chosen.into_iter().map(|(factor, _)| factor).collect()
}

/// The article's statement about the subject: its headline if that names the subject, else
/// its best sentence that does. Cleaned and bounded.
fn statement_of(query: &NewsQuery, article: &FactorSource<'_>) -> Option<String> {
    let headline = clean(article.title);
    if says_something(&headline) && names_subject(query, &headline) {
        return Some(truncate_at_boundary(&headline, MAX_FACTOR_CHARS));
    }
    let best = sentences(article.summary)
        .map(clean)
        .filter(|sentence| says_something(sentence) && names_subject(query, sentence))
        .enumerate()
        .max_by_key(|(position, sentence)| {
            let sentence_words: BTreeSet<String> = words(sentence).collect();
            let hits = query.terms.iter().filter(|term| sentence_words.contains(*term)).count();
            // Most query words first; of equals, the earliest sentence.
            (hits, std::cmp::Reverse(*position))
        })
        .map(|(_, sentence)| sentence)?;
    Some(truncate_at_boundary(&best, MAX_FACTOR_CHARS))
}

fn names_subject(query: &NewsQuery, text: &str) -> bool {
    let text_words: BTreeSet<String> = words(text).collect();
    query.entities.iter().any(|entity| {
        entity
            .spellings
            .iter()
            .any(|spelling| spelling.iter().all(|word| text_words.contains(word)))
    })
}

fn says_something(text: &str) -> bool {
    words(text).count() >= MIN_FACTOR_WORDS
}

/// `text` without a leading byline or dateline, white space collapsed.
fn clean(text: &str) -> String {
    let text = collapse_whitespace(text);
    let text = without_byline(&text);
    without_dateline(text).to_owned()
}

/// "By Jane Doe, Reuters Staff Trump said…" loses "By Jane Doe,": up to four capitalized
/// words after "By", ending at a comma, a bar or a dash.
fn without_byline(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("By ") else {
        return text;
    };
    let end = rest.find([',', '|', '—', '–']).filter(|&end| {
        let name = &rest[..end];
        let name_words: Vec<&str> = name.split_whitespace().collect();
        (1..=4).contains(&name_words.len())
            && name_words
                .iter()
                .all(|word| word.chars().next().is_some_and(char::is_uppercase))
    });
    match end {
        Some(end) => rest[end..].trim_start_matches([',', '|', '—', '–', ' ']),
        None => text,
    }
}

/// "WASHINGTON —", "NEW YORK (Reuters) -" and "(CNN)" openings dropped.
fn without_dateline(text: &str) -> &str {
    let mut rest = text;
    let place_length: usize = rest
        .split_inclusive(' ')
        .take_while(|word| {
            if word.starts_with('(') {
                return false;
            }
            let letters: Vec<char> = word
                .trim()
                .chars()
                .filter(|character| character.is_alphabetic())
                .collect();
            letters.len() >= 2 && letters.iter().all(|letter| letter.is_uppercase())
        })
        .map(str::len)
        .sum();
    rest = &rest[place_length..];
    if let Some(after_source) = rest.strip_prefix('(').and_then(|inner| inner.split_once(')')) {
        rest = after_source.1.trim_start();
    }
    match rest.strip_prefix(['—', '–', '-']) {
        Some(after_dash) => after_dash.trim_start(),
        None if place_length == 0 && rest.len() != text.len() => rest,
        None => text,
    }
}

fn informative_words(text: &str) -> BTreeSet<String> {
    words(text).filter(|word| !is_stopword(word)).collect()
}

/// The share of the smaller set's words that the larger holds.
fn shared_share(left: &BTreeSet<String>, right: &BTreeSet<String>) -> f64 {
    let smaller = left.len().min(right.len());
    if smaller == 0 {
        return 0.0;
    }
    left.intersection(right).count() as f64 / smaller as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bitcoin() -> NewsQuery {
        NewsQuery::for_market("Will Bitcoin reach $150,000 by December 31, 2025?", None)
    }

    fn source<'a>(id: i64, title: &'a str, summary: &'a str) -> FactorSource<'a> {
        FactorSource { id, title, summary }
    }

    #[test]
    fn headline_first_then_the_best_sentence_naming_the_subject() {
        let articles = [
            source(
                1,
                "Bitcoin tops $25,000 as banks wobble",
                "Ignored summary about bitcoin.",
            ),
            source(
                2,
                "Markets in turmoil after bank failure",
                "Stocks fell on Monday. BTC rose 10% while the price of gold held. Bitcoin was steady earlier.",
            ),
            source(3, "Ethereum upgrade ships", "Developers shipped the Shanghai upgrade."),
        ];
        let factors = key_factors(&bitcoin(), &articles, 5);
        assert_eq!(
            factors,
            [
                KeyFactor {
                    text: "Bitcoin tops $25,000 as banks wobble".into(),
                    article_id: 1
                },
                KeyFactor {
                    text: "BTC rose 10% while the price of gold held.".into(),
                    article_id: 2
                },
            ]
        );
    }

    #[test]
    fn repeats_are_dropped_and_the_count_is_bounded() {
        let articles: Vec<FactorSource> = (0..10)
            .map(|id| source(id, "Bitcoin falls below $20,000 for the first time", ""))
            .collect();
        assert_eq!(key_factors(&bitcoin(), &articles, 5).len(), 1);
        let distinct = [
            "Bitcoin falls below $20,000",
            "Bitcoin miners sell reserves",
            "Bitcoin ETF decision delayed again",
            "Bitcoin network fees spike on Ordinals",
            "Bitcoin dominance climbs past half",
            "Bitcoin options expiry looms for traders",
        ];
        let articles: Vec<FactorSource> = distinct
            .iter()
            .enumerate()
            .map(|(id, title)| source(id as i64, title, ""))
            .collect();
        assert_eq!(key_factors(&bitcoin(), &articles, 5).len(), 5);
        assert_eq!(key_factors(&bitcoin(), &articles, 9).len(), MAX_KEY_FACTORS);
        assert_eq!(key_factors(&bitcoin(), &articles, 2).len(), 2);
    }

    #[test]
    fn bylines_datelines_and_length_are_cleaned() {
        assert_eq!(clean("By Jane Doe, Reuters Bitcoin rose"), "Reuters Bitcoin rose");
        assert_eq!(clean("WASHINGTON — The Fed held rates."), "The Fed held rates.");
        assert_eq!(clean("NEW YORK (Reuters) - Bitcoin rose."), "Bitcoin rose.");
        assert_eq!(clean("(CNN) Bitcoin rose."), "Bitcoin rose.");
        assert_eq!(clean("Bitcoin rose (again) today."), "Bitcoin rose (again) today.");
        assert_eq!(clean("BTC rose today."), "BTC rose today.");
        let long = format!("Bitcoin {}", "rallied strongly again ".repeat(20));
        let factor = &key_factors(&bitcoin(), &[source(1, &long, "")], 5)[0].text;
        assert!(
            factor.chars().count() <= MAX_FACTOR_CHARS && factor.ends_with('…'),
            "{factor}"
        );
    }

    #[test]
    fn articles_that_never_name_the_subject_give_nothing() {
        let articles = [source(
            1,
            "Ether rallies",
            "The price of ether rose past $2,000 on Monday.",
        )];
        assert!(key_factors(&bitcoin(), &articles, 5).is_empty());
        assert!(key_factors(&bitcoin(), &[], 5).is_empty());
    }
}
