//! Candidate generation and the match graph, kept up to date market by market.
//!
//! Comparing every market with every other is N² and a million markets make that 10¹²
//! comparisons. A match needs the same subject, a compatible date and the same threshold,
//! so markets are blocked by (subject word, month or year, threshold) keys (see
//! [`Blocking`]): a market is compared only with the other exchange's markets it meets
//! through a key. Keys so common that they no longer narrow anything (more
//! than [`MAX_POSTINGS`] markets of one exchange) are skipped; the pairs they would have
//! proposed share rarer keys when they are real matches.
//!
//! The index keeps every scored pair above the serving threshold (the edges) and serves,
//! for each market, the pairs that are among the best [`MAX_MATCHES_PER_MARKET`] of both
//! of their markets. A changed market recomputes only its own edges; the markets whose
//! served lists can change are it, its neighbours, and their neighbours, and those are
//! what [`MatchIndex::upsert`] returns.

use chrono::{Datelike, Days, NaiveDate};
use std::collections::{BTreeSet, HashMap};
use uuid::Uuid;

use super::extract::{Features, hash};
use super::score::{GAME_DAY_TOLERANCE_DAYS, judge, refused_before_subjects};
use super::{MAX_MATCHES_PER_MARKET, MatchInput, MatchPair, Orientation, SERVING_THRESHOLD};
use crate::exchange::Exchange;

/// A blocking key with more markets than this on one exchange is skipped.
pub const MAX_POSTINGS: usize = 2_000;

struct Entry {
    id: Uuid,
    exchange: Exchange,
    features: Features,
    /// The blocking keys it is listed under.
    keys: Vec<u64>,
    /// The keys it looks up: its own, and the coarser or finer ones of compatible dates.
    probes: Vec<u64>,
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
        let blocking = Blocking::of(&features, &words, input.exchange);
        let entry = Entry {
            id: input.id,
            exchange: input.exchange,
            features,
            keys: blocking.inserted,
            probes: blocking.probed,
            undated_words: blocking.undated_words,
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
        for key in &entry.probes {
            take(self.postings.get(&(*key, other)));
        }
        // An undated market meets every year of its subject words.
        for word in &entry.undated_words {
            take(self.word_postings.get(&(*word, other)));
        }
        candidates
    }

    /// Scores `slot` against its candidates and records the edges above the threshold on
    /// both ends. Returns the slots it connected to.
    fn connect(&mut self, slot: usize) -> Vec<usize> {
        let mut connected = Vec::new();
        for candidate in self.candidates(slot) {
            let (own, theirs) = (&self.entry(slot).features, &self.entry(candidate).features);
            if refused_before_subjects(own, theirs) {
                continue;
            }
            let judgement = judge(own, theirs);
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

/// When a market resolves, as coarse as its question allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bucket {
    /// A stated deadline or day: its month (year × 12 + month).
    Month(i32),
    /// Only a year (stated, or its end date's).
    Year(i32),
    /// No year at all.
    Undated,
}

impl Bucket {
    fn code(self) -> u64 {
        match self {
            Bucket::Month(month) => (1 << 40) | u64::from(month as u32),
            Bucket::Year(year) => (2 << 40) | u64::from(year as u32),
            Bucket::Undated => 0,
        }
    }
}

/// The keys of one market: (subject word, time bucket, threshold).
///
/// A market with a deadline is listed under the months around it (a day either side, so
/// deadlines written in two time zones meet) and also looks up the years of those months;
/// a market with only a year is listed under it and looks up its twelve months. So a dated
/// and a yearly market meet from either side, which keeps an incremental update equal to a
/// full rematch. Thresholds must agree for a match, so they are part of the key.
struct Blocking {
    inserted: Vec<u64>,
    probed: Vec<u64>,
    undated_words: Vec<u64>,
}

impl Blocking {
    fn of(features: &Features, words: &[u64], exchange: Exchange) -> Blocking {
        let thresholds: Vec<u64> = if features.quantities.is_empty() {
            vec![0]
        } else {
            features.threshold_tokens().iter().map(|token| hash(token)).collect()
        };
        let years = features.years();
        let (listed, looked_up): (Vec<Bucket>, Vec<Bucket>) = match features.timing.resolution_date() {
            Some(date) => {
                let mut months: Vec<i32> = [date - Days::new(2), date - Days::new(1), date]
                    .iter()
                    .map(|day| day.year() * 12 + day.month0() as i32)
                    .collect();
                months.dedup();
                let mut years: Vec<i32> = months.iter().map(|month| month.div_euclid(12)).collect();
                years.dedup();
                let listed: Vec<Bucket> = months.into_iter().map(Bucket::Month).collect();
                let looked_up = listed
                    .iter()
                    .copied()
                    .chain(years.into_iter().map(Bucket::Year))
                    .collect();
                (listed, looked_up)
            }
            None if !years.is_empty() => {
                let listed: Vec<Bucket> = years.iter().map(|year| Bucket::Year(*year)).collect();
                let months = years
                    .iter()
                    .flat_map(|year| (0..12).map(move |month| Bucket::Month(year * 12 + month)));
                let looked_up = listed.iter().copied().chain(months).collect();
                (listed, looked_up)
            }
            None => (vec![Bucket::Undated], vec![Bucket::Undated]),
        };
        let keys = |buckets: &[Bucket]| -> Vec<u64> {
            let mut keys = Vec::with_capacity(words.len() * buckets.len() * thresholds.len());
            for word in words {
                for bucket in buckets {
                    for threshold in &thresholds {
                        keys.push(blocking_key(*word, *bucket, *threshold));
                    }
                }
            }
            keys.sort_unstable();
            keys.dedup();
            keys
        };
        let mut probed = keys(&looked_up);
        // Dated markets also meet the other exchange's undated ones.
        if listed != [Bucket::Undated] {
            probed.extend(words.iter().map(|word| blocking_key(*word, Bucket::Undated, 0)));
        }
        let mut inserted = if listed == [Bucket::Undated] {
            words
                .iter()
                .map(|word| blocking_key(*word, Bucket::Undated, 0))
                .collect()
        } else {
            keys(&listed)
        };
        // The form is part of a game's key: a busy day's two-sided markets are many, those
        // asking one thing of their games (both teams scoring, a total of 45.5) few.
        let form = hash(&features.form.form().to_string());
        let game_keys: Vec<u64> = game_days(features, exchange)
            .into_iter()
            .flat_map(|day| {
                thresholds
                    .iter()
                    .map(move |threshold| game_day_key(day, form, *threshold))
            })
            .collect();
        inserted.extend(&game_keys);
        probed.extend(game_keys);
        Blocking {
            inserted,
            probed,
            undated_words: if listed == [Bucket::Undated] {
                words.to_vec()
            } else {
                Vec::new()
            },
        }
    }
}

/// The days a market is listed and looked up under as a game. A Kalshi market that names no
/// side and whose ticker names its game ("Will both teams score?",
/// `KXMLSBTTS-26MAY13DALVAN-BTTS`) has no subject word to meet Polymarket's markets by: it
/// meets, by its game's day, those naming two sides that end within a day of it.
fn game_days(features: &Features, exchange: Exchange) -> Vec<NaiveDate> {
    if exchange == Exchange::Kalshi {
        return match &features.game {
            Some(game) if features.entities.subjects.is_empty() => (-GAME_DAY_TOLERANCE_DAYS..=GAME_DAY_TOLERANCE_DAYS)
                .filter_map(|offset| game.day.checked_add_signed(chrono::Duration::days(offset)))
                .collect(),
            _ => Vec::new(),
        };
    }
    let sides = features
        .named_outcomes
        .as_deref()
        .unwrap_or(&features.entities.subjects);
    if sides.len() != 2 {
        return Vec::new();
    }
    let mut days: Vec<NaiveDate> = features.end_date.into_iter().chain(features.end_day_american).collect();
    days.sort_unstable();
    days.dedup();
    days
}

fn game_day_key(day: NaiveDate, form: u64, threshold: u64) -> u64 {
    const GAME: u64 = 0x6761_6d65_2064_6179;
    blocking_key(
        (GAME ^ form).rotate_left(17) ^ u64::from(day.num_days_from_ce() as u32),
        Bucket::Undated,
        threshold,
    )
}

fn blocking_key(word: u64, bucket: Bucket, threshold: u64) -> u64 {
    (word ^ bucket.code().wrapping_mul(0x9e37_79b9_7f4a_7c15)).rotate_left(23)
        ^ threshold.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
}

fn sort_pairs(pairs: &mut [MatchPair]) {
    pairs.sort_by(|left, right| {
        left.market_id
            .cmp(&right.market_id)
            .then(right.similarity.total_cmp(&left.similarity))
            .then(left.matched_id.cmp(&right.matched_id))
    });
}
