//! The words of every market's question, for search: each word (folded by
//! `marketlens_domain::text::words`, as the stores index it) with the bitmap of the docs whose
//! question holds it. A search word matches every word it begins, as in the stores, so the
//! words are kept sorted and a search word's docs are the union over the run of words that
//! start with it.

use marketlens_domain::text;
use moka::sync::Cache;
use roaring::{MultiOps, RoaringBitmap};
use std::collections::HashMap;
use std::sync::Arc;

pub struct WordIndex {
    /// Sorted by word.
    words: Vec<(Box<str>, Arc<RoaringBitmap>)>,
    /// The unions of prefixes that begin several words, as searched lately: a short or common
    /// search word ("win" begins win, wins, winner, winning, windows...) would otherwise union
    /// dozens of bitmaps on every call.
    prefix_unions: Cache<Box<str>, Arc<RoaringBitmap>>,
}

/// Prefix unions remembered, at most.
const PREFIX_UNIONS: u64 = 4_096;

impl WordIndex {
    /// Indexes questions in doc order.
    pub fn build<'a>(questions: impl Iterator<Item = &'a str>) -> WordIndex {
        let mut postings: HashMap<String, Vec<u32>> = HashMap::new();
        for (doc, question) in questions.enumerate() {
            let mut seen: Vec<String> = text::words(question).collect();
            seen.sort_unstable();
            seen.dedup();
            for word in seen {
                postings.entry(word).or_default().push(doc as u32);
            }
        }
        let mut words: Vec<(Box<str>, Arc<RoaringBitmap>)> = postings
            .into_iter()
            .map(|(word, docs)| {
                // Docs were pushed in increasing order.
                let bitmap = RoaringBitmap::from_sorted_iter(docs).expect("docs are pushed in order");
                (word.into_boxed_str(), Arc::new(bitmap))
            })
            .collect();
        words.sort_unstable_by(|left, right| left.0.cmp(&right.0));
        WordIndex {
            words,
            prefix_unions: Cache::new(PREFIX_UNIONS),
        }
    }

    /// The docs holding a word that begins with `prefix`.
    pub fn docs_of_prefix(&self, prefix: &str) -> Arc<RoaringBitmap> {
        let first = self.words.partition_point(|(word, _)| &**word < prefix);
        let run = self.words[first..]
            .iter()
            .take_while(|(word, _)| word.starts_with(prefix))
            .count();
        match &self.words[first..first + run] {
            [] => Arc::new(RoaringBitmap::new()),
            [(_, docs)] => docs.clone(),
            several => self.prefix_unions.get_with(prefix.into(), || {
                Arc::new(several.iter().map(|(_, docs)| &**docs).union())
            }),
        }
    }

    /// The docs that hold every word (each as a prefix), or `None` when some word matches
    /// nothing. Intersects rarest first, so that the bitmaps handled stay small.
    pub fn all_of(&self, prefixes: &[String]) -> Option<RoaringBitmap> {
        let mut sets: Vec<Arc<RoaringBitmap>> = prefixes.iter().map(|prefix| self.docs_of_prefix(prefix)).collect();
        sets.sort_by_key(|docs| docs.len());
        let mut found = match sets.as_slice() {
            [] => return None,
            [only] => (**only).clone(),
            [rarest, next, ..] => &**rarest & &**next,
        };
        for docs in sets.iter().skip(2) {
            found &= &**docs;
        }
        (!found.is_empty()).then_some(found)
    }
}

/// Docs scored at most while ranking [`WordIndex::best_matches`].
const CANDIDATE_POOL: u64 = 500;

impl WordIndex {
    /// Up to `limit` docs holding any of the words (as prefixes), those holding more of them and
    /// rarer ones first (each word weighs its inverse document frequency), then in doc order.
    ///
    /// Scoring every doc that holds some word would read hundreds of thousands of docs for a
    /// common word; instead candidates are drawn from the intersections of the rarest words
    /// first (the docs holding all the words, then all but the commonest, and so on, down to
    /// the rarest word alone, then each other word) until the pool is full, and only those are
    /// scored.
    pub fn best_matches(&self, prefixes: &[String], doc_count: usize, limit: usize) -> Vec<u32> {
        let mut words: Vec<Arc<RoaringBitmap>> = prefixes
            .iter()
            .map(|prefix| self.docs_of_prefix(prefix))
            .filter(|docs| !docs.is_empty())
            .collect();
        words.sort_by_key(|docs| docs.len());
        let weights: Vec<f64> = words
            .iter()
            .map(|docs| (1.0 + doc_count as f64 / docs.len() as f64).ln())
            .collect();
        // narrowing[k]: the docs holding the k + 1 rarest words.
        let mut narrowing: Vec<RoaringBitmap> = Vec::with_capacity(words.len());
        for docs in &words {
            let next = match narrowing.last() {
                Some(previous) => previous & &**docs,
                None => (**docs).clone(),
            };
            narrowing.push(next);
        }
        // The docs of all the words, then of fewer and fewer of the rarest, then of each other
        // word on its own, rarest first: as many as the pool holds.
        let mut pool = RoaringBitmap::new();
        for docs in narrowing.iter().rev().chain(words.iter().skip(1).map(|docs| &**docs)) {
            let room = CANDIDATE_POOL.saturating_sub(pool.len());
            if room == 0 {
                break;
            }
            let fresh = docs - &pool;
            pool.extend(fresh.iter().take(room as usize));
        }
        let mut scored: Vec<(u32, f64)> = pool
            .iter()
            .map(|doc| {
                let score = words
                    .iter()
                    .zip(&weights)
                    .filter(|(docs, _)| docs.contains(doc))
                    .map(|(_, weight)| weight)
                    .sum();
                (doc, score)
            })
            .collect();
        scored.sort_unstable_by(|left, right| right.1.total_cmp(&left.1).then(left.0.cmp(&right.0)));
        scored.into_iter().take(limit).map(|(doc, _)| doc).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_words_match_as_prefixes_of_folded_words() {
        let index = WordIndex::build(
            [
                "Will Bitcoin reach $100k?",
                "Will Pokémon win?",
                "Bitcoins and Ethereum",
                "Who wins?",
            ]
            .into_iter(),
        );
        let docs = |words: &[&str]| {
            index
                .all_of(&words.iter().map(|word| word.to_string()).collect::<Vec<_>>())
                .map(|found| found.iter().collect::<Vec<u32>>())
        };
        assert_eq!(docs(&["bitcoin"]), Some(vec![0, 2]));
        assert_eq!(docs(&["pokemon"]), Some(vec![1]));
        assert_eq!(docs(&["wi"]), Some(vec![0, 1, 3]));
        assert_eq!(docs(&["will", "100k"]), Some(vec![0]));
        assert_eq!(docs(&["will", "ethereum"]), None);
        assert_eq!(docs(&["zzz"]), None);
    }

    #[test]
    fn best_matches_rank_docs_holding_more_and_rarer_words_first() {
        let questions = [
            "Will Bitcoin reach $100k in December?",
            "Will Bitcoin reach $100k?",
            "Will it rain?",
            "Will Ethereum reach $10k in December?",
            "Bitcoin December",
        ];
        let index = WordIndex::build(questions.into_iter());
        let words: Vec<String> = ["bitcoin", "100k", "december"]
            .iter()
            .map(|word| word.to_string())
            .collect();
        assert_eq!(index.best_matches(&words, questions.len(), 10), [0, 1, 4, 3]);
        assert_eq!(index.best_matches(&words, questions.len(), 2), [0, 1]);
        assert!(index.best_matches(&["zzz".to_owned()], questions.len(), 10).is_empty());
    }
}
