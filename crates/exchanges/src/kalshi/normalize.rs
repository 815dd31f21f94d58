//! The mapping of Kalshi records onto domain markets and events.
//!
//! Kalshi markets are binary: each becomes a Yes and a No outcome, the No side priced as the
//! complement of Yes. A market carries its own `event_ticker`, so unlike on Polymarket it
//! stands on its own in a `/markets` list; its series, its event's title and its event's
//! category are known only when the payload nests it in (or beside) its event.

use std::collections::HashMap;

use marketlens_domain::market::{Resolution, Rules, UrlKeys, displayed_price};
use marketlens_domain::market_url::kalshi_market_url;
use marketlens_domain::{Category, Event, Exchange, Market, MarketStatus, Outcome};
use serde_json::Value;

use super::wire;
use crate::Normalized;
use crate::lenient::{Finite, amount, non_empty, real_ask, real_bid, round_price, timestamp, traded};
use crate::payload::{PayloadKind, Records};
use crate::record::{Collector, Label, nested_list, raw_id, read};

pub(crate) fn normalize(kind: PayloadKind, records: Records) -> Normalized {
    let mut collector = Collector::default();
    match records {
        Records::List(events) if kind.lists_events() => {
            let shared_titles = SharedTitles::of_events(events.iter().map(|event| (event, &[][..])));
            for (index, event) in events.iter().enumerate() {
                event_with_markets(&mut collector, event, &[], index, &shared_titles);
            }
        }
        Records::List(markets) => {
            let shared_titles = SharedTitles::of_markets(&markets);
            for (index, record) in markets.iter().enumerate() {
                let label = Label::market(raw_id(record, "ticker"), index);
                let market = read(record).and_then(|market_wire| market(&market_wire, None, &shared_titles));
                collector.market(&label, market);
            }
        }
        Records::EventWithMarkets { event, markets } => {
            let shared_titles = SharedTitles::of_events(std::iter::once((&event, markets.as_slice())));
            event_with_markets(&mut collector, &event, &markets, 0, &shared_titles);
        }
        Records::Nothing => {}
    }
    collector.finish()
}

/// An event and its markets: those nested in it (`with_nested_markets=true`) and, for the
/// single-event response, those listed beside it.
fn event_with_markets(
    collector: &mut Collector,
    record: &Value,
    markets_beside: &[Value],
    index: usize,
    shared_titles: &SharedTitles,
) {
    let event_label = Label::event(raw_id(record, "event_ticker"), index);
    let (nested, nested_error) = match nested_list(record, "markets") {
        Ok(nested) => (nested, None),
        Err(reason) => (&[][..], Some(reason)),
    };
    let markets: Vec<(Label, &Value)> = markets_beside
        .iter()
        .chain(nested)
        .enumerate()
        .map(|(position, market)| {
            (
                Label::market(raw_id(market, "ticker"), position).within(&event_label),
                market,
            )
        })
        .collect();
    let event = match nested_error {
        Some(reason) => Err(reason),
        None => read::<wire::Event>(record).and_then(|event_wire| {
            let event = event(&event_wire)?;
            Ok((Parent::new(&event, &event_wire), event))
        }),
    };
    let parent = match event {
        Ok((parent, event)) => {
            collector.event(&event_label, event);
            parent
        }
        Err(reason) => {
            collector.skip(&event_label, &reason);
            for (market_label, _market) in &markets {
                collector.skip(market_label, &format!("not imported because {event_label} was skipped"));
            }
            return;
        }
    };
    for (market_label, record) in markets {
        let market = read(record).and_then(|market_wire| market(&market_wire, Some(&parent), shared_titles));
        collector.market(&market_label, market);
    }
}

/// What a market takes from its event.
struct Parent {
    event_ticker: String,
    series_ticker: Option<String>,
    title: String,
    /// The event's own label, when it maps (an inferred category is not passed on: the
    /// market infers its own from its question).
    category: Option<Category>,
}

impl Parent {
    fn new(event: &Event, event_wire: &wire::Event) -> Parent {
        Parent {
            event_ticker: event.external_id.clone(),
            series_ticker: non_empty(event_wire.series_ticker.as_deref()).map(str::to_owned),
            title: event.title.clone(),
            category: event_wire.category.as_deref().and_then(Category::from_label),
        }
    }
}

fn event(event_wire: &wire::Event) -> Result<Event, String> {
    let event_ticker = non_empty(event_wire.event_ticker.as_deref()).ok_or("no event_ticker")?;
    let title = non_empty(event_wire.title.as_deref()).ok_or("no title")?;
    let category = event_wire
        .category
        .as_deref()
        .and_then(Category::from_label)
        .unwrap_or_else(|| Category::infer([title]));
    Ok(Event {
        exchange: Exchange::Kalshi,
        external_id: event_ticker.to_owned(),
        title: title.to_owned(),
        description: non_empty(event_wire.sub_title.as_deref())
            .unwrap_or_default()
            .to_owned(),
        category,
        reported_volume: None,
        image_url: String::new(),
        created_at: None,
        source_updated_at: timestamp("last_updated_ts", event_wire.last_updated_ts.as_deref())?,
        slug: Some(event_ticker.to_ascii_lowercase()),
        series_slug: non_empty(event_wire.series_ticker.as_deref()).map(str::to_ascii_lowercase),
    })
}

fn market(market_wire: &wire::Market, parent: Option<&Parent>, shared_titles: &SharedTitles) -> Result<Market, String> {
    let ticker = non_empty(market_wire.ticker.as_deref()).ok_or("no ticker")?;
    let title = non_empty(market_wire.title.as_deref()).ok_or("no title")?;
    let event_ticker =
        non_empty(market_wire.event_ticker.as_deref()).or_else(|| parent.map(|parent| parent.event_ticker.as_str()));
    // A parent that is not this market's event (a payload mixing them up) tells us nothing.
    let parent =
        parent.filter(|parent| event_ticker.is_none_or(|ticker| ticker.eq_ignore_ascii_case(&parent.event_ticker)));
    let question = question(title, market_wire.yes_sub_title.as_deref(), event_ticker, shared_titles);
    let status_text = market_wire
        .status
        .as_deref()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let result = market_wire
        .result
        .as_deref()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let settled = matches!(status_text.as_str(), "finalized" | "settled" | "determined" | "amended");
    let status = match status_text.as_str() {
        "active" | "open" | "initialized" => MarketStatus::Open,
        _ if settled && !result.is_empty() => MarketStatus::Resolved,
        _ => MarketStatus::Closed,
    };
    let yes_price = yes_price(market_wire, settled, &result);
    let outcomes = vec![
        Outcome {
            name: "Yes".to_owned(),
            price: yes_price,
            best_bid_price: real_bid(dollars(market_wire.yes_bid_dollars, market_wire.yes_bid)),
            best_ask_price: real_ask(dollars(market_wire.yes_ask_dollars, market_wire.yes_ask)),
        },
        Outcome {
            name: "No".to_owned(),
            price: round_price(1.0 - yes_price),
            best_bid_price: real_bid(dollars(market_wire.no_bid_dollars, market_wire.no_bid)),
            best_ask_price: real_ask(dollars(market_wire.no_ask_dollars, market_wire.no_ask)),
        },
    ];
    let resolution = (status == MarketStatus::Resolved)
        .then(|| resolution(&outcomes, &result, market_wire.settlement_ts.as_deref()))
        .transpose()?;
    let rules = Rules {
        primary: non_empty(market_wire.rules_primary.as_deref()).map(str::to_owned),
        secondary: non_empty(market_wire.rules_secondary.as_deref()).map(str::to_owned),
        source: None,
    };
    let description = [&rules.primary, &rules.secondary]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join("\n\n");
    let event_title = parent.map(|parent| parent.title.as_str());
    let category = parent
        .and_then(|parent| parent.category)
        .or_else(|| market_wire.category.as_deref().and_then(Category::from_label))
        .unwrap_or_else(|| {
            infer_category(
                std::iter::once(question.as_str()).chain(event_title),
                market_wire.rules_primary.as_deref(),
            )
        });
    let series_ticker = parent.and_then(|parent| parent.series_ticker.as_deref());
    let start_date = timestamp("open_time", market_wire.open_time.as_deref())?;
    // Kalshi sends Go's zero time when it does not know; the opening is the best estimate.
    let created_at = timestamp("created_time", market_wire.created_time.as_deref())?.or(start_date);
    Ok(Market {
        exchange: Exchange::Kalshi,
        external_id: ticker.to_owned(),
        event_external_id: event_ticker.map(str::to_owned),
        question,
        description,
        status,
        category,
        liquidity: dollars(market_wire.liquidity_dollars, market_wire.liquidity).unwrap_or(0.0),
        // Contracts pay $1, so counts of contracts are USD notional.
        volume: amount(market_wire.volume_fp.or(market_wire.volume)),
        volume_24h: amount(market_wire.volume_24h_fp.or(market_wire.volume_24h)),
        start_date,
        end_date: timestamp("close_time", market_wire.close_time.as_deref())?,
        created_at,
        source_updated_at: timestamp("updated_time", market_wire.updated_time.as_deref())?,
        outcomes,
        url_keys: UrlKeys {
            market: Some(ticker.to_ascii_lowercase()),
            event: event_ticker.map(str::to_ascii_lowercase),
            series: series_ticker.map(str::to_ascii_lowercase),
        },
        url: kalshi_market_url(
            event_ticker.unwrap_or(ticker),
            series_ticker,
            event_title.unwrap_or(title),
        ),
        image_url: String::new(),
        rules,
        resolution,
    })
}

/// A resolved market's result. The winner is the side `result` names, "yes" or "no"; any other
/// result (a scalar settlement pays a fraction to both sides) names none. The time is
/// `settlement_ts`, which Kalshi sets when it pays out; without it the time is unknown
/// (`close_time` is when trading stopped, which can come well before the result).
fn resolution(outcomes: &[Outcome], result: &str, settlement_ts: Option<&str>) -> Result<Resolution, String> {
    let winner = match result {
        "yes" => outcomes.first(),
        "no" => outcomes.get(1),
        _ => None,
    };
    Ok(Resolution {
        outcome: winner.map(|outcome| outcome.name.clone()),
        resolved_at: timestamp("settlement_ts", settlement_ts)?,
    })
}

/// The Yes price: the settlement once settled with a result; else the price Kalshi displays
/// (`marketlens_domain::market::displayed_price`: the last trade, else the middle of the book
/// when both sides hold a real order, as an empty book, bid 0 and ask 1, has no middle and
/// 0.5 would be invented); else 0.
fn yes_price(market_wire: &wire::Market, settled: bool, result: &str) -> f64 {
    if settled && (result == "yes" || result == "no") {
        let settlement = dollars(market_wire.settlement_value_dollars, market_wire.settlement_value);
        return settlement.unwrap_or(if result == "yes" { 1.0 } else { 0.0 });
    }
    let last_price = traded(dollars(market_wire.last_price_dollars, market_wire.last_price));
    let yes_bid = real_bid(dollars(market_wire.yes_bid_dollars, market_wire.yes_bid));
    let yes_ask = real_ask(dollars(market_wire.yes_ask_dollars, market_wire.yes_ask));
    displayed_price(Exchange::Kalshi, last_price, yes_bid, yes_ask).unwrap_or(0.0)
}

/// A price from the `*_dollars` string, else from the integer cents beside it.
fn dollars(dollars: Option<Finite>, cents: Option<Finite>) -> Option<f64> {
    dollars
        .map(|dollars| dollars.0)
        .or_else(|| cents.map(|cents| cents.0 / 100.0))
}

/// The category when no label maps: inferred from the question and the event's title, and
/// when they name no subject, from the rules. A `/markets` list gives neither a label nor
/// the event's title, and titles such as "Will Georgia qualify for Final?" name no sport,
/// while Kalshi's one-sentence rules do ("…the 2025 Men's College Basketball tournament").
/// The rules are only a fallback: scored beside the question, their many words would
/// outvote it.
fn infer_category<'a>(headlines: impl IntoIterator<Item = &'a str>, rules: Option<&str>) -> Category {
    match Category::infer(headlines) {
        Category::Other => Category::infer(rules),
        category => category,
    }
}

/// The question a market asks. The markets of a multi-choice event share one title ("Who
/// will the next Pope be?"); the choice (`yes_sub_title`) is appended to tell them apart.
fn question(title: &str, choice: Option<&str>, event_ticker: Option<&str>, shared_titles: &SharedTitles) -> String {
    let Some(choice) = non_empty(choice).filter(|choice| *choice != title) else {
        return title.to_owned();
    };
    let multi_choice = title.ends_with("Winner?")
        || title.starts_with("Who ")
        || title.starts_with("Which ")
        || event_ticker.is_some_and(|event_ticker| shared_titles.is_shared(event_ticker, title));
    if multi_choice {
        format!("{title} — {choice}")
    } else {
        title.to_owned()
    }
}

/// How many markets of each event in the payload carry each title.
#[derive(Default)]
struct SharedTitles {
    counts: HashMap<(String, String), usize>,
}

impl SharedTitles {
    /// Over events with their nested markets and the markets listed beside them.
    fn of_events<'a>(events: impl Iterator<Item = (&'a Value, &'a [Value])>) -> SharedTitles {
        let mut shared_titles = SharedTitles::default();
        for (event, markets_beside) in events {
            let parent_ticker = event.get("event_ticker").and_then(Value::as_str);
            let nested = nested_list(event, "markets").unwrap_or_default();
            shared_titles.add(markets_beside.iter().chain(nested), parent_ticker);
        }
        shared_titles
    }

    fn of_markets(markets: &[Value]) -> SharedTitles {
        let mut shared_titles = SharedTitles::default();
        shared_titles.add(markets.iter(), None);
        shared_titles
    }

    fn add<'a>(&mut self, markets: impl Iterator<Item = &'a Value>, parent_ticker: Option<&str>) {
        for market in markets {
            let event_ticker =
                non_empty(market.get("event_ticker").and_then(Value::as_str)).or(non_empty(parent_ticker));
            let title = non_empty(market.get("title").and_then(Value::as_str));
            if let (Some(event_ticker), Some(title)) = (event_ticker, title) {
                *self
                    .counts
                    .entry((event_ticker.to_owned(), title.to_owned()))
                    .or_default() += 1;
            }
        }
    }

    fn is_shared(&self, event_ticker: &str, title: &str) -> bool {
        self.counts
            .get(&(event_ticker.to_owned(), title.to_owned()))
            .is_some_and(|count| *count > 1)
    }
}
