//! Measuring the matcher on the labelled set: precision, recall and F1 at the serving
//! threshold, and every pair it gets wrong.
//!
//! The set (`tests/data/matching/pairs.jsonl`, rules in `docs/MATCHING.md`) holds real
//! question pairs of the two exchanges, each labelled `match` or `no_match`. Each pair is
//! judged on its own, as `--why` would judge it; the per-market cap of five plays no part.
//! Parsing is here and reading the file is the caller's, so the domain stays free of I/O
//! and the CI test and `marketlens match --evaluate` print the same figures.

use serde::Deserialize;
use std::fmt;
use uuid::Uuid;

use super::{MatchInput, SERVING_THRESHOLD, explain};
use crate::exchange::Exchange;
use crate::time::Timestamp;

/// One line of the labelled set.
#[derive(Debug, Clone, Deserialize)]
pub struct LabelledPair {
    pub id: String,
    pub label: Label,
    pub reason: String,
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
    pub end_date: Option<Timestamp>,
    pub outcomes: Vec<String>,
    pub event_title: Option<String>,
    pub source: String,
}

impl LabelledMarket {
    fn input(&self, exchange: Exchange) -> MatchInput {
        MatchInput {
            id: Uuid::nil(),
            exchange,
            question: self.question.clone(),
            end_date: self.end_date,
            outcomes: self.outcomes.clone(),
            event_title: self.event_title.clone(),
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

/// Judges every pair at `threshold` (normally [`SERVING_THRESHOLD`]).
pub fn evaluate(pairs: &[LabelledPair], threshold: f64) -> Evaluation {
    let mut evaluation = Evaluation {
        threshold,
        pairs: pairs.len(),
        positives: 0,
        true_positives: 0,
        false_positives: 0,
        false_negatives: 0,
        mistakes: Vec::new(),
    };
    for pair in pairs {
        let comparison = explain(
            &pair.polymarket.input(Exchange::Polymarket),
            &pair.kalshi.input(Exchange::Kalshi),
        );
        let judgement = comparison.judgement;
        let predicted = judgement.refused_by.is_none() && judgement.similarity >= threshold;
        let actual = pair.label == Label::Match;
        evaluation.positives += usize::from(actual);
        match (predicted, actual) {
            (true, true) => evaluation.true_positives += 1,
            (true, false) => evaluation.false_positives += 1,
            (false, true) => evaluation.false_negatives += 1,
            (false, false) => {}
        }
        if predicted != actual {
            evaluation.mistakes.push(Mistake {
                pair: pair.clone(),
                similarity: judgement.similarity,
                refused_by: judgement.refused_by.map(super::Field::label),
            });
        }
    }
    evaluation
}

/// Judges at the serving threshold.
pub fn evaluate_at_serving_threshold(pairs: &[LabelledPair]) -> Evaluation {
    evaluate(pairs, SERVING_THRESHOLD)
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
                "  [{}] {kind} (similarity {:.3}{refusal}): {}",
                mistake.pair.id, mistake.similarity, mistake.pair.reason
            )?;
            writeln!(formatter, "      Polymarket: {}", mistake.pair.polymarket.question)?;
            writeln!(formatter, "      Kalshi:     {}", mistake.pair.kalshi.question)?;
        }
        Ok(())
    }
}
