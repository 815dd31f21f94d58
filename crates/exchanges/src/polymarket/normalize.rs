//! The mapping of Gamma records onto domain markets and events.
//!
//! A market's event supplies its URL, its URL keys and usually its category, so markets are
//! always mapped together with their parent: the event they are nested in (`/events`) or
//! the event they embed (`/markets`). When that parent cannot be normalized, its markets are
//! skipped too rather than emitted without the event they belong to.

use std::collections::HashMap;

use marketlens_domain::market::{Resolution, Rules, UrlKeys};
use marketlens_domain::market_url::polymarket_market_url;
use marketlens_domain::{Category, Event, Exchange, Market, MarketStatus, Outcome};
use serde_json::Value;

use super::wire;
use crate::Normalized;
use crate::lenient::{amount, first_date, non_empty, real_ask, real_bid, round_price, timestamp};
use crate::payload::{PayloadKind, Records};
use crate::record::{Collector, Label, count, nested_list, raw_id, read};

pub(crate) fn normalize(kind: PayloadKind, records: Records) -> Normalized {
    let mut collector = Collector::default();
    match records {
        Records::List(records) if kind.lists_events() => {
            for (index, record) in records.iter().enumerate() {
                event_with_markets(&mut collector, record, index);
            }
        }
        Records::List(records) => markets_with_embedded_events(&mut collector, &records),
        // Kalshi's shapes; `payload` never gives them a Polymarket kind.
        Records::EventWithMarkets { .. } | Records::Nothing => {}
    }
    collector.finish()
}

/// `/events`: the event, then its nested markets with the event as their parent.
fn event_with_markets(collector: &mut Collector, record: &Value, index: usize) {
    let event_label = Label::event(raw_id(record, "id"), index);
    let nested = match nested_list(record, "markets") {
        Ok(nested) => nested,
        Err(reason) => return collector.skip(&event_label, &reason),
    };
    let markets: Vec<(Label, Result<wire::Market, String>)> = nested
        .iter()
        .enumerate()
        .map(|(position, market)| {
            (
                Label::market(raw_id(market, "id"), position).within(&event_label),
                read(market),
            )
        })
        .collect();
    let questions: Vec<&str> = markets
        .iter()
        .filter_map(|(_label, market)| market.as_ref().ok()?.question.as_deref())
        .collect();
    let event = read::<wire::Event>(record).and_then(|event_wire| {
        let event = event(&event_wire, &questions)?;
        Ok((Parent::new(&event, &event_wire), event))
    });
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
    for (market_label, market_wire) in markets {
        let market = market_wire.and_then(|market_wire| market(&market_wire, Some(&parent)));
        collector.market(&market_label, market);
    }
}

/// `/markets`: each market, and the parent event it embeds (emitted once per payload).
fn markets_with_embedded_events(collector: &mut Collector, records: &[Value]) {
    let markets: Vec<(Label, Result<wire::Market, String>)> = records
        .iter()
        .enumerate()
        .map(|(index, record)| (Label::market(raw_id(record, "id"), index), read(record)))
        .collect();
    let mut embedded = EmbeddedEvents::default();
    // An embedded event's category may be inferred from the questions of all its markets.
    for (_label, market) in &markets {
        if let Ok(market) = market
            && let Some(event_id) = embedded_event_id(market)
            && let Some(question) = market.question.as_deref()
        {
            embedded.questions.entry(event_id).or_default().push(question);
        }
    }
    for (label, market_wire) in &markets {
        let market = match market_wire {
            Ok(market_wire) => market_with_embedded_event(collector, &mut embedded, market_wire),
            Err(reason) => Err(reason.clone()),
        };
        collector.market(label, market);
    }
}

/// The events embedded in a `/markets` payload.
#[derive(Default)]
struct EmbeddedEvents<'a> {
    /// The questions of each event's markets, by event id.
    questions: HashMap<&'a str, Vec<&'a str>>,
    /// Each event, normalized once from the first copy that normalizes: every market of a
    /// multi-outcome event embeds the same event.
    parents: HashMap<String, Parent>,
}

fn market_with_embedded_event(
    collector: &mut Collector,
    embedded: &mut EmbeddedEvents,
    market_wire: &wire::Market,
) -> Result<Market, String> {
    let Some(event_wire) = embedded_event(market_wire) else {
        return market(market_wire, None);
    };
    let event_id = embedded_event_id(market_wire);
    if let Some(parent) = event_id.and_then(|event_id| embedded.parents.get(event_id)) {
        return market(market_wire, Some(parent));
    }
    let questions = event_id.and_then(|event_id| embedded.questions.get(event_id));
    let event = event(event_wire, questions.map_or(&[], Vec::as_slice)).map_err(|reason| match event_id {
        Some(event_id) => format!("its embedded event {event_id}: {reason}"),
        None => format!("its embedded event: {reason}"),
    })?;
    let parent = Parent::new(&event, event_wire);
    collector.embedded_event(event);
    let market = market(market_wire, Some(&parent));
    embedded.parents.insert(parent.external_id.clone(), parent);
    market
}

fn embedded_event_id(market: &wire::Market) -> Option<&str> {
    non_empty(embedded_event(market)?.id.as_deref())
}

fn embedded_event(market: &wire::Market) -> Option<&wire::Event> {
    market.events.as_ref()?.first()
}

/// What a market takes from its event.
struct Parent {
    external_id: String,
    title: String,
    slug: Option<String>,
    /// As sent, for the URL; `Event::slug` is lower-cased for lookups.
    url_slug: Option<String>,
    series_slug: Option<String>,
    /// Empty when the event has no image, like `Event::image_url`.
    image_url: String,
    /// The event's `category`, then its tags' labels.
    labels: Vec<String>,
}

impl Parent {
    fn new(event: &Event, event_wire: &wire::Event) -> Parent {
        Parent {
            external_id: event.external_id.clone(),
            title: event.title.clone(),
            slug: event.slug.clone(),
            url_slug: non_empty(event_wire.slug.as_deref()).map(str::to_owned),
            series_slug: event.series_slug.clone(),
            image_url: event.image_url.clone(),
            labels: event_labels(event_wire).map(str::to_owned).collect(),
        }
    }
}

fn event(event_wire: &wire::Event, questions: &[&str]) -> Result<Event, String> {
    let external_id = non_empty(event_wire.id.as_deref()).ok_or("no id")?;
    let title = non_empty(event_wire.title.as_deref()).ok_or("no title")?;
    let category = event_labels(event_wire)
        .find_map(Category::from_label)
        .unwrap_or_else(|| Category::infer(std::iter::once(title).chain(questions.iter().copied())));
    let reported_volume = match event_wire.volume {
        Some(volume) if volume.0 < 0.0 => {
            return Err(format!("volume is {}, a negative amount", volume.0));
        }
        volume => volume.map(|volume| volume.0),
    };
    let series_slug = non_empty(event_wire.series_slug.as_deref()).or_else(|| {
        event_wire
            .series
            .iter()
            .flatten()
            .find_map(|series| non_empty(series.slug.as_deref()))
    });
    Ok(Event {
        exchange: Exchange::Polymarket,
        external_id: external_id.to_owned(),
        title: title.to_owned(),
        description: event_wire.description.clone().unwrap_or_default(),
        category,
        reported_volume,
        image_url: non_empty(event_wire.image.as_deref()).unwrap_or_default().to_owned(),
        created_at: first_date([
            ("createdAt", event_wire.created_at.as_deref()),
            ("creationDate", event_wire.creation_date.as_deref()),
        ])?,
        source_updated_at: timestamp("updatedAt", event_wire.updated_at.as_deref())?,
        slug: lookup_key(event_wire.slug.as_deref()),
        series_slug: series_slug.map(str::to_ascii_lowercase),
    })
}

/// The labels that may name an event's category, most specific first.
fn event_labels(event_wire: &wire::Event) -> impl Iterator<Item = &str> {
    let tags = event_wire.tags.iter().flatten().filter_map(|tag| tag.label.as_deref());
    event_wire.category.as_deref().into_iter().chain(tags)
}

fn market(market_wire: &wire::Market, parent: Option<&Parent>) -> Result<Market, String> {
    let external_id = non_empty(market_wire.id.as_deref()).ok_or("no id")?;
    let Some(prices) = &market_wire.outcome_prices else {
        // Gamma lists the candidates of a multi-outcome event before they trade, as
        // "Person A", "Person B"… with neither prices nor the active flag.
        let placeholder = market_wire.active != Some(true) && market_wire.closed != Some(true);
        return Err(if placeholder {
            "placeholder market, not listed yet"
        } else {
            "no outcomePrices"
        }
        .to_owned());
    };
    let question = non_empty(market_wire.question.as_deref()).ok_or("no question")?;
    let names = market_wire.outcomes.as_ref().ok_or("no outcomes")?;
    if names.len() != prices.len() {
        return Err(format!(
            "outcomePrices has {} for {}",
            count(prices.len(), "price"),
            count(names.len(), "outcome")
        ));
    }
    let prices: Vec<f64> = prices.iter().map(|price| price.0).collect();
    let outcomes = outcomes(names, &prices, market_wire);
    let mut labels = market_wire.category.as_deref().into_iter().chain(
        parent
            .into_iter()
            .flat_map(|parent| parent.labels.iter().map(String::as_str)),
    );
    let category = labels.find_map(Category::from_label).unwrap_or_else(|| {
        Category::infer(std::iter::once(question).chain(parent.map(|parent| parent.title.as_str())))
    });
    let market_slug = non_empty(market_wire.slug.as_deref());
    let image_url = non_empty(market_wire.image.as_deref())
        .or_else(|| parent.map(|parent| parent.image_url.as_str()))
        .unwrap_or_default();
    let status = status(market_wire, &prices);
    let resolution = (status == MarketStatus::Resolved)
        .then(|| resolution(&outcomes, &prices, market_wire.closed_time.as_deref()))
        .transpose()?;
    Ok(Market {
        exchange: Exchange::Polymarket,
        external_id: external_id.to_owned(),
        event_external_id: parent.map(|parent| parent.external_id.clone()),
        question: question.to_owned(),
        description: market_wire.description.clone().unwrap_or_default(),
        status,
        category,
        liquidity: amount(market_wire.liquidity_num.or(market_wire.liquidity)),
        volume: amount(market_wire.volume_num.or(market_wire.volume)),
        volume_24h: amount(market_wire.volume24hr),
        start_date: first_date([
            ("startDate", market_wire.start_date.as_deref()),
            ("startDateIso", market_wire.start_date_iso.as_deref()),
        ])?,
        end_date: first_date([
            ("endDate", market_wire.end_date.as_deref()),
            ("endDateIso", market_wire.end_date_iso.as_deref()),
        ])?,
        created_at: timestamp("createdAt", market_wire.created_at.as_deref())?,
        source_updated_at: timestamp("updatedAt", market_wire.updated_at.as_deref())?,
        outcomes,
        url_keys: UrlKeys {
            market: lookup_key(market_slug),
            event: parent.and_then(|parent| parent.slug.clone()),
            series: parent.and_then(|parent| parent.series_slug.clone()),
        },
        url: polymarket_market_url(market_slug, parent.and_then(|parent| parent.url_slug.as_deref())),
        image_url: image_url.to_owned(),
        rules: Rules {
            primary: non_empty(market_wire.description.as_deref()).map(str::to_owned),
            secondary: None,
            source: non_empty(market_wire.resolution_source.as_deref()).map(str::to_owned),
        },
        resolution,
    })
}

/// One outcome per name. Gamma's `bestBid`/`bestAsk` quote the first outcome; in a binary
/// market the second outcome's book is the mirror image (a bid for No at `1 - ask` of Yes).
fn outcomes(names: &[String], prices: &[f64], market_wire: &wire::Market) -> Vec<Outcome> {
    let best_bid = market_wire.best_bid.map(|bid| bid.0);
    let best_ask = market_wire.best_ask.map(|ask| ask.0);
    let binary = names.len() == 2;
    names
        .iter()
        .zip(prices)
        .enumerate()
        .map(|(position, (name, price))| {
            let (bid, ask) = match position {
                0 => (best_bid, best_ask),
                1 if binary => (
                    best_ask.map(|ask| round_price(1.0 - ask)),
                    best_bid.map(|bid| round_price(1.0 - bid)),
                ),
                _ => (None, None),
            };
            Outcome {
                name: name.trim().to_owned(),
                price: *price,
                best_bid_price: real_bid(bid),
                best_ask_price: real_ask(ask),
            }
        })
        .collect()
}

/// Gamma keeps old markets `active` after they close, and marks placeholders neither
/// active nor closed; `closed` decides first.
fn status(market_wire: &wire::Market, prices: &[f64]) -> MarketStatus {
    let flag = |flag: Option<bool>| flag.unwrap_or(false);
    if flag(market_wire.closed) {
        let resolved_by_oracle = market_wire
            .uma_resolution_status
            .as_deref()
            .is_some_and(|status| status.trim().eq_ignore_ascii_case("resolved"));
        // Legacy markets that resolved and were redeemed show every price as 0.
        let redeemed = prices.iter().all(|price| *price == 0.0);
        if resolved_by_oracle || winner(prices).is_some() || redeemed {
            MarketStatus::Resolved
        } else {
            MarketStatus::Closed
        }
    } else if flag(market_wire.archived) {
        MarketStatus::Closed
    } else if flag(market_wire.active) {
        MarketStatus::Open
    } else {
        MarketStatus::Closed
    }
}

/// The price from which a closed market's outcome counts as the winner: a winner trades at
/// (nearly) 1. Gamma shows `"1"` once the oracle has resolved a market, and legacy markets
/// keep their last price, such as `0.99999958…`.
const WINNING_PRICE: f64 = 0.99;

/// The position of a closed market's winning outcome: the one priced at least
/// [`WINNING_PRICE`], when exactly one is.
fn winner(prices: &[f64]) -> Option<usize> {
    let mut winners = (0..prices.len()).filter(|&position| prices[position] >= WINNING_PRICE);
    match (winners.next(), winners.next()) {
        (Some(winner), None) => Some(winner),
        _ => None,
    }
}

/// A resolved market's result: the winning outcome by its final price ([`winner`]), and when
/// Gamma closed the market (`closedTime`: where the oracle resolved the market, the time of
/// its resolution, `umaEndDate`, in every recording). A market resolved with no outcome at the
/// winning price (redeemed legacy markets show every price as 0; a market may resolve 50-50)
/// has no winner here rather than a guessed one.
fn resolution(outcomes: &[Outcome], prices: &[f64], closed_time: Option<&str>) -> Result<Resolution, String> {
    Ok(Resolution {
        outcome: winner(prices)
            .and_then(|position| outcomes.get(position))
            .map(|outcome| outcome.name.clone()),
        resolved_at: timestamp("closedTime", closed_time)?,
    })
}

/// A slug as a URL lookup key: `market_url::parse` lower-cases what it reads.
fn lookup_key(slug: Option<&str>) -> Option<String> {
    non_empty(slug).map(str::to_ascii_lowercase)
}
