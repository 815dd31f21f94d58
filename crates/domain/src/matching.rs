//! Cross-exchange matching: which markets of the other exchange ask the same question.
//!
//! This is the first, deliberately simple matcher. It pairs markets whose questions share
//! most of their informative words (weighted by rarity), and refuses pairs whose numbers
//! differ (another threshold, another year) or whose end dates are far apart. What it
//! guarantees, and what the stores and API rely on:
//! - never a pair of markets of the same exchange;
//! - symmetric: if A lists B, B lists A, with the same similarity;
//! - at most [`MAX_MATCHES_PER_MARKET`] per market, best first, similarity in `[0, 1]`
//!   rounded to 3 decimals;
//! - deterministic: the same inputs give the same pairs in the same order.

use std::collections::{BTreeSet, HashMap};
use uuid::Uuid;

use crate::exchange::Exchange;
use crate::text::{is_stopword, words};
use crate::time::Timestamp;

pub const MAX_MATCHES_PER_MARKET: usize = 5;
/// The lowest similarity served as a match.
pub const SERVING_THRESHOLD: f64 = 0.6;
/// End dates further apart than this mean different questions.
const MAX_END_DATE_GAP_DAYS: i64 = 45;
/// Words in more than this share of markets (and more than [`MIN_CANDIDATE_WORD_CAP`]
/// markets) are too common to propose candidates; they still count in the score.
const MAX_CANDIDATE_WORD_SHARE: f64 = 0.05;
const MIN_CANDIDATE_WORD_CAP: usize = 50;

#[derive(Debug, Clone)]
pub struct MatchInput {
    pub id: Uuid,
    pub exchange: Exchange,
    pub question: String,
    pub end_date: Option<Timestamp>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MatchPair {
    pub market_id: Uuid,
    pub matched_id: Uuid,
    pub similarity: f64,
}

struct Profile {
    words: BTreeSet<String>,
    numbers: BTreeSet<String>,
}

fn profile(question: &str) -> Profile {
    let mut profile = Profile {
        words: BTreeSet::new(),
        numbers: BTreeSet::new(),
    };
    for word in words(question) {
        if word.chars().any(|character| character.is_ascii_digit()) {
            profile.numbers.insert(word);
        } else if !is_stopword(&word) && word.len() > 1 {
            profile.words.insert(word);
        }
    }
    profile
}

/// Every match among `inputs`, both directions of each pair, ordered by market id and then
/// best first.
pub fn match_markets(inputs: &[MatchInput]) -> Vec<MatchPair> {
    let profiles: Vec<Profile> = inputs.iter().map(|input| profile(&input.question)).collect();
    let mut document_frequency: HashMap<&str, usize> = HashMap::new();
    for profile in &profiles {
        for word in &profile.words {
            *document_frequency.entry(word.as_str()).or_default() += 1;
        }
    }
    let market_count = inputs.len().max(1) as f64;
    let weight = |word: &str| (1.0 + market_count / document_frequency[word] as f64).ln();
    let candidate_cap = ((market_count * MAX_CANDIDATE_WORD_SHARE).ceil() as usize).max(MIN_CANDIDATE_WORD_CAP);

    // Inverted index over the rarer words, per exchange.
    let mut postings: HashMap<(Exchange, &str), Vec<usize>> = HashMap::new();
    for (index, (input, profile)) in inputs.iter().zip(&profiles).enumerate() {
        for word in &profile.words {
            if document_frequency[word.as_str()] <= candidate_cap {
                postings.entry((input.exchange, word.as_str())).or_default().push(index);
            }
        }
    }

    let mut scored: Vec<(usize, usize, f64)> = Vec::new();
    for (left, (input, profile)) in inputs.iter().zip(&profiles).enumerate() {
        if input.exchange != Exchange::Polymarket {
            continue;
        }
        let mut candidates = BTreeSet::new();
        for word in &profile.words {
            if let Some(indexes) = postings.get(&(input.exchange.other(), word.as_str())) {
                candidates.extend(indexes.iter().copied());
            }
        }
        for right in candidates {
            let other = &profiles[right];
            if profile.numbers != other.numbers || !end_dates_agree(input.end_date, inputs[right].end_date) {
                continue;
            }
            let shared: f64 = profile.words.intersection(&other.words).map(|word| weight(word)).sum();
            let union: f64 = profile.words.union(&other.words).map(|word| weight(word)).sum();
            let similarity = if union > 0.0 { shared / union } else { 0.0 };
            let similarity = (similarity * 1000.0).round() / 1000.0;
            if similarity >= SERVING_THRESHOLD {
                scored.push((left, right, similarity));
            }
        }
    }
    keep_mutual_best(inputs, scored)
}

fn end_dates_agree(left: Option<Timestamp>, right: Option<Timestamp>) -> bool {
    match (left, right) {
        (Some(left), Some(right)) => (left - right).num_days().abs() <= MAX_END_DATE_GAP_DAYS,
        _ => true,
    }
}

/// Keeps a pair only if it is among the best [`MAX_MATCHES_PER_MARKET`] of both its
/// markets, which is what makes the capped lists symmetric.
fn keep_mutual_best(inputs: &[MatchInput], scored: Vec<(usize, usize, f64)>) -> Vec<MatchPair> {
    let mut per_market: HashMap<usize, Vec<(f64, Uuid, usize)>> = HashMap::new();
    for &(left, right, similarity) in &scored {
        per_market
            .entry(left)
            .or_default()
            .push((similarity, inputs[right].id, right));
        per_market
            .entry(right)
            .or_default()
            .push((similarity, inputs[left].id, left));
    }
    let mut best: HashMap<usize, BTreeSet<usize>> = HashMap::new();
    for (market, mut list) in per_market {
        list.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        best.insert(
            market,
            list.iter().take(MAX_MATCHES_PER_MARKET).map(|entry| entry.2).collect(),
        );
    }
    let mut pairs = Vec::new();
    for (left, right, similarity) in scored {
        if best[&left].contains(&right) && best[&right].contains(&left) {
            pairs.push(MatchPair {
                market_id: inputs[left].id,
                matched_id: inputs[right].id,
                similarity,
            });
            pairs.push(MatchPair {
                market_id: inputs[right].id,
                matched_id: inputs[left].id,
                similarity,
            });
        }
    }
    pairs.sort_by(|a, b| {
        a.market_id
            .cmp(&b.market_id)
            .then(b.similarity.total_cmp(&a.similarity))
            .then(a.matched_id.cmp(&b.matched_id))
    });
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn input(number: u128, exchange: Exchange, question: &str) -> MatchInput {
        MatchInput {
            id: Uuid::from_u128(number),
            exchange,
            question: question.to_owned(),
            end_date: None,
        }
    }

    #[test]
    fn pairs_the_same_question_and_refuses_another_threshold() {
        let inputs = vec![
            input(1, Exchange::Polymarket, "Will Elon Musk visit Mars before 2099?"),
            input(2, Exchange::Kalshi, "Will Elon Musk visit Mars before 2099?"),
            input(3, Exchange::Kalshi, "Will Elon Musk visit Mars before 2050?"),
            input(4, Exchange::Polymarket, "Will Elon Musk visit the Moon before 2099?"),
        ];
        let pairs = match_markets(&inputs);
        let ids: Vec<(u128, u128)> = pairs
            .iter()
            .map(|pair| (pair.market_id.as_u128(), pair.matched_id.as_u128()))
            .collect();
        assert!(ids.contains(&(1, 2)) && ids.contains(&(2, 1)));
        assert!(
            !ids.iter().any(|&(a, b)| a == 3 || b == 3),
            "another threshold is not a match"
        );
    }

    fn question() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec![
                "will", "bitcoin", "trump", "win", "2028", "100k", "election", "reach", "mars", "fed", "cut", "rates",
            ]),
            1..8,
        )
        .prop_map(|words| words.join(" "))
    }

    proptest! {
        #[test]
        fn pairs_are_symmetric_capped_cross_exchange_and_deterministic(
            questions in prop::collection::vec((question(), any::<bool>()), 0..40)
        ) {
            let inputs: Vec<MatchInput> = questions.iter().enumerate().map(|(index, (question, on_kalshi))| {
                input(index as u128 + 1, if *on_kalshi { Exchange::Kalshi } else { Exchange::Polymarket }, question)
            }).collect();
            let pairs = match_markets(&inputs);
            prop_assert_eq!(&pairs, &match_markets(&inputs));
            let exchange_of: HashMap<Uuid, Exchange> = inputs.iter().map(|input| (input.id, input.exchange)).collect();
            let mut per_market: HashMap<Uuid, usize> = HashMap::new();
            for pair in &pairs {
                prop_assert_ne!(exchange_of[&pair.market_id], exchange_of[&pair.matched_id]);
                prop_assert!((0.0..=1.0).contains(&pair.similarity));
                prop_assert!(pairs.iter().any(|other| other.market_id == pair.matched_id
                    && other.matched_id == pair.market_id && other.similarity == pair.similarity));
                *per_market.entry(pair.market_id).or_default() += 1;
            }
            prop_assert!(per_market.values().all(|&count| count <= MAX_MATCHES_PER_MARKET));
        }
    }
}
