//! Keyword queries read with the matcher's extractors, for explain's free-word search.
//!
//! "bitcoin above 100k december" names an asset, a threshold with a direction and a month.
//! Counting shared words cannot tell the $100,000 market from the $150,000 one; comparing
//! the extracted threshold and date can. A query is loose where a question is exact: a
//! bare "100k" matches "$100,000" whatever the unit, and a month without a year means its
//! next occurrence from "now", which the caller passes in.

use chrono::{Datelike, NaiveDate};

use super::extract::Features;
use super::extract::dates::Timing;
use super::extract::entities::Entities;
use super::extract::numbers::{Bound, Quantity, Unit};
use super::extract::tokens::tokenize;
use super::extract::{dates, entities, numbers};
use crate::market::Outcome;
use crate::text::{is_stopword, words};
use crate::time::Timestamp;

/// What a keyword query asks for.
#[derive(Debug, Clone)]
pub struct QueryFeatures {
    pub entities: Entities,
    pub quantities: Vec<Quantity>,
    pub timing: Timing,
    /// A month named without a day, as (year, month): "december" → the next December.
    pub month: Option<(i32, u32)>,
    /// The informative words, lower-cased.
    pub words: Vec<String>,
}

impl QueryFeatures {
    pub fn parse(query: &str, today: NaiveDate) -> QueryFeatures {
        let mut tokens = tokenize(query);
        let month = tokens.iter().find_map(|token| month_number(&token.lower)).map(|month| {
            let year = if month >= today.month() {
                today.year()
            } else {
                today.year() + 1
            };
            (year, month)
        });
        let timing = dates::extract(&mut tokens, Some(dates::Reference::Today(today)));
        let entities = entities::extract(&mut tokens);
        let quantities = numbers::extract(&mut tokens).quantities;
        let words = words(query).filter(|word| !is_stopword(word)).collect();
        QueryFeatures {
            entities,
            quantities,
            timing,
            month,
            words,
        }
    }

    /// How well a market answers the query, in `[0, 1]`: entities, thresholds and dates
    /// the query names, each counted only when the query names it. Takes what it reads of the
    /// market (its question, outcomes and end date), so that lists' summaries can be scored.
    pub fn score_market(&self, question: &str, outcomes: &[Outcome], end_date: Option<Timestamp>) -> f64 {
        let outcomes: Vec<String> = outcomes.iter().map(|outcome| outcome.name.clone()).collect();
        let features = Features::of(
            question,
            &outcomes,
            None,
            end_date.map(|end_date| end_date.date_naive()),
        );
        let mut parts: Vec<(f64, f64)> = Vec::new();
        if !self.entities.subjects.is_empty() || !self.entities.contexts.is_empty() {
            let wanted = self.entities.subjects.len() + self.entities.contexts.len();
            let found = self
                .entities
                .subjects
                .iter()
                .filter(|subject| {
                    features
                        .entities
                        .subjects
                        .iter()
                        .any(|other| subject.corresponds_to(other))
                })
                .count()
                + self
                    .entities
                    .contexts
                    .iter()
                    .filter(|context| features.entities.contexts.contains(context))
                    .count();
            parts.push((0.4, found as f64 / wanted as f64));
        }
        if !self.quantities.is_empty() {
            let found = self
                .quantities
                .iter()
                .filter(|quantity| features.quantities.iter().any(|other| loosely_agrees(quantity, other)))
                .count();
            parts.push((0.3, found as f64 / self.quantities.len() as f64));
        }
        if let Some(wanted) = self.wanted_month() {
            parts.push((0.2, month_score(wanted, &features)));
        } else if !self.timing.years.is_empty() {
            let years = features.years();
            let found = self.timing.years.iter().any(|year| years.contains(year));
            parts.push((0.2, f64::from(u8::from(found))));
        }
        if !self.words.is_empty() {
            let question_words: Vec<String> = words(question).collect();
            let found = self
                .words
                .iter()
                .filter(|word| question_words.iter().any(|other| other.starts_with(word.as_str())))
                .count();
            parts.push((0.1, found as f64 / self.words.len() as f64));
        }
        let weight: f64 = parts.iter().map(|(weight, _)| weight).sum();
        if weight == 0.0 {
            return 0.0;
        }
        parts.iter().map(|(weight, score)| weight * score).sum::<f64>() / weight
    }

    fn wanted_month(&self) -> Option<(i32, u32)> {
        match self.timing.resolution_date() {
            Some(date) => {
                let last_day = date.pred_opt().unwrap_or(date);
                Some((last_day.year(), last_day.month()))
            }
            None => self.month,
        }
    }
}

/// 1 when the market resolves in the wanted month, ½ in the wanted year, else 0.
fn month_score((year, month): (i32, u32), features: &Features) -> f64 {
    let resolves = features
        .timing
        .resolution_date()
        .map(|date| date.pred_opt().unwrap_or(date))
        .or(features.end_date);
    match resolves {
        Some(date) if date.year() == year && date.month() == month => 1.0,
        Some(date) if date.year() == year => 0.5,
        _ => 0.0,
    }
}

/// A query's bare number matches a number of any unit; directions must not contradict.
fn loosely_agrees(query: &Quantity, market: &Quantity) -> bool {
    let unit_free = Quantity {
        unit: market.unit,
        ..*query
    };
    let candidate = if query.unit == Unit::Count { &unit_free } else { query };
    let bound_free = Quantity {
        bound: Bound::Unstated,
        ..*candidate
    };
    candidate.agrees_with(market) || (market.bound == Bound::Unstated && bound_free.agrees_with(market))
}

fn month_number(word: &str) -> Option<u32> {
    let months = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    months
        .iter()
        .position(|month| *month == word)
        .map(|index| index as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::category::Category;
    use crate::exchange::Exchange;
    use crate::market::{Market, MarketStatus, Rules, UrlKeys};

    fn score(query: &QueryFeatures, market: &Market) -> f64 {
        query.score_market(&market.question, &market.outcomes, market.end_date)
    }

    fn market(question: &str, end: &str) -> Market {
        Market {
            exchange: Exchange::Polymarket,
            external_id: question.to_owned(),
            event_external_id: None,
            question: question.to_owned(),
            description: String::new(),
            status: MarketStatus::Open,
            category: Category::Crypto,
            liquidity: 0.0,
            volume: 0.0,
            volume_24h: 0.0,
            start_date: None,
            end_date: Some(format!("{end}T12:00:00Z").parse().unwrap()),
            created_at: None,
            source_updated_at: None,
            outcomes: vec![
                Outcome {
                    name: "Yes".to_owned(),
                    price: 0.5,
                    best_bid_price: None,
                    best_ask_price: None,
                },
                Outcome {
                    name: "No".to_owned(),
                    price: 0.5,
                    best_bid_price: None,
                    best_ask_price: None,
                },
            ],
            url_keys: UrlKeys::default(),
            url: String::new(),
            image_url: String::new(),
            rules: Rules::default(),
            resolution: None,
        }
    }

    #[test]
    fn prefers_the_market_with_the_queried_threshold_and_month() {
        let today = NaiveDate::from_ymd_opt(2025, 6, 24).unwrap();
        let query = QueryFeatures::parse("bitcoin above 100k december", today);
        assert_eq!(query.month, Some((2025, 12)));
        assert_eq!(query.quantities.len(), 1);
        // Polymarket 516868, 516864 and 516869 (gamma-events-1.json).
        let wanted = score(
            &query,
            &market("Will Bitcoin reach $100,000 by December 31, 2025?", "2025-12-31"),
        );
        let higher = score(
            &query,
            &market("Will Bitcoin reach $150,000 by December 31, 2025?", "2025-12-31"),
        );
        let dip = score(
            &query,
            &market("Will Bitcoin dip to $90,000 by December 31, 2025?", "2025-12-31"),
        );
        let june = score(&query, &market("Will Bitcoin reach $100,000 by June 30?", "2025-06-30"));
        assert!(
            wanted > higher && wanted > dip && wanted > june,
            "{wanted} {higher} {dip} {june}"
        );
        assert!(wanted > 0.95, "{wanted}");
    }

    #[test]
    fn a_query_without_numbers_or_dates_is_scored_on_what_it_names() {
        let today = NaiveDate::from_ymd_opt(2026, 1, 31).unwrap();
        let query = QueryFeatures::parse("thunder nba finals", today);
        let thunder = score(
            &query,
            &market("Will the Oklahoma City Thunder win the 2026 NBA Finals?", "2026-07-01"),
        );
        let celtics = score(
            &query,
            &market("Will the Boston Celtics win the 2026 NBA Finals?", "2026-07-01"),
        );
        assert!(thunder > celtics, "{thunder} {celtics}");
    }
}
