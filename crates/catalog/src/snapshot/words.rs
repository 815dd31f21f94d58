//! The words of every market's question, for search: each word (folded by
//! `marketlens_domain::text::words`, as the stores index it) with the bitmap of the docs whose
//! question holds it. A search word matches every word it begins, as in the stores, so the
//! words are kept sorted and a search word's docs are the union over the run of words that
//! start with it.

use marketlens_domain::text;
use roaring::{MultiOps, RoaringBitmap};
use std::collections::HashMap;

pub struct WordIndex {
    /// Sorted by word.
    words: Vec<(Box<str>, RoaringBitmap)>,
}

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
        let mut words: Vec<(Box<str>, RoaringBitmap)> = postings
            .into_iter()
            .map(|(word, docs)| {
                // Docs were pushed in increasing order.
                let bitmap = RoaringBitmap::from_sorted_iter(docs).expect("docs are pushed in order");
                (word.into_boxed_str(), bitmap)
            })
            .collect();
        words.sort_unstable_by(|left, right| left.0.cmp(&right.0));
        WordIndex { words }
    }

    /// The words that begin with `prefix`, with their docs.
    fn starting_with<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a (Box<str>, RoaringBitmap)> + 'a {
        let first = self.words.partition_point(|(word, _)| &**word < prefix);
        self.words[first..]
            .iter()
            .take_while(move |(word, _)| word.starts_with(prefix))
    }

    /// The docs holding a word that begins with `prefix`.
    pub fn docs_of_prefix(&self, prefix: &str) -> RoaringBitmap {
        self.starting_with(prefix).map(|(_, docs)| docs).union()
    }

    /// How many docs hold a word beginning with `prefix`, at least (the largest word's count):
    /// cheap, for ordering search words from rarest.
    pub fn rough_frequency(&self, prefix: &str) -> u64 {
        self.starting_with(prefix)
            .map(|(_, docs)| docs.len())
            .max()
            .unwrap_or(0)
    }

    /// The docs that hold every word (each as a prefix), or `None` when some word matches
    /// nothing. Intersects rarest first, so that the bitmaps handled stay small.
    pub fn all_of(&self, prefixes: &[String]) -> Option<RoaringBitmap> {
        let mut by_rarity: Vec<&String> = prefixes.iter().collect();
        by_rarity.sort_by_key(|prefix| self.rough_frequency(prefix));
        let mut found: Option<RoaringBitmap> = None;
        for prefix in by_rarity {
            let docs = self.docs_of_prefix(prefix);
            let narrowed = match found {
                None => docs,
                Some(found) => found & docs,
            };
            if narrowed.is_empty() {
                return None;
            }
            found = Some(narrowed);
        }
        found
    }
}

/// Docs scored at most while ranking [`WordIndex::best_matches`]: beyond it, common words only
/// add to the docs the rarer ones found.
const CANDIDATE_POOL: usize = 20_000;

impl WordIndex {
    /// Up to `limit` docs holding any of the words (as prefixes), those holding more of them and
    /// rarer ones first (each word weighs its inverse document frequency), then in doc order.
    /// Rarest first: every doc of the rarer words is scored; once the pool is full, a common
    /// word only adds to docs already in it, so a query's common words cannot flood the
    /// ranking with docs that hold nothing else.
    pub fn best_matches(&self, prefixes: &[String], doc_count: usize, limit: usize) -> Vec<u32> {
        let mut words: Vec<RoaringBitmap> = prefixes.iter().map(|prefix| self.docs_of_prefix(prefix)).collect();
        words.sort_by_key(RoaringBitmap::len);
        let mut scores: HashMap<u32, f64> = HashMap::new();
        for docs in words.iter().filter(|docs| !docs.is_empty()) {
            let weight = (1.0 + doc_count as f64 / docs.len() as f64).ln();
            if scores.len() + docs.len() as usize <= CANDIDATE_POOL {
                for doc in docs {
                    *scores.entry(doc).or_default() += weight;
                }
                continue;
            }
            for (doc, score) in scores.iter_mut() {
                if docs.contains(*doc) {
                    *score += weight;
                }
            }
            let room = CANDIDATE_POOL.saturating_sub(scores.len());
            let newcomers: Vec<u32> = docs.iter().filter(|doc| !scores.contains_key(doc)).take(room).collect();
            for doc in newcomers {
                scores.insert(doc, weight);
            }
        }
        let mut ranked: Vec<(u32, f64)> = scores.into_iter().collect();
        ranked.sort_unstable_by(|left, right| right.1.total_cmp(&left.1).then(left.0.cmp(&right.0)));
        ranked.into_iter().take(limit).map(|(doc, _)| doc).collect()
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
}
