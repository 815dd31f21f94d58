//! Markets as memory keeps them: about 120 bytes in place and two small allocations each, so
//! that a million fit in a few hundred megabytes. Built from and turned back into
//! [`MarketSummary`] exactly (the equivalence tests compare the two).

use marketlens_domain::time::from_epoch_millis;
use marketlens_domain::{Category, Exchange, MarketStatus, Outcome};
use marketlens_storage::MarketSummary;
use std::borrow::Cow;
use std::collections::HashMap;
use uuid::Uuid;

/// No end date / no bid or ask: values the data cannot hold (dates are after year 0; prices
/// are finite).
const NO_DATE: i64 = i64::MIN;

/// `url_market_len` values that keep no copy of the URL key: the market has none, or it is the
/// external id in lower case (every Kalshi ticker), which `text` already holds.
const NO_URL_MARKET: u32 = u32::MAX;
const URL_MARKET_IS_EXTERNAL_ID: u32 = u32::MAX - 1;

pub struct CompactMarket {
    pub id: Uuid,
    /// The external id, then the URL key when it is kept (see `url_market_len`), then the question.
    text: Box<str>,
    outcomes: Box<[CompactOutcome]>,
    pub volume: f64,
    pub volume_24h: f64,
    pub liquidity: f64,
    pub created_at_millis: i64,
    pub observed_at_millis: i64,
    end_date_millis: i64,
    /// Nil for none.
    event_id: Uuid,
    external_id_len: u32,
    /// The URL key's length in `text`, or [`NO_URL_MARKET`] or [`URL_MARKET_IS_EXTERNAL_ID`].
    url_market_len: u32,
    pub exchange: Exchange,
    pub status: MarketStatus,
    pub category: Category,
}

struct CompactOutcome {
    /// Into the snapshot's [`OutcomeNames`].
    name: u32,
    price: f64,
    /// NaN for none.
    best_bid_price: f64,
    best_ask_price: f64,
}

/// Outcome names, each kept once ("Yes" and "No" are most of them).
#[derive(Default)]
pub struct OutcomeNames {
    names: Vec<Box<str>>,
    positions: HashMap<Box<str>, u32>,
}

impl OutcomeNames {
    fn intern(&mut self, name: &str) -> u32 {
        if let Some(position) = self.positions.get(name) {
            return *position;
        }
        let position = self.names.len() as u32;
        self.names.push(name.into());
        self.positions.insert(name.into(), position);
        position
    }

    fn name(&self, position: u32) -> &str {
        &self.names[position as usize]
    }
}

fn optional(value: f64) -> Option<f64> {
    (!value.is_nan()).then_some(value)
}

impl CompactMarket {
    pub fn new(summary: &MarketSummary, names: &mut OutcomeNames) -> CompactMarket {
        let (url_market, url_market_len) = match summary.url_market.as_deref() {
            None => ("", NO_URL_MARKET),
            Some(key)
                if key.eq_ignore_ascii_case(&summary.external_id)
                    && !key.bytes().any(|byte| byte.is_ascii_uppercase()) =>
            {
                ("", URL_MARKET_IS_EXTERNAL_ID)
            }
            Some(key) => (key, key.len() as u32),
        };
        CompactMarket {
            id: summary.id,
            text: format!("{}{url_market}{}", summary.external_id, summary.question).into_boxed_str(),
            outcomes: summary
                .outcomes
                .iter()
                .map(|outcome| CompactOutcome {
                    name: names.intern(&outcome.name),
                    price: outcome.price,
                    best_bid_price: outcome.best_bid_price.unwrap_or(f64::NAN),
                    best_ask_price: outcome.best_ask_price.unwrap_or(f64::NAN),
                })
                .collect(),
            volume: summary.volume,
            volume_24h: summary.volume_24h,
            liquidity: summary.liquidity,
            created_at_millis: summary.created_at.timestamp_millis(),
            observed_at_millis: summary.observed_at.timestamp_millis(),
            end_date_millis: summary.end_date.map_or(NO_DATE, |end| end.timestamp_millis()),
            event_id: summary.event_id.unwrap_or(Uuid::nil()),
            external_id_len: summary.external_id.len() as u32,
            url_market_len,
            exchange: summary.exchange,
            status: summary.status,
            category: summary.category,
        }
    }

    /// Where the question starts in `text`.
    fn question_start(&self) -> usize {
        match self.url_market_len {
            NO_URL_MARKET | URL_MARKET_IS_EXTERNAL_ID => self.external_id_len as usize,
            len => (self.external_id_len + len) as usize,
        }
    }

    pub fn question(&self) -> &str {
        &self.text[self.question_start()..]
    }

    pub fn external_id(&self) -> &str {
        &self.text[..self.external_id_len as usize]
    }

    /// The market's URL key (`MarketSummary::url_market`).
    pub fn url_market(&self) -> Option<Cow<'_, str>> {
        match self.url_market_len {
            NO_URL_MARKET => None,
            URL_MARKET_IS_EXTERNAL_ID => Some(Cow::Owned(self.external_id().to_ascii_lowercase())),
            _ => self.url_market_unlike_external_id().map(Cow::Borrowed),
        }
    }

    /// The URL key when it is not just the external id in lower case (a Polymarket slug).
    pub fn url_market_unlike_external_id(&self) -> Option<&str> {
        match self.url_market_len {
            NO_URL_MARKET | URL_MARKET_IS_EXTERNAL_ID => None,
            _ => Some(&self.text[self.external_id_len as usize..self.question_start()]),
        }
    }

    pub fn event_id(&self) -> Option<Uuid> {
        (!self.event_id.is_nil()).then_some(self.event_id)
    }

    /// The price of the first outcome ("Yes" for binary markets), 0 when there is none.
    pub fn headline_price(&self) -> f64 {
        self.outcome_price(0).unwrap_or(0.0)
    }

    pub fn outcome_price(&self, position: usize) -> Option<f64> {
        self.outcomes.get(position).map(|outcome| outcome.price)
    }

    pub fn summary(&self, names: &OutcomeNames) -> MarketSummary {
        MarketSummary {
            id: self.id,
            exchange: self.exchange,
            external_id: self.external_id().into(),
            question: self.question().into(),
            status: self.status,
            category: self.category,
            liquidity: self.liquidity,
            volume: self.volume,
            volume_24h: self.volume_24h,
            created_at: from_epoch_millis(self.created_at_millis),
            end_date: (self.end_date_millis != NO_DATE).then(|| from_epoch_millis(self.end_date_millis)),
            outcomes: self
                .outcomes
                .iter()
                .map(|outcome| Outcome {
                    name: names.name(outcome.name).to_owned(),
                    price: outcome.price,
                    best_bid_price: optional(outcome.best_bid_price),
                    best_ask_price: optional(outcome.best_ask_price),
                })
                .collect(),
            event_id: self.event_id(),
            observed_at: from_epoch_millis(self.observed_at_millis),
            url_market: self.url_market().map(|key| key.into()),
        }
    }
}
