//! Candidate generation and the match graph, kept up to date market by market.
//!
//! Comparing every market with every other is N² and a million markets make that 10¹²
//! comparisons. A match needs the same subject in the same year, so markets are blocked
//! by (subject word, year) keys: a market is compared only with the other exchange's
//! markets that share a key. Keys so common that they no longer narrow anything (more
//! than [`MAX_POSTINGS`] markets of one exchange) are skipped; the pairs they would have
//! proposed share rarer keys when they are real matches.
//!
//! The index keeps every scored pair above the serving threshold (the edges) and serves,
//! for each market, the pairs that are among the best [`MAX_MATCHES_PER_MARKET`] of both
//! of their markets. A changed market recomputes only its own edges; the markets whose
//! served lists can change are it, its neighbours, and their neighbours, and those are
//! what [`MatchIndex::upsert`] returns.

use std::collections::{BTreeSet, HashMap};
use uuid::Uuid;

use super::extract::{Features, hash};
use super::score::judge;
use super::{MAX_MATCHES_PER_MARKET, MatchInput, MatchPair, Orientation, SERVING_THRESHOLD};
use crate::exchange::Exchange;

/// A blocking key with more markets than this on one exchange is skipped.
pub const MAX_POSTINGS: usize = 2_000;
/// The year of a market that states none and has no end date.
const NO_YEAR: i32 = 0;

struct Entry {
    id: Uuid,
    exchange: Exchange,
    features: Features,
    keys: Vec<u64>,
    /// Words of a market with no year: it looks for them in every year.
    undated_words: Vec<u64>,
    /// Scored pairs above the threshold, with both ends' slots.
    edges: Vec<Edge>,
}

#[derive(Debug, Clone, Copy)]
struct Edge {
    other: usize,
    similarity: f64,
    orientation: Orientation,
}

/// What changed after an update: replace every stored match row whose `market_id` is in
/// `markets` with `pairs` (which holds exactly those rows).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MatchDelta {
    pub markets: BTreeSet<Uuid>,
    pub pairs: Vec<MatchPair>,
}

/// The match graph of a catalogue, updatable one market at a time.
#[derive(Default)]
pub struct MatchIndex {
    entries: Vec<Option<Entry>>,
    free_slots: Vec<usize>,
    slot_of: HashMap<Uuid, usize>,
    /// (key, exchange) → slots.
    postings: HashMap<(u64, Exchange), Vec<usize>>,
    /// (subject word, exchange) → slots, for markets with no year to look up.
    word_postings: HashMap<(u64, Exchange), Vec<usize>>,
}

impl MatchIndex {
    /// Indexes `inputs` and scores every candidate pair.
    pub fn build(inputs: &[MatchInput]) -> MatchIndex {
        let mut index = MatchIndex::default();
        for input in inputs {
            index.insert(input);
        }
        let slots: Vec<usize> = (0..index.entries.len()).collect();
        for slot in slots {
            if index.entry(slot).exchange == Exchange::Polymarket {
                index.connect(slot);
            }
        }
        index
    }

    pub fn len(&self) -> usize {
        self.slot_of.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slot_of.is_empty()
    }

    /// Every served match, both directions of each pair, ordered by market id and then
    /// best first.
    pub fn pairs(&self) -> Vec<MatchPair> {
        let mut pairs: Vec<MatchPair> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_slot, entry)| entry.is_some())
            .flat_map(|(slot, _entry)| self.served(slot))
            .collect();
        sort_pairs(&mut pairs);
        pairs
    }

    /// The served matches of `ids` (rows whose `market_id` is one of them).
    pub fn matches_of(&self, ids: &[Uuid]) -> Vec<MatchPair> {
        let mut pairs: Vec<MatchPair> = ids
            .iter()
            .filter_map(|id| self.slot_of.get(id))
            .flat_map(|&slot| self.served(slot))
            .collect();
        sort_pairs(&mut pairs);
        pairs.dedup();
        pairs
    }

    /// Adds or replaces markets and rescores their pairs.
    pub fn upsert(&mut self, inputs: &[MatchInput]) -> MatchDelta {
        let mut touched = BTreeSet::new();
        for input in inputs {
            if let Some(&slot) = self.slot_of.get(&input.id) {
                touched.extend(self.detach(slot));
            }
            let slot = self.insert(input);
            touched.extend(self.connect(slot));
            touched.insert(slot);
        }
        self.delta(touched)
    }

    /// Drops markets and their pairs.
    pub fn remove(&mut self, ids: &[Uuid]) -> MatchDelta {
        let mut touched = BTreeSet::new();
        let mut removed = BTreeSet::new();
        for id in ids {
            if let Some(&slot) = self.slot_of.get(id) {
                touched.extend(self.detach(slot));
                self.unindex(slot);
                removed.insert(*id);
            }
        }
        let mut delta = self.delta(touched);
        delta.markets.extend(removed);
        delta
    }

    fn entry(&self, slot: usize) -> &Entry {
        self.entries[slot].as_ref().expect("a live slot")
    }

    fn insert(&mut self, input: &MatchInput) -> usize {
        let features = input.features();
        let words: Vec<u64> = features.key_words().iter().map(|word| hash(word)).collect();
        let years = features.years();
        let thresholds: Vec<u64> = features.threshold_tokens().iter().map(|token| hash(token)).collect();
        let mut keys: Vec<u64> = if years.is_empty() {
            words.iter().map(|word| year_key(*word, NO_YEAR)).collect()
        } else {
            words
                .iter()
                .flat_map(|word| years.iter().map(move |year| year_key(*word, *year)))
                .collect()
        };
        // A dated market with thresholds meets only markets with the same ones. (Undated
        // markets keep plain keys: dated ones look them up by word alone.)
        if !thresholds.is_empty() && !years.is_empty() {
            keys = keys
                .iter()
                .flat_map(|key| thresholds.iter().map(move |threshold| key ^ threshold.rotate_left(17)))
                .collect();
        }
        let undated_words = if years.is_empty() { words.clone() } else { Vec::new() };
        let entry = Entry {
            id: input.id,
            exchange: input.exchange,
            features,
            keys,
            undated_words,
            edges: Vec::new(),
        };
        let slot = match self.free_slots.pop() {
            Some(slot) => {
                self.entries[slot] = Some(entry);
                slot
            }
            None => {
                self.entries.push(Some(entry));
                self.entries.len() - 1
            }
        };
        let entry = self.entry(slot);
        let exchange = entry.exchange;
        let keys = entry.keys.clone();
        for key in keys {
            self.postings.entry((key, exchange)).or_default().push(slot);
        }
        for word in words {
            self.word_postings.entry((word, exchange)).or_default().push(slot);
        }
        self.slot_of.insert(input.id, slot);
        slot
    }

    /// The other exchange's markets that share a key with `slot`.
    fn candidates(&self, slot: usize) -> BTreeSet<usize> {
        let entry = self.entry(slot);
        let other = entry.exchange.other();
        let mut candidates = BTreeSet::new();
        let mut take = |list: Option<&Vec<usize>>| {
            if let Some(list) = list.filter(|list| list.len() <= MAX_POSTINGS) {
                candidates.extend(list.iter().copied());
            }
        };
        for key in &entry.keys {
            take(self.postings.get(&(*key, other)));
        }
        // A dated market also meets the other exchange's undated ones, and an undated one
        // meets every year.
        for word in entry.features.key_words() {
            let word = hash(&word);
            if entry.undated_words.is_empty() {
                take(self.postings.get(&(year_key(word, NO_YEAR), other)));
            } else {
                take(self.word_postings.get(&(word, other)));
            }
        }
        candidates
    }

    /// Scores `slot` against its candidates and records the edges above the threshold on
    /// both ends. Returns the slots it connected to.
    fn connect(&mut self, slot: usize) -> Vec<usize> {
        let mut connected = Vec::new();
        for candidate in self.candidates(slot) {
            let judgement = judge(&self.entry(slot).features, &self.entry(candidate).features);
            if judgement.refused_by.is_none() && judgement.similarity >= SERVING_THRESHOLD {
                let edge = |other: usize| Edge {
                    other,
                    similarity: judgement.similarity,
                    orientation: judgement.orientation,
                };
                self.entries[slot]
                    .as_mut()
                    .expect("a live slot")
                    .edges
                    .push(edge(candidate));
                self.entries[candidate]
                    .as_mut()
                    .expect("a live slot")
                    .edges
                    .push(edge(slot));
                connected.push(candidate);
            }
        }
        connected
    }

    /// Removes the edges of `slot` from both ends. Returns its former neighbours.
    fn detach(&mut self, slot: usize) -> Vec<usize> {
        let edges = std::mem::take(&mut self.entries[slot].as_mut().expect("a live slot").edges);
        let neighbours: Vec<usize> = edges.iter().map(|edge| edge.other).collect();
        for &neighbour in &neighbours {
            self.entries[neighbour]
                .as_mut()
                .expect("a live slot")
                .edges
                .retain(|edge| edge.other != slot);
        }
        self.unindex(slot);
        neighbours
    }

    /// Takes `slot` out of the postings and frees it.
    fn unindex(&mut self, slot: usize) {
        let Some(entry) = self.entries[slot].take() else {
            return;
        };
        let remove = |list: &mut Vec<usize>| list.retain(|listed| *listed != slot);
        for key in &entry.keys {
            if let Some(list) = self.postings.get_mut(&(*key, entry.exchange)) {
                remove(list);
            }
        }
        for word in entry.features.key_words() {
            if let Some(list) = self.word_postings.get_mut(&(hash(&word), entry.exchange)) {
                remove(list);
            }
        }
        self.slot_of.remove(&entry.id);
        self.free_slots.push(slot);
    }

    /// The markets whose served lists may have changed when `touched` changed edges: they,
    /// and every neighbour of theirs (a neighbour's pair with them may have entered or left
    /// its best five).
    fn delta(&self, touched: BTreeSet<usize>) -> MatchDelta {
        let mut slots: BTreeSet<usize> = touched
            .into_iter()
            .filter(|slot| self.entries.get(*slot).is_some_and(Option::is_some))
            .collect();
        let neighbours: Vec<usize> = slots
            .iter()
            .flat_map(|slot| self.entry(*slot).edges.iter().map(|edge| edge.other))
            .collect();
        slots.extend(neighbours);
        let mut pairs: Vec<MatchPair> = slots.iter().flat_map(|slot| self.served(*slot)).collect();
        sort_pairs(&mut pairs);
        MatchDelta {
            markets: slots.iter().map(|slot| self.entry(*slot).id).collect(),
            pairs,
        }
    }

    /// The best edges of `slot`, at most [`MAX_MATCHES_PER_MARKET`], best first.
    fn best(&self, slot: usize) -> Vec<Edge> {
        let mut edges = self.entry(slot).edges.clone();
        edges.sort_by(|left, right| {
            right
                .similarity
                .total_cmp(&left.similarity)
                .then_with(|| self.entry(left.other).id.cmp(&self.entry(right.other).id))
        });
        edges.truncate(MAX_MATCHES_PER_MARKET);
        edges
    }

    /// The pairs of `slot` that are among the best of both their markets, which keeps the
    /// served lists symmetric.
    fn served(&self, slot: usize) -> Vec<MatchPair> {
        let id = self.entry(slot).id;
        self.best(slot)
            .into_iter()
            .filter(|edge| self.best(edge.other).iter().any(|back| back.other == slot))
            .map(|edge| MatchPair {
                market_id: id,
                matched_id: self.entry(edge.other).id,
                similarity: edge.similarity,
                orientation: edge.orientation,
            })
            .collect()
    }
}

fn year_key(word: u64, year: i32) -> u64 {
    word ^ (u64::from(year as u32).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

fn sort_pairs(pairs: &mut [MatchPair]) {
    pairs.sort_by(|left, right| {
        left.market_id
            .cmp(&right.market_id)
            .then(right.similarity.total_cmp(&left.similarity))
            .then(left.matched_id.cmp(&right.matched_id))
    });
}
