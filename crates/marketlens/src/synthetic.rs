//! A synthetic catalogue of any size, for benchmarks: markets and events of both exchanges
//! drawn from the recorded ones, so that their distributions are the real ones.
//!
//! Every synthetic market starts from a recorded market picked at random (which sets its
//! exchange, category, status, number of outcomes and description length) and varies it: the
//! names in its question and description are swapped for names seen in other recorded
//! questions, its numbers for numbers of the same size, its volumes, liquidity and dates
//! scaled by log-normal noise around the recorded ones. So common words stay common, names
//! spread out into a long tail of rare words, and text search meets the vocabulary it meets
//! on real data. Events take their sizes from the recorded events (most hold one market, a
//! few dozens).
//!
//! Deterministic: the same seed and size give the same catalogue, byte for byte.

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use marketlens_domain::market::UrlKeys;
use marketlens_domain::market_url::{kalshi_market_url, polymarket_market_url};
use marketlens_domain::{Event, Exchange, Market, Outcome};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeSet;

/// What the generator varies: the recorded markets and events of the demo data.
pub struct Templates {
    markets: Vec<Market>,
    /// Indexes into `markets` of each exchange's markets.
    by_exchange: [Vec<usize>; 2],
    /// How many markets each recorded event holds, one entry per event.
    event_sizes: Vec<usize>,
    /// Capitalised words of recorded questions (not their first word): the pool of names.
    names: Vec<String>,
}

impl Templates {
    pub fn new(markets: Vec<Market>, events: &[Event]) -> Templates {
        let mut names = BTreeSet::new();
        for market in &markets {
            for word in market.question.split_whitespace().skip(1) {
                let word = word.trim_matches(|character: char| !character.is_alphanumeric());
                if word.len() > 2
                    && word.chars().next().is_some_and(char::is_uppercase)
                    && word.chars().all(char::is_alphabetic)
                {
                    names.insert(word.to_owned());
                }
            }
        }
        let event_sizes = events
            .iter()
            .map(|event| {
                markets
                    .iter()
                    .filter(|market| market.event_external_id.as_deref() == Some(&event.external_id))
                    .count()
                    .max(1)
            })
            .collect();
        let of = |exchange: Exchange| {
            (0..markets.len())
                .filter(|&index| markets[index].exchange == exchange)
                .collect::<Vec<_>>()
        };
        Templates {
            by_exchange: [of(Exchange::Polymarket), of(Exchange::Kalshi)],
            markets,
            event_sizes,
            names: names.into_iter().collect(),
        }
    }
}

/// One event and its markets.
pub struct SyntheticEvent {
    pub event: Event,
    pub markets: Vec<Market>,
}

/// An endless, deterministic stream of synthetic events.
pub struct Generator<'a> {
    templates: &'a Templates,
    /// A generator whose output is fixed by its seed across versions and platforms.
    random: Xoshiro256PlusPlus,
    next_event: u64,
}

impl<'a> Generator<'a> {
    pub fn new(templates: &'a Templates, seed: u64) -> Generator<'a> {
        Generator {
            templates,
            random: Xoshiro256PlusPlus::seed_from_u64(seed),
            next_event: 0,
        }
    }

    /// The next event, with at most `most` markets.
    pub fn next_event(&mut self, most: usize) -> SyntheticEvent {
        let templates = self.templates;
        let number = self.next_event;
        self.next_event += 1;
        let size = templates.event_sizes[self.random.random_range(0..templates.event_sizes.len())].min(most.max(1));
        let first = &templates.markets[self.random.random_range(0..templates.markets.len())];
        let exchange = first.exchange;
        let title = self.vary_text(&first.question);
        let created_at = self.date_between(2020, 2026);
        let (event_external_id, event_slug, series) = match exchange {
            Exchange::Polymarket => (
                format!("{}", 900_000_000 + number),
                format!("{}-{number}", slug(&title)),
                None,
            ),
            Exchange::Kalshi => (
                format!("KXSYN{number}-26"),
                format!("kxsyn{number}-26"),
                Some(format!("kxsyn{number}")),
            ),
        };
        let event = Event {
            exchange,
            external_id: event_external_id.clone(),
            title: title.clone(),
            description: self.vary_text(&first.description),
            category: first.category,
            reported_volume: None,
            image_url: String::new(),
            created_at: Some(created_at),
            source_updated_at: Some(created_at + TimeDelta::days(1)),
            slug: Some(event_slug.clone()),
            series_slug: series.clone(),
        };
        let markets = (0..size)
            .map(|position| {
                let template = if position == 0 {
                    first
                } else {
                    // The other markets of the event: same exchange, varied subjects.
                    let same = &templates.by_exchange[usize::from(exchange == Exchange::Kalshi)];
                    &templates.markets[same[self.random.random_range(0..same.len())]]
                };
                self.market(template, &event, position, created_at)
            })
            .collect();
        SyntheticEvent { event, markets }
    }

    fn market(&mut self, template: &Market, event: &Event, position: usize, created_at: DateTime<Utc>) -> Market {
        let question = if position == 0 {
            event.title.clone()
        } else {
            self.vary_text(&template.question)
        };
        let external_id = match event.exchange {
            Exchange::Polymarket => format!("{}{position:03}", event.external_id),
            Exchange::Kalshi => format!("{}-M{position}", event.external_id),
        };
        let volume = self.noisy(template.volume.max(1.0), 1.5);
        let volume_24h = (self.noisy(template.volume_24h.max(0.01), 1.5)).min(volume);
        let lifetime = template
            .end_date
            .zip(template.created_at)
            .map_or(TimeDelta::days(90), |(end, start)| {
                (end - start).max(TimeDelta::hours(1))
            });
        let lifetime = TimeDelta::seconds((lifetime.num_seconds() as f64 * self.noisy(1.0, 0.5)) as i64);
        let market_slug = format!("{}-{}", slug(&question), external_id.to_ascii_lowercase());
        let (url_keys, url) = match event.exchange {
            Exchange::Polymarket => (
                UrlKeys {
                    market: Some(market_slug.clone()),
                    event: event.slug.clone(),
                    series: None,
                },
                polymarket_market_url(Some(&market_slug), event.slug.as_deref()),
            ),
            Exchange::Kalshi => (
                UrlKeys {
                    market: Some(external_id.to_ascii_lowercase()),
                    event: event.slug.clone(),
                    series: event.series_slug.clone(),
                },
                kalshi_market_url(&event.external_id, event.series_slug.as_deref(), &event.title),
            ),
        };
        Market {
            exchange: event.exchange,
            external_id,
            event_external_id: Some(event.external_id.clone()),
            question,
            description: self.vary_text(&template.description),
            status: template.status,
            category: event.category,
            liquidity: self.noisy(template.liquidity, 1.0),
            volume,
            volume_24h,
            start_date: Some(created_at),
            end_date: Some(created_at + lifetime),
            created_at: Some(created_at + TimeDelta::minutes(position as i64)),
            source_updated_at: Some(created_at + TimeDelta::days(1)),
            outcomes: self.outcomes(&template.outcomes),
            url_keys,
            url,
            image_url: template.image_url.clone(),
        }
    }

    /// The template's outcomes with prices moved a little, binary ones still summing to 1.
    fn outcomes(&mut self, template: &[Outcome]) -> Vec<Outcome> {
        let round = |price: f64| (price.clamp(0.001, 0.999) * 1000.0).round() / 1000.0;
        let first = round(template.first().map_or(0.5, |outcome| outcome.price) + self.random.random_range(-0.1..0.1));
        template
            .iter()
            .enumerate()
            .map(|(position, outcome)| {
                let price = match position {
                    0 => first,
                    1 if template.len() == 2 => round(1.0 - first),
                    _ => round(outcome.price * self.noisy(1.0, 0.3)),
                };
                Outcome {
                    name: outcome.name.clone(),
                    price,
                    best_bid_price: outcome.best_bid_price.map(|_| round(price - 0.01)),
                    best_ask_price: outcome.best_ask_price.map(|_| round(price + 0.01)),
                }
            })
            .collect()
    }

    /// `text` with about half its names swapped for other recorded names and its numbers for
    /// numbers of the same number of digits.
    fn vary_text(&mut self, text: &str) -> String {
        let names = &self.templates.names;
        let mut varied = String::with_capacity(text.len() + 16);
        for (index, piece) in text.split_inclusive(' ').enumerate() {
            let word = piece.trim_end();
            let core = word.trim_matches(|character: char| !character.is_alphanumeric());
            let replacement = if index > 0
                && core.len() > 2
                && core.chars().next().is_some_and(char::is_uppercase)
                && core.chars().all(char::is_alphabetic)
                && self.random.random_bool(0.5)
            {
                Some(names[self.random.random_range(0..names.len())].clone())
            } else if !core.is_empty() && core.chars().all(|character| character.is_ascii_digit()) && core.len() < 10 {
                let low = 10u64.pow(core.len() as u32 - 1);
                Some(self.random.random_range(low..low * 10).to_string())
            } else {
                None
            };
            match replacement {
                Some(replacement) => varied.push_str(&piece.replacen(core, &replacement, 1)),
                None => varied.push_str(piece),
            }
        }
        varied
    }

    /// `value` times a log-normal factor of spread `sigma`.
    fn noisy(&mut self, value: f64, sigma: f64) -> f64 {
        // A standard normal from two uniforms (Box-Muller).
        let (first, second): (f64, f64) = (self.random.random_range(f64::EPSILON..1.0), self.random.random());
        let normal = (-2.0 * first.ln()).sqrt() * (std::f64::consts::TAU * second).cos();
        ((value * (sigma * normal).exp()) * 100.0).round() / 100.0
    }

    fn date_between(&mut self, first_year: i32, last_year: i32) -> DateTime<Utc> {
        let start = Utc.with_ymd_and_hms(first_year, 1, 1, 0, 0, 0).unwrap().timestamp();
        let end = Utc.with_ymd_and_hms(last_year, 11, 1, 0, 0, 0).unwrap().timestamp();
        Utc.timestamp_opt(self.random.random_range(start..end), 0).unwrap()
    }
}

fn slug(text: &str) -> String {
    marketlens_domain::text::words(text)
        .take(8)
        .collect::<Vec<_>>()
        .join("-")
}
