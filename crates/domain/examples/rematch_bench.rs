//! A full rematch of synthetic markets, then an incremental update of some of them.
//!
//! ```sh
//! cargo run --release -p marketlens-domain --example rematch_bench -- 1000000 1000
//! ```
//!
//! The markets are generated from a fixed seed in both exchanges' phrasings: team
//! championships ("Will the X Y win the 2026 NBA Finals?" / "Will the X win the 2026 Pro
//! Basketball Finals?"), crypto thresholds with deadlines, election winners and dated
//! events, over tens of thousands of invented names, with some subjects (Bitcoin,
//! Ethereum) very common, and about a third of the questions listed on both exchanges.

use marketlens_domain::Exchange;
use marketlens_domain::matching::{MatchIndex, MatchInput};
use std::time::Instant;
use uuid::Uuid;

/// xorshift64*: deterministic and dependency-free.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

const SYLLABLES: [&str; 24] = [
    "ka", "lo", "mi", "ra", "ten", "vo", "zu", "bel", "dor", "fin", "gar", "hal", "jor", "kel", "mar", "nor", "pel",
    "quin", "ros", "sal", "tor", "val", "wen", "yar",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const ASSETS: [&str; 6] = ["Bitcoin", "Ethereum", "Solana", "XRP", "Dogecoin", "Gold"];

fn name(random: &mut Random, syllables: usize) -> String {
    let mut word: String = (0..syllables)
        .map(|_| SYLLABLES[random.below(SYLLABLES.len())])
        .collect();
    if let Some(first) = word.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    word
}

/// One underlying question, phrased for each exchange, with its end date.
fn question(random: &mut Random) -> (String, String, String) {
    let year = 2025 + random.below(4);
    match random.below(4) {
        0 => {
            let city = format!("{} {}", name(random, 2), name(random, 2));
            let mascot = name(random, 3);
            let (polymarket_league, kalshi_league) = [
                ("NBA Finals", "Pro Basketball Finals"),
                ("Super Bowl", "Pro Football Championship"),
                ("NHL Stanley Cup", "Pro Hockey Championship"),
            ][random.below(3)];
            (
                format!("Will the {city} {mascot} win the {year} {polymarket_league}?"),
                format!("Will the {city} win the {year} {kalshi_league}?"),
                format!("{year}-07-01T00:00:00Z"),
            )
        }
        1 => {
            let asset = ASSETS[random.below(ASSETS.len())];
            let thousands = 50 + 10 * random.below(30);
            let month = random.below(11);
            (
                format!(
                    "Will {asset} reach ${thousands},000 by end of {} {year}?",
                    MONTHS[month]
                ),
                format!(
                    "When will {asset} hit ${thousands}k? — Before {} {year}",
                    MONTHS[month + 1]
                ),
                format!("{year}-{:02}-28T12:00:00Z", month + 1),
            )
        }
        2 => {
            let person = format!("{} {}", name(random, 2), name(random, 3));
            let office = [
                "US Presidential Election",
                "Democratic presidential nomination",
                "Senate race",
            ][random.below(3)];
            (
                format!("Will {person} win the {year} {office}?"),
                format!("Will {person} win the {year} {office}?"),
                format!("{year}-11-05T00:00:00Z"),
            )
        }
        _ => {
            let subject = name(random, 3);
            let object = name(random, 2);
            let month = random.below(11);
            (
                format!("Will {subject} acquire {object} by end of {} {year}?", MONTHS[month]),
                format!("Will {subject} acquire {object} before {} {year}?", MONTHS[month + 1]),
                format!("{year}-{:02}-28T12:00:00Z", month + 1),
            )
        }
    }
}

fn input(number: u64, exchange: Exchange, question: String, end: &str) -> MatchInput {
    MatchInput {
        id: Uuid::from_u64_pair(0x6d61_7463_6865_7273, number),
        exchange,
        question,
        end_date: Some(end.parse().expect("a generated timestamp")),
        outcomes: vec!["Yes".to_owned(), "No".to_owned()],
        event_title: None,
        external_id: number.to_string(),
    }
}

fn main() {
    let mut arguments = std::env::args().skip(1);
    let count: usize = arguments.next().and_then(|text| text.parse().ok()).unwrap_or(1_000_000);
    let changed: usize = arguments.next().and_then(|text| text.parse().ok()).unwrap_or(1_000);
    let mut random = Random(0x005e_ed0f_4a11);
    let mut inputs = Vec::with_capacity(count);
    while inputs.len() < count {
        let (polymarket, kalshi, end) = question(&mut random);
        let number = inputs.len() as u64;
        match random.below(3) {
            0 => {
                inputs.push(input(number, Exchange::Polymarket, polymarket, &end));
                inputs.push(input(number + 1, Exchange::Kalshi, kalshi, &end));
            }
            1 => inputs.push(input(number, Exchange::Polymarket, polymarket, &end)),
            _ => inputs.push(input(number, Exchange::Kalshi, kalshi, &end)),
        }
    }
    inputs.truncate(count);

    let started = Instant::now();
    let mut index = MatchIndex::build(&inputs);
    let built = started.elapsed();
    let pairs = index.pairs();
    println!(
        "full rematch of {} markets: {:.1} s, {} matched pairs",
        index.len(),
        built.as_secs_f64(),
        pairs.len() / 2
    );

    // A sync that changed `changed` markets: new end dates and, for every tenth, a new
    // question (a threshold moved).
    let mut updates: Vec<MatchInput> = (0..changed)
        .map(|_| inputs[random.below(inputs.len())].clone())
        .collect();
    for (position, update) in updates.iter_mut().enumerate() {
        update.end_date = Some("2026-12-31T12:00:00Z".parse().expect("a timestamp"));
        if position % 10 == 0 {
            update.question = update.question.replace("win", "lose");
        }
    }
    let started = Instant::now();
    let delta = index.upsert(&updates);
    println!(
        "incremental match of {changed} changed markets: {:.3} s, {} markets' match lists rewritten ({} rows)",
        started.elapsed().as_secs_f64(),
        delta.markets.len(),
        delta.pairs.len()
    );
}
