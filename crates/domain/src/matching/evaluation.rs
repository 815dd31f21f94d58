//! Measuring the matcher on the labelled corpus: precision, recall and F1 at the serving
//! threshold, overall and per source, every pair it gets wrong, and how it generalizes.
//!
//! The corpus (`tests/data/matching/corpus.jsonl`, rules in its SOURCES.md) holds real
//! question pairs of the two exchanges, each labelled `match` or `no_match` and naming the
//! independent public source it was drawn from. Each pair is judged on its own, as `--why`
//! would judge it; the per-market cap of five plays no part.
//!
//! A figure on the pairs a rule was written from says little about pairs it was not, so the
//! figure that counts is **leave one source out**: for each source, whatever the matcher
//! tunes (today the threshold) is chosen on the other sources alone, and the source is judged
//! with it; the counts of every held-out source are pooled. A rule fitted to one source's
//! wording shows up there as a loss that the overall figure hides.
//!
//! Parsing is here and reading the file is the caller's, so the domain stays free of I/O
//! and the CI test and `marketlens match --evaluate` print the same figures.

use serde::Deserialize;
use std::fmt;
use uuid::Uuid;

use super::{MatchInput, SERVING_THRESHOLD, explain};
use crate::exchange::Exchange;
use crate::time::Timestamp;

/// One line of the labelled corpus.
#[derive(Debug, Clone, Deserialize)]
pub struct LabelledPair {
    pub id: String,
    pub label: Label,
    /// What differs in a non-match (`threshold`, `date`, `form`, ...), or `match`.
    #[serde(default)]
    pub kind: Option<String>,
    pub reason: String,
    /// The independent public source the pair was drawn from (a repository).
    pub source: String,
    pub polymarket: LabelledMarket,
    pub kalshi: LabelledMarket,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    Match,
    NoMatch,
}

#[derive(Debug, Clone, Deserialize)]
pub struct LabelledMarket {
    pub question: String,
    /// A time, or a date alone where the recording kept only the day (read as noon UTC, a
    /// time on that day in both exchanges' time zones).
    #[serde(deserialize_with = "time_or_date")]
    pub end_date: Option<Timestamp>,
    /// `null` where the recording lacks them: read as none, which the matcher takes as Yes/No.
    #[serde(deserialize_with = "none_when_null")]
    pub outcomes: Vec<String>,
    pub event_title: Option<String>,
    /// Kalshi's ticker, where the recording kept it.
    #[serde(default)]
    pub ticker: Option<String>,
    pub source: String,
}

fn time_or_date<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Timestamp>, D::Error> {
    let Some(text) = Option::<String>::deserialize(deserializer)? else {
        return Ok(None);
    };
    if let Ok(time) = chrono::DateTime::parse_from_rfc3339(&text) {
        return Ok(Some(time.to_utc()));
    }
    chrono::NaiveDate::parse_from_str(&text, "%Y-%m-%d")
        .map(|date| {
            Some(
                date.and_time(chrono::NaiveTime::from_hms_opt(12, 0, 0).unwrap_or_default())
                    .and_utc(),
            )
        })
        .map_err(|error| serde::de::Error::custom(format!("end_date {text:?}: {error}")))
}

fn none_when_null<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    Ok(Option::<Vec<String>>::deserialize(deserializer)?.unwrap_or_default())
}

impl LabelledMarket {
    /// The market as the matcher reads it, listed on `exchange`.
    pub fn input(&self, exchange: Exchange) -> MatchInput {
        MatchInput {
            id: Uuid::nil(),
            exchange,
            question: self.question.clone(),
            end_date: self.end_date,
            outcomes: self.outcomes.clone(),
            event_title: self.event_title.clone(),
            external_id: self.ticker.clone().unwrap_or_default(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

/// Parses the JSON-lines text of a labelled set (blank lines are skipped).
pub fn parse(text: &str) -> Result<Vec<LabelledPair>, ParseError> {
    text.lines()
        .enumerate()
        .filter(|(_number, line)| !line.trim().is_empty())
        .map(|(number, line)| {
            serde_json::from_str(line).map_err(|error| ParseError {
                line: number + 1,
                message: error.to_string(),
            })
        })
        .collect()
}

/// A pair the matcher got wrong.
#[derive(Debug, Clone)]
pub struct Mistake {
    pub pair: LabelledPair,
    pub similarity: f64,
    /// The field that refused the pair, if one did.
    pub refused_by: Option<&'static str>,
}

/// The figures of one run over the labelled set.
#[derive(Debug, Clone)]
pub struct Evaluation {
    pub threshold: f64,
    pub pairs: usize,
    pub positives: usize,
    pub true_positives: usize,
    pub false_positives: usize,
    pub false_negatives: usize,
    pub mistakes: Vec<Mistake>,
}

impl Evaluation {
    pub fn precision(&self) -> f64 {
        ratio(self.true_positives, self.true_positives + self.false_positives)
    }

    pub fn recall(&self) -> f64 {
        ratio(self.true_positives, self.true_positives + self.false_negatives)
    }

    pub fn f1(&self) -> f64 {
        let (precision, recall) = (self.precision(), self.recall());
        if precision + recall == 0.0 {
            0.0
        } else {
            2.0 * precision * recall / (precision + recall)
        }
    }
}

/// No predictions means no wrong ones: an empty denominator counts as 1.
fn ratio(numerator: usize, denominator: usize) -> f64 {
    if denominator == 0 {
        1.0
    } else {
        numerator as f64 / denominator as f64
    }
}

/// A pair as the matcher judged it, before any threshold.
#[derive(Debug, Clone)]
struct Judged<'a> {
    pair: &'a LabelledPair,
    similarity: f64,
    refused_by: Option<&'static str>,
}

impl Judged<'_> {
    fn of(pair: &LabelledPair) -> Judged<'_> {
        let judgement = explain(
            &pair.polymarket.input(Exchange::Polymarket),
            &pair.kalshi.input(Exchange::Kalshi),
        )
        .judgement;
        Judged {
            pair,
            similarity: judgement.similarity,
            refused_by: judgement.refused_by.map(super::Field::label),
        }
    }

    fn predicted(&self, threshold: f64) -> bool {
        self.refused_by.is_none() && self.similarity >= threshold
    }
}

/// Judges every pair at `threshold` (normally [`SERVING_THRESHOLD`]).
pub fn evaluate(pairs: &[LabelledPair], threshold: f64) -> Evaluation {
    let judged: Vec<Judged> = pairs.iter().map(Judged::of).collect();
    tally(&judged, threshold)
}

fn tally(judged: &[Judged], threshold: f64) -> Evaluation {
    let mut evaluation = Evaluation {
        threshold,
        pairs: judged.len(),
        positives: 0,
        true_positives: 0,
        false_positives: 0,
        false_negatives: 0,
        mistakes: Vec::new(),
    };
    for judged in judged {
        let predicted = judged.predicted(threshold);
        let actual = judged.pair.label == Label::Match;
        evaluation.positives += usize::from(actual);
        match (predicted, actual) {
            (true, true) => evaluation.true_positives += 1,
            (true, false) => evaluation.false_positives += 1,
            (false, true) => evaluation.false_negatives += 1,
            (false, false) => {}
        }
        if predicted != actual {
            evaluation.mistakes.push(Mistake {
                pair: judged.pair.clone(),
                similarity: judged.similarity,
                refused_by: judged.refused_by,
            });
        }
    }
    evaluation
}

/// Judges at the serving threshold.
pub fn evaluate_at_serving_threshold(pairs: &[LabelledPair]) -> Evaluation {
    evaluate(pairs, SERVING_THRESHOLD)
}

/// The precision a threshold is chosen to reach on the pairs it is tuned on: a wrong match
/// costs a trader money, a missed one only an opportunity.
pub const TARGET_PRECISION: f64 = 0.95;

/// The thresholds tried when one is tuned: 0.50 to 0.99 by 0.01.
fn candidate_thresholds() -> impl Iterator<Item = f64> {
    (50..100).map(|hundredths| f64::from(hundredths) / 100.0)
}

/// The threshold tuned on `judged`: the one with the most recall among those whose precision
/// reaches [`TARGET_PRECISION`], else the most precise (the highest among equals, which
/// leaves the most margin).
fn tune_threshold(judged: &[Judged]) -> f64 {
    let tallies: Vec<Evaluation> = candidate_thresholds()
        .map(|threshold| tally(judged, threshold))
        .collect();
    let precise_enough = tallies
        .iter()
        .filter(|tally| tally.precision() >= TARGET_PRECISION)
        .max_by(|a, b| {
            a.recall()
                .total_cmp(&b.recall())
                .then(a.threshold.total_cmp(&b.threshold))
        });
    let chosen = precise_enough.or_else(|| {
        tallies.iter().max_by(|a, b| {
            a.precision()
                .total_cmp(&b.precision())
                .then(a.threshold.total_cmp(&b.threshold))
        })
    });
    chosen.map_or(SERVING_THRESHOLD, |tally| tally.threshold)
}

/// One held-out source: the threshold tuned on every other source, and this source judged
/// with it.
#[derive(Debug, Clone)]
pub struct Fold {
    pub source: String,
    pub evaluation: Evaluation,
}

/// The whole report: at the serving threshold overall and per source, and leave one source
/// out.
#[derive(Debug, Clone)]
pub struct Report {
    pub overall: Evaluation,
    pub per_source: Vec<(String, Evaluation)>,
    pub folds: Vec<Fold>,
    /// The held-out counts of every fold, pooled (its `threshold` is meaningless: each fold
    /// had its own).
    pub left_out: Evaluation,
    /// The threshold the same tuning gives on every pair: what [`SERVING_THRESHOLD`] is.
    pub tuned_threshold: f64,
}

/// Measures the matcher on `pairs`: see the module's documentation.
pub fn report(pairs: &[LabelledPair]) -> Report {
    let judged: Vec<Judged> = pairs.iter().map(Judged::of).collect();
    let mut sources: Vec<&str> = pairs.iter().map(|pair| pair.source.as_str()).collect();
    sources.sort_unstable();
    sources.dedup();
    let of_source = |source: &str| -> Vec<Judged> {
        judged
            .iter()
            .filter(|judged| judged.pair.source == source)
            .cloned()
            .collect()
    };
    let per_source = sources
        .iter()
        .map(|source| (source.to_string(), tally(&of_source(source), SERVING_THRESHOLD)))
        .collect();
    let folds: Vec<Fold> = sources
        .iter()
        .map(|source| {
            let others: Vec<Judged> = judged
                .iter()
                .filter(|judged| judged.pair.source != *source)
                .cloned()
                .collect();
            Fold {
                source: source.to_string(),
                evaluation: tally(&of_source(source), tune_threshold(&others)),
            }
        })
        .collect();
    let mut left_out = tally(&[], SERVING_THRESHOLD);
    for fold in &folds {
        left_out.pairs += fold.evaluation.pairs;
        left_out.positives += fold.evaluation.positives;
        left_out.true_positives += fold.evaluation.true_positives;
        left_out.false_positives += fold.evaluation.false_positives;
        left_out.false_negatives += fold.evaluation.false_negatives;
        left_out.mistakes.extend(fold.evaluation.mistakes.iter().cloned());
    }
    Report {
        overall: tally(&judged, SERVING_THRESHOLD),
        per_source,
        folds,
        left_out,
        tuned_threshold: tune_threshold(&judged),
    }
}

impl Evaluation {
    /// One line of figures.
    pub fn summary(&self) -> String {
        // A figure with nothing to count is shown as a dash, not as a perfect score.
        let figure = |value: f64, counted: usize| {
            if counted == 0 {
                "  -  ".to_owned()
            } else {
                format!("{value:.3}")
            }
        };
        format!(
            "precision {}  recall {}  F1 {}  ({} pairs, {} matches: {} found, {} wrongly matched, {} missed)",
            figure(self.precision(), self.true_positives + self.false_positives),
            figure(self.recall(), self.positives),
            figure(self.f1(), self.positives + self.false_positives),
            self.pairs,
            self.positives,
            self.true_positives,
            self.false_positives,
            self.false_negatives
        )
    }
}

impl fmt::Display for Report {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            formatter,
            "Leave one source out (threshold tuned on the other sources, to precision {TARGET_PRECISION} there):"
        )?;
        writeln!(formatter, "  {}", self.left_out.summary())?;
        for fold in &self.folds {
            writeln!(
                formatter,
                "    {:<45} threshold {:.2}  {}",
                fold.source,
                fold.evaluation.threshold,
                fold.evaluation.summary()
            )?;
        }
        let wrong: Vec<&Mistake> = self
            .left_out
            .mistakes
            .iter()
            .filter(|mistake| mistake.pair.label == Label::NoMatch)
            .collect();
        if !wrong.is_empty() {
            writeln!(formatter, "  wrongly matched when their source was left out:")?;
            for mistake in wrong {
                writeln!(
                    formatter,
                    "    [{}, {}] similarity {:.3}: {} | {}",
                    mistake.pair.id,
                    mistake.pair.source,
                    mistake.similarity,
                    mistake.pair.polymarket.question,
                    mistake.pair.kalshi.question
                )?;
            }
        }
        writeln!(
            formatter,
            "At the serving threshold {SERVING_THRESHOLD:.2}, per source:"
        )?;
        for (source, evaluation) in &self.per_source {
            writeln!(formatter, "    {source:<45} {}", evaluation.summary())?;
        }
        writeln!(
            formatter,
            "Tuned on every pair the same way: threshold {:.2} (the serving threshold must be it)",
            self.tuned_threshold
        )?;
        writeln!(formatter, "At the serving threshold, overall:")?;
        write!(formatter, "{}", self.overall)
    }
}

impl fmt::Display for Evaluation {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            formatter,
            "{} labelled pairs ({} matches); serving threshold {:.3}",
            self.pairs, self.positives, self.threshold
        )?;
        writeln!(
            formatter,
            "precision {:.3}  recall {:.3}  F1 {:.3}  (true positives {}, false positives {}, false negatives {})",
            self.precision(),
            self.recall(),
            self.f1(),
            self.true_positives,
            self.false_positives,
            self.false_negatives
        )?;
        if self.mistakes.is_empty() {
            return write!(formatter, "no errors");
        }
        writeln!(formatter, "errors:")?;
        for mistake in &self.mistakes {
            let kind = match mistake.pair.label {
                Label::Match => "missed",
                Label::NoMatch => "wrongly matched",
            };
            let refusal = mistake
                .refused_by
                .map(|field| format!(", refused by {field}"))
                .unwrap_or_default();
            writeln!(
                formatter,
                "  [{}, {}] {kind} (similarity {:.3}{refusal}): {}",
                mistake.pair.id, mistake.pair.source, mistake.similarity, mistake.pair.reason
            )?;
            writeln!(formatter, "      Polymarket: {}", mistake.pair.polymarket.question)?;
            writeln!(formatter, "      Kalshi:     {}", mistake.pair.kalshi.question)?;
        }
        Ok(())
    }
}
