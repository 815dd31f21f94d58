//! A small synthetic catalogue whose every value the tests know: both exchanges, every
//! status, several categories, ties in the sort keys, accents, events with and without
//! reported volume, and one matched pair.

use marketlens_domain::market::{Resolution, Rules, UrlKeys};
use marketlens_domain::matching::{MatchPair, Orientation};
use marketlens_domain::time::{Timestamp, from_epoch_millis};
use marketlens_domain::{Category, Event, Exchange, Market, MarketStatus, Outcome};
use marketlens_storage::Store;

pub fn at(day: i64) -> Timestamp {
    from_epoch_millis(1_767_225_600_000 + day * 86_400_000) // 2026-01-01 plus days
}

pub struct Spec {
    pub exchange: Exchange,
    pub external_id: &'static str,
    pub question: &'static str,
    pub status: MarketStatus,
    pub category: Category,
    pub volume: f64,
    pub volume_24h: f64,
    pub liquidity: f64,
    pub created_day: i64,
    pub event: Option<&'static str>,
    pub yes_price: f64,
}

pub const SPECS: &[Spec] = &[
    Spec {
        exchange: Exchange::Polymarket,
        external_id: "501",
        question: "Will Bitcoin reach $100k by December 31, 2026?",
        status: MarketStatus::Open,
        category: Category::Crypto,
        volume: 5_000_000.0,
        volume_24h: 120_000.0,
        liquidity: 300_000.0,
        created_day: 1,
        event: Some("9001"),
        yes_price: 0.42,
    },
    Spec {
        exchange: Exchange::Kalshi,
        external_id: "KXBTC-26DEC31-T100000",
        question: "Will Bitcoin be above $100k on December 31, 2026?",
        status: MarketStatus::Open,
        category: Category::Crypto,
        volume: 800_000.0,
        volume_24h: 120_000.0,
        liquidity: 50_000.0,
        created_day: 2,
        event: Some("KXBTC-26DEC31"),
        yes_price: 0.4,
    },
    Spec {
        exchange: Exchange::Kalshi,
        external_id: "KXBTC-26DEC31-T150000",
        question: "Will Bitcoin be above $150k on December 31, 2026?",
        status: MarketStatus::Open,
        category: Category::Crypto,
        volume: 200_000.0,
        volume_24h: 5_000.0,
        liquidity: 10_000.0,
        created_day: 2,
        event: Some("KXBTC-26DEC31"),
        yes_price: 0.08,
    },
    Spec {
        exchange: Exchange::Polymarket,
        external_id: "502",
        question: "Will the Fed cut rates in March 2026?",
        status: MarketStatus::Resolved,
        category: Category::Economics,
        volume: 9_000_000.0,
        volume_24h: 0.0,
        liquidity: 0.0,
        created_day: -60,
        event: Some("9002"),
        yes_price: 1.0,
    },
    Spec {
        exchange: Exchange::Polymarket,
        external_id: "503",
        question: "Will Pokémon Legends Z-A sell 10 million copies?",
        status: MarketStatus::Open,
        category: Category::Culture,
        volume: 40_000.0,
        volume_24h: 1_500.0,
        liquidity: 9_000.0,
        created_day: 5,
        event: None,
        yes_price: 0.3,
    },
    Spec {
        exchange: Exchange::Kalshi,
        external_id: "KXNEWPOPE-70-PPAR",
        question: "Who will the next Pope be? — Pietro Parolin",
        status: MarketStatus::Open,
        category: Category::Culture,
        volume: 70_000.0,
        volume_24h: 1_500.0,
        liquidity: 4_000.0,
        created_day: 3,
        event: Some("KXNEWPOPE-70"),
        yes_price: 0.12,
    },
    Spec {
        exchange: Exchange::Kalshi,
        external_id: "KXNEWPOPE-70-LANT",
        question: "Who will the next Pope be? — Luis Antonio Tagle",
        status: MarketStatus::Open,
        category: Category::Culture,
        volume: 65_000.0,
        volume_24h: 1_500.0,
        liquidity: 3_000.0,
        created_day: 3,
        event: Some("KXNEWPOPE-70"),
        yes_price: 0.15,
    },
    Spec {
        exchange: Exchange::Kalshi,
        external_id: "KXMARMAD-26-UGA",
        question: "Will Georgia win the College Basketball National Championship?",
        status: MarketStatus::Closed,
        category: Category::Sports,
        volume: 12_932.0,
        volume_24h: 12_927.0,
        liquidity: 0.0,
        created_day: 70,
        event: Some("KXMARMAD-26"),
        yes_price: 0.01,
    },
    Spec {
        exchange: Exchange::Polymarket,
        external_id: "504",
        question: "NBA: Will the Mavericks beat the Grizzlies by more than 5.5 points?",
        status: MarketStatus::Resolved,
        category: Category::Sports,
        volume: 1_335.05,
        volume_24h: 0.0,
        liquidity: 50.0,
        created_day: -1500,
        event: Some("9003"),
        yes_price: 0.0,
    },
    Spec {
        exchange: Exchange::Polymarket,
        external_id: "505",
        question: "Will it rain in London on June 1?",
        status: MarketStatus::Closed,
        category: Category::ClimateAndWeather,
        volume: 2_000.0,
        volume_24h: 0.0,
        liquidity: 100.0,
        created_day: 10,
        event: None,
        yes_price: 0.5,
    },
];

pub fn market(spec: &Spec) -> Market {
    let url = match spec.exchange {
        Exchange::Polymarket => format!("https://polymarket.com/market/market-{}", spec.external_id),
        Exchange::Kalshi => format!("https://kalshi.com/markets/{}", spec.external_id.to_lowercase()),
    };
    Market {
        exchange: spec.exchange,
        external_id: spec.external_id.to_owned(),
        event_external_id: spec.event.map(str::to_owned),
        question: spec.question.to_owned(),
        description: format!("Resolves Yes if: {}", spec.question),
        status: spec.status,
        category: spec.category,
        liquidity: spec.liquidity,
        volume: spec.volume,
        volume_24h: spec.volume_24h,
        start_date: Some(at(spec.created_day)),
        end_date: (spec.external_id != "503").then(|| at(spec.created_day + 365)),
        created_at: Some(at(spec.created_day)),
        source_updated_at: Some(at(spec.created_day + 1)),
        outcomes: vec![
            Outcome {
                name: "Yes".into(),
                price: spec.yes_price,
                best_bid_price: Some(((spec.yes_price - 0.01).max(0.0) * 100.0).round() / 100.0),
                best_ask_price: None,
            },
            Outcome {
                name: "No".into(),
                price: ((1.0 - spec.yes_price) * 1e6).round() / 1e6,
                best_bid_price: None,
                best_ask_price: None,
            },
        ],
        url_keys: match spec.exchange {
            Exchange::Polymarket => UrlKeys {
                market: Some(format!("market-{}", spec.external_id)),
                event: spec.event.map(|event| format!("event-{event}")),
                series: None,
            },
            Exchange::Kalshi => UrlKeys {
                market: Some(spec.external_id.to_lowercase()),
                event: spec.event.map(str::to_lowercase),
                series: None,
            },
        },
        url,
        image_url: String::new(),
        rules: Rules {
            primary: Some(format!("Resolves Yes if: {}", spec.question)),
            secondary: None,
            source: None,
        },
        // A resolved market's winner is the outcome its price crowned.
        resolution: (spec.status == MarketStatus::Resolved).then(|| Resolution {
            outcome: Some(if spec.yes_price == 1.0 { "Yes" } else { "No" }.to_owned()),
            resolved_at: Some(at(spec.created_day + 30)),
        }),
    }
}

pub fn events() -> Vec<Event> {
    let event = |exchange, external_id: &str, title: &str, category, reported_volume, image: &str| Event {
        exchange,
        external_id: external_id.to_owned(),
        title: title.to_owned(),
        description: format!("About {title}"),
        category,
        reported_volume,
        image_url: image.to_owned(),
        created_at: None,
        source_updated_at: Some(at(0)),
        slug: Some(external_id.to_lowercase()),
        series_slug: None,
    };
    vec![
        event(
            Exchange::Polymarket,
            "9001",
            "Bitcoin above $100k in 2026?",
            Category::Crypto,
            Some(6_000_000.0),
            "https://polymarket-upload.s3.us-east-2.amazonaws.com/btc.png",
        ),
        event(
            Exchange::Kalshi,
            "KXBTC-26DEC31",
            "Bitcoin price on December 31, 2026",
            Category::Crypto,
            None,
            "",
        ),
        event(
            Exchange::Polymarket,
            "9002",
            "Fed decision in March",
            Category::Economics,
            Some(9_500_000.0),
            "",
        ),
        event(
            Exchange::Kalshi,
            "KXNEWPOPE-70",
            "Who will the next Pope be?",
            Category::Culture,
            None,
            "",
        ),
        event(
            Exchange::Kalshi,
            "KXELONMARS-99",
            "Will Elon Musk visit Mars in his lifetime?",
            Category::World,
            None,
            "",
        ),
    ]
}

/// The matched pair of the catalogue: the two $100k Bitcoin markets.
pub fn matched_pair() -> (uuid::Uuid, uuid::Uuid) {
    (market(&SPECS[0]).id(), market(&SPECS[1]).id())
}

pub async fn catalogue(store: &dyn Store) {
    let markets: Vec<Market> = SPECS.iter().map(market).collect();
    store
        .upsert(&markets, &events(), at(400))
        .await
        .expect("the catalogue is stored");
    let (left, right) = matched_pair();
    store
        .replace_matches(&[
            MatchPair {
                market_id: left,
                matched_id: right,
                similarity: 0.912,
                orientation: Orientation::Same,
            },
            MatchPair {
                market_id: right,
                matched_id: left,
                similarity: 0.912,
                orientation: Orientation::Same,
            },
        ])
        .await
        .expect("the match is stored");
}
