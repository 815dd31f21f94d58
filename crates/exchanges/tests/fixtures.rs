//! Every recorded payload in `demo-data/` (unmodified copies of the shared fixtures) run
//! through `normalize`, with the counts `SOURCES.md` documents and spot checks of real values.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use marketlens_domain::time::to_iso8601;
use marketlens_domain::{Category, Exchange, Market, MarketStatus, Outcome};
use marketlens_exchanges::{Normalized, PayloadError, PayloadKind, normalize};

fn demo_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo-data")
}

/// Every `*.json` under `<root>/polymarket` and `<root>/kalshi`, with its exchange.
fn payload_files(root: &Path) -> Vec<(Exchange, PathBuf)> {
    let mut files = Vec::new();
    for exchange in Exchange::ALL {
        let directory = root.join(exchange.platform());
        let entries = fs::read_dir(&directory).unwrap_or_else(|error| panic!("{}: {error}", directory.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|extension| extension == "json") {
                files.push((exchange, path));
            }
        }
    }
    files.sort();
    files
}

fn load(exchange: Exchange, file: &str) -> (PayloadKind, Normalized) {
    let path = demo_data().join(exchange.platform()).join(file);
    let bytes = fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    normalize(exchange, &bytes).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn market<'a>(normalized: &'a Normalized, external_id: &str) -> &'a Market {
    normalized
        .markets
        .iter()
        .find(|market| market.external_id == external_id)
        .unwrap_or_else(|| panic!("market {external_id} missing"))
}

fn status_counts(normalized: &Normalized) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for market in &normalized.markets {
        *counts.entry(market.status.as_str()).or_default() += 1;
    }
    counts
}

fn skip_reasons(normalized: &Normalized) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for skipped in &normalized.skipped {
        // "market 12345: reason" → "reason"
        let reason = skipped
            .reason
            .split_once(": ")
            .map_or(skipped.reason.as_str(), |(_, reason)| reason);
        *counts.entry(reason.to_owned()).or_default() += 1;
    }
    counts
}

fn outcome(name: &str, price: f64, bid: Option<f64>, ask: Option<f64>) -> Outcome {
    Outcome {
        name: name.to_owned(),
        price,
        best_bid_price: bid,
        best_ask_price: ask,
    }
}

fn iso(timestamp: Option<chrono::DateTime<chrono::Utc>>) -> Option<String> {
    timestamp.map(to_iso8601)
}

fn check_every_file(root: &Path) {
    let files = payload_files(root);
    assert!(
        files.len() >= 12,
        "expected the 12 recorded payloads under {}",
        root.display()
    );
    for (exchange, path) in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = fs::read(&path).unwrap();
        let detected = marketlens_exchanges::detect(&bytes).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(detected.exchange(), exchange, "{name}");
        let normalized = match normalize(exchange, &bytes) {
            Ok((kind, normalized)) => {
                assert_eq!(kind, detected, "{name}");
                normalized
            }
            Err(PayloadError::NoMarketData(PayloadKind::KalshiSeries)) => {
                assert!(name.starts_with("series"), "{name} refused as a series payload");
                continue;
            }
            Err(error) => panic!("{name}: {error}"),
        };
        assert!(!name.starts_with("series"), "{name} was not refused");
        // The other exchange's normalizer refuses it as a whole.
        assert!(matches!(
            normalize(exchange.other(), &bytes),
            Err(PayloadError::WrongExchange { found, .. }) if found == detected
        ));
        for market in &normalized.markets {
            assert_eq!(market.exchange, exchange);
            market
                .validate()
                .unwrap_or_else(|error| panic!("{name}: market {}: {error}", market.external_id));
        }
        for event in &normalized.events {
            assert_eq!(event.exchange, exchange);
            assert!(!event.title.trim().is_empty(), "{name}: event {}", event.external_id);
        }
        let market_ids: HashSet<&str> = normalized
            .markets
            .iter()
            .map(|market| market.external_id.as_str())
            .collect();
        assert_eq!(
            market_ids.len(),
            normalized.markets.len(),
            "{name}: repeated market ids"
        );
        let event_ids: HashSet<&str> = normalized
            .events
            .iter()
            .map(|event| event.external_id.as_str())
            .collect();
        assert_eq!(event_ids.len(), normalized.events.len(), "{name}: repeated event ids");
        for skipped in &normalized.skipped {
            assert!(
                !skipped.reason.contains('\n'),
                "{name}: multi-line reason {:?}",
                skipped.reason
            );
        }
        println!(
            "{name}: {detected:?}, {} markets {:?}, {} events, skipped {:?}",
            normalized.markets.len(),
            status_counts(&normalized),
            normalized.events.len(),
            skip_reasons(&normalized)
        );
    }
}

#[test]
fn every_demo_payload_normalizes_or_is_refused_as_a_series() {
    check_every_file(&demo_data());
}

#[test]
fn gamma_events_1_has_100_events_and_skips_the_59_placeholders() {
    let (kind, normalized) = load(Exchange::Polymarket, "gamma-events-1.json");
    assert_eq!(kind, PayloadKind::PolymarketEvents);
    assert_eq!(normalized.events.len(), 100);
    assert_eq!(normalized.markets.len(), 291 - 59);
    assert_eq!(normalized.skipped.len(), 59);
    assert_eq!(
        skip_reasons(&normalized),
        BTreeMap::from([("placeholder market, not listed yet".to_owned(), 59)])
    );
    assert!(normalized.skipped.iter().all(|skipped| skipped.external_id.is_some()));
    assert_eq!(
        status_counts(&normalized),
        BTreeMap::from([("OPEN", 219), ("RESOLVED", 12), ("CLOSED", 1)])
    );
    // Every nested market belongs to its event.
    let event_ids: HashSet<&str> = normalized
        .events
        .iter()
        .map(|event| event.external_id.as_str())
        .collect();
    assert!(
        normalized
            .markets
            .iter()
            .all(|market| event_ids.contains(market.event_external_id.as_deref().unwrap()))
    );
}

#[test]
fn polymarket_market_512272_keeps_its_recorded_values() {
    let (_, normalized) = load(Exchange::Polymarket, "gamma-events-1.json");
    let market = market(&normalized, "512272");
    assert_eq!(market.question, "Will Trump jail Hillary Clinton?");
    assert_eq!(market.event_external_id.as_deref(), Some("14205"));
    assert_eq!(market.status, MarketStatus::Open);
    assert_eq!(
        market.outcomes,
        [
            outcome("Yes", 0.0015, Some(0.001), Some(0.002)),
            outcome("No", 0.9985, Some(0.998), Some(0.999))
        ]
    );
    assert_eq!(market.volume, 1015033.948621);
    assert_eq!(market.liquidity, 54502.0171);
    assert_eq!(market.volume_24h, 5953.361);
    assert_eq!(market.category, Category::Politics, "from the tag \"U.S. Politics\"");
    assert_eq!(iso(market.start_date).as_deref(), Some("2024-11-07T18:13:49.120Z"));
    assert_eq!(iso(market.end_date).as_deref(), Some("2025-06-30T12:00:00.000Z"));
    assert_eq!(iso(market.created_at).as_deref(), Some("2024-11-07T18:07:21.840Z"));
    assert_eq!(
        iso(market.source_updated_at).as_deref(),
        Some("2025-06-24T23:58:16.647Z")
    );
    // The market's slug is its event's: the event page is the market's page.
    assert_eq!(
        market.url,
        "https://polymarket.com/event/will-trump-jail-hillary-clinton"
    );
    assert_eq!(
        market.url_keys.market.as_deref(),
        Some("will-trump-jail-hillary-clinton")
    );
    assert_eq!(
        market.url_keys.event.as_deref(),
        Some("will-trump-jail-hillary-clinton")
    );
    assert_eq!(market.url_keys.series, None);
    assert!(
        market
            .image_url
            .ends_with("will-trump-jail-hillary-clinton-kMbfBaGn0ngp.jpg")
    );
    assert!(
        market
            .description
            .starts_with("This market will resolve to \"Yes\" if Hillary Clinton")
    );

    let event = normalized
        .events
        .iter()
        .find(|event| event.external_id == "14205")
        .unwrap();
    assert_eq!(event.title, "Will Trump jail Hillary Clinton?");
    assert_eq!(event.category, Category::Politics);
    assert_eq!(event.reported_volume, Some(1015033.948621));
    assert_eq!(iso(event.created_at).as_deref(), Some("2024-11-07T18:07:20.421Z"));
    assert_eq!(
        iso(event.source_updated_at).as_deref(),
        Some("2025-06-24T23:58:33.606Z")
    );
    assert_eq!(event.slug.as_deref(), Some("will-trump-jail-hillary-clinton"));
}

#[test]
fn gamma_events_2_are_resolved_sports_events_with_their_series() {
    let (_, normalized) = load(Exchange::Polymarket, "gamma-events-2.json");
    assert_eq!(
        (
            normalized.events.len(),
            normalized.markets.len(),
            normalized.skipped.len()
        ),
        (10, 10, 0)
    );
    assert_eq!(status_counts(&normalized), BTreeMap::from([("RESOLVED", 10)]));
    let market = market(&normalized, "239826");
    // The recorded 40-digit price, read as the nearest f64.
    assert_eq!(
        market.outcomes[0].price,
        "0.0000004113679809846114013590098187297978".parse::<f64>().unwrap()
    );
    // bestBid 0 and bestAsk 1: an empty book.
    assert!(
        market
            .outcomes
            .iter()
            .all(|outcome| outcome.best_bid_price.is_none() && outcome.best_ask_price.is_none())
    );
    assert_eq!(market.category, Category::Sports);
    assert_eq!(market.url_keys.series.as_deref(), Some("nba"));
    let event = normalized
        .events
        .iter()
        .find(|event| event.external_id == "2890")
        .unwrap();
    assert_eq!(event.series_slug.as_deref(), Some("nba"));
    assert_eq!(event.reported_volume, Some(1335.05));
    assert_eq!(event.category, Category::Sports);
}

#[test]
fn gamma_markets_1_emits_each_embedded_event_once() {
    let (kind, normalized) = load(Exchange::Polymarket, "gamma-markets-1.json");
    assert_eq!(kind, PayloadKind::PolymarketMarkets);
    assert_eq!(
        (
            normalized.markets.len(),
            normalized.events.len(),
            normalized.skipped.len()
        ),
        (500, 46, 0)
    );
    assert_eq!(status_counts(&normalized), BTreeMap::from([("OPEN", 500)]));
    let market = market(&normalized, "517310");
    assert_eq!(market.event_external_id.as_deref(), Some("16282"));
    assert_eq!(
        market.outcomes,
        [
            outcome("Yes", 0.029, Some(0.02), Some(0.038)),
            outcome("No", 0.971, Some(0.962), Some(0.98))
        ]
    );
    assert_eq!(market.volume, 1018500.561838);
    assert_eq!(
        market.url,
        "https://polymarket.com/event/how-many-people-will-trump-deport-in-2025/will-trump-deport-less-than-250000"
    );
    assert_eq!(market.url_keys.series.as_deref(), Some("deportation-count"));
    assert_eq!(
        market.category,
        Category::Politics,
        "inferred from \"deport\" and \"Trump\""
    );
    assert_eq!(iso(market.end_date).as_deref(), Some("2025-12-31T12:00:00.000Z"));
    // 546612 has neither endDate nor endDateIso.
    assert_eq!(crate::market(&normalized, "546612").end_date, None);
    let event = normalized
        .events
        .iter()
        .find(|event| event.external_id == "16282")
        .unwrap();
    assert_eq!(event.title, "How many people will Trump deport in 2025?");
    assert_eq!(event.reported_volume, Some(4934235.812182));
    assert_eq!(event.series_slug.as_deref(), Some("deportation-count"));
}

#[test]
fn gamma_markets_2_legacy_markets_resolve_and_keep_their_labels() {
    let (_, normalized) = load(Exchange::Polymarket, "gamma-markets-2.json");
    assert_eq!(
        (
            normalized.markets.len(),
            normalized.events.len(),
            normalized.skipped.len()
        ),
        (500, 499, 0)
    );
    assert_eq!(
        status_counts(&normalized),
        BTreeMap::from([("RESOLVED", 476), ("CLOSED", 24)])
    );
    let redeemed = market(&normalized, "12");
    assert_eq!(
        redeemed.status,
        MarketStatus::Resolved,
        "prices [0, 0]: resolved and redeemed"
    );
    assert_eq!(redeemed.category, Category::Politics, "from \"US-current-affairs\"");
    assert_eq!(redeemed.start_date, None);
    assert_eq!(iso(redeemed.end_date).as_deref(), Some("2020-11-04T00:00:00.000Z"));
    let orphans: Vec<&Market> = normalized
        .markets
        .iter()
        .filter(|market| market.event_external_id.is_none())
        .collect();
    assert_eq!(orphans.len(), 1, "one market embeds no event");
    assert!(orphans[0].url.starts_with("https://polymarket.com/market/"));
    // "Pop-Culture " (with its trailing space) maps.
    let pop_culture = normalized
        .markets
        .iter()
        .filter(|market| market.category == Category::Culture)
        .count();
    assert!(pop_culture >= 28);
    assert!(normalized.markets.iter().any(|market| market.outcomes.len() == 7));
}

#[test]
fn kalshi_markets_1_has_476_resolved_and_278_open_markets() {
    let (kind, normalized) = load(Exchange::Kalshi, "markets-1.json");
    assert_eq!(kind, PayloadKind::KalshiMarkets);
    assert_eq!(
        (
            normalized.markets.len(),
            normalized.events.len(),
            normalized.skipped.len()
        ),
        (754, 0, 0)
    );
    assert_eq!(
        status_counts(&normalized),
        BTreeMap::from([("OPEN", 278), ("RESOLVED", 476)])
    );
    // No labels and no event titles in a /markets list: the questions, and where they name
    // no sport ("Will Georgia qualify for Final?") the rules, say Sports.
    assert!(
        normalized
            .markets
            .iter()
            .all(|market| market.category == Category::Sports)
    );
    let georgia = market(&normalized, "KXMARMAD-26-UGA");
    assert_eq!(
        georgia.question,
        "Will Georgia win the College Basketball National Championship?"
    );
    assert_eq!(
        georgia.outcomes,
        [
            outcome("Yes", 0.01, None, Some(0.01)),
            outcome("No", 0.99, Some(0.99), None)
        ]
    );
    assert_eq!(
        (georgia.volume, georgia.volume_24h, georgia.liquidity),
        (12932.0, 12927.0, 0.0)
    );
    assert_eq!(georgia.category, Category::Sports);
    assert_eq!(georgia.event_external_id.as_deref(), Some("KXMARMAD-26"));
    assert_eq!(georgia.url, "https://kalshi.com/markets/kxmarmad-26");
    assert_eq!(
        georgia.url_keys.series, None,
        "a /markets list does not name the series"
    );
    assert_eq!(iso(georgia.created_at).as_deref(), Some("2026-03-15T22:31:42.328Z"));
    assert!(georgia.description.contains("\n\nKalshi is not affiliated"));
    let arizona = market(&normalized, "KXMARMAD1SEED-26-ARIZ");
    assert_eq!(arizona.status, MarketStatus::Resolved);
    assert_eq!((arizona.outcomes[0].price, arizona.outcomes[1].price), (1.0, 0.0));
    // Head-to-head games share one "… Winner?" title per event.
    let game = market(&normalized, "KXNCAAMBGAME-26MAR19USFLOU-USF");
    assert_eq!(game.question, "South Florida at Louisville Winner? — South Florida");
    let shared = normalized
        .markets
        .iter()
        .filter(|market| market.question.contains(" — "))
        .count();
    assert_eq!(shared, 96);
}

/// How many of a payload's resolved markets have each winner (`None`: no single winner), and
/// how many say when they resolved.
fn winners(normalized: &Normalized) -> (BTreeMap<Option<&str>, usize>, usize) {
    let mut winners = BTreeMap::new();
    let mut timed = 0;
    for resolution in normalized
        .markets
        .iter()
        .filter_map(|market| market.resolution.as_ref())
    {
        *winners.entry(resolution.outcome.as_deref()).or_default() += 1;
        timed += usize::from(resolution.resolved_at.is_some());
    }
    (winners, timed)
}

fn resolution(market: &Market) -> (Option<&str>, Option<String>) {
    let resolution = market.resolution.as_ref().expect("a resolved market has a resolution");
    (resolution.outcome.as_deref(), iso(resolution.resolved_at))
}

#[test]
fn kalshi_finalized_markets_resolve_to_their_result_at_their_settlement() {
    let (_, normalized) = load(Exchange::Kalshi, "markets-1.json");
    // SOURCES.md: 476 finalized, result "no" 405 and "yes" 71, each with settlement_ts.
    assert_eq!(
        winners(&normalized),
        (BTreeMap::from([(Some("No"), 405), (Some("Yes"), 71)]), 476)
    );
    let wichita = market(&normalized, "KXMARMAD-26-WICH");
    assert_eq!(
        resolution(wichita),
        (Some("No"), Some("2026-03-15T23:28:19.638Z".to_owned()))
    );
    assert_eq!(
        wichita.rules.primary.as_deref(),
        Some(
            "If Wichita St. is the 2025-26 Division 1 Men's College Basketball National Champion, then the \
             market resolves to Yes."
        )
    );
    assert!(
        wichita
            .rules
            .secondary
            .as_deref()
            .is_some_and(|secondary| secondary.starts_with("Kalshi is not affiliated"))
    );
    assert_eq!(wichita.rules.source, None);
    assert_eq!(
        resolution(market(&normalized, "KXMARMAD-25R4G2-HOU")),
        (Some("Yes"), Some("2025-04-06T03:57:56.817Z".to_owned()))
    );
    assert_eq!(market(&normalized, "KXMARMAD-26-UGA").resolution, None, "active");
    // A trimmed record without settlement_ts: the winner, but no time.
    let (_, nested) = load(Exchange::Kalshi, "events-nested-1.json");
    assert_eq!(
        resolution(market(&nested, "KXIPHONERELEASE-IPHONE18-26JUL01")),
        (Some("No"), None)
    );
}

#[test]
fn polymarket_resolved_markets_resolve_to_the_outcome_at_the_winning_price() {
    let (_, events_1) = load(Exchange::Polymarket, "gamma-events-1.json");
    // SOURCES.md: 12 markets resolved by the oracle, with prices ["0", "1"] or ["1", "0"].
    assert_eq!(
        winners(&events_1),
        (BTreeMap::from([(Some("No"), 4), (Some("Yes"), 8)]), 12)
    );
    let nuclear = market(&events_1, "514472");
    assert_eq!(
        resolution(nuclear),
        (Some("No"), Some("2025-04-01T08:21:16.000Z".to_owned()))
    );
    assert!(
        nuclear
            .rules
            .primary
            .as_deref()
            .is_some_and(|primary| primary.starts_with("This market will resolve to \"Yes\" if a nuclear weapon"))
    );
    assert_eq!(
        (nuclear.rules.secondary.as_deref(), nuclear.rules.source.as_deref()),
        (None, None)
    );
    assert_eq!(
        resolution(market(&events_1, "516867")),
        (Some("Yes"), Some("2025-05-22T03:54:58.000Z".to_owned()))
    );

    // Legacy markets keep their last price (0.99999958…) and name their source.
    let (_, events_2) = load(Exchange::Polymarket, "gamma-events-2.json");
    let mavericks = market(&events_2, "239826");
    assert_eq!(
        resolution(mavericks),
        (Some("No"), Some("2021-12-05T20:37:01.000Z".to_owned()))
    );
    assert_eq!(mavericks.rules.source.as_deref(), Some("https://www.nba.com/games"));

    // 430 legacy markets with an outcome at the winning price, 46 redeemed at ["0", "0"].
    let (_, markets_2) = load(Exchange::Polymarket, "gamma-markets-2.json");
    let (by_winner, timed) = winners(&markets_2);
    assert_eq!(
        (by_winner[&None], by_winner.values().sum::<usize>(), timed),
        (46, 476, 476)
    );
    assert_eq!(
        resolution(market(&markets_2, "12")),
        (None, Some("2020-11-02T16:31:01.000Z".to_owned()))
    );
}

#[test]
fn kalshi_markets_2_parlays_read_the_transitional_schema() {
    let (_, normalized) = load(Exchange::Kalshi, "markets-2.json");
    assert_eq!((normalized.markets.len(), normalized.skipped.len()), (5, 0));
    let parlay = market(&normalized, "KXMVENFLSINGLEGAME-S202513E70FA7695-688BECB3826");
    assert_eq!(parlay.description, "", "empty rules");
    // No trades and an empty book (a No "bid" of 1.00 pays the whole payout, so it is no
    // real order): price 0 and no quotes.
    assert_eq!(
        parlay.outcomes,
        [outcome("Yes", 0.0, None, None), outcome("No", 1.0, None, None)]
    );
}

#[test]
fn kalshi_event_lists_without_markets_still_emit_their_events() {
    let (kind, events_1) = load(Exchange::Kalshi, "events-1.json");
    assert_eq!(kind, PayloadKind::KalshiEvents);
    assert_eq!(
        (events_1.events.len(), events_1.markets.len(), events_1.skipped.len()),
        (5, 0, 0)
    );
    let (_, events_2) = load(Exchange::Kalshi, "events-2.json");
    assert_eq!(
        (events_2.events.len(), events_2.markets.len(), events_2.skipped.len()),
        (200, 0, 0)
    );
    let jobless = events_2
        .events
        .iter()
        .find(|event| event.external_id == "JOBLESS-21AUG28")
        .unwrap();
    assert_eq!(jobless.slug.as_deref(), Some("jobless-21aug28"));
    assert_eq!(jobless.series_slug.as_deref(), Some("kxjobless"));
    assert_eq!(jobless.category, Category::Economics);
    assert!(jobless.source_updated_at.is_some());
    let warming = events_1
        .events
        .iter()
        .find(|event| event.external_id == "KXWARMING-50")
        .unwrap();
    assert_eq!(warming.category, Category::ClimateAndWeather);
    assert_eq!(warming.description, "Before 2050");
    assert_eq!((warming.created_at, warming.reported_volume), (None, None));
}

#[test]
fn kalshi_nested_events_pass_their_series_title_and_category_on() {
    let (_, normalized) = load(Exchange::Kalshi, "events-nested-1.json");
    assert_eq!(
        (
            normalized.events.len(),
            normalized.markets.len(),
            normalized.skipped.len()
        ),
        (6, 16, 0)
    );
    let pope = market(&normalized, "KXNEWPOPE-70-PPIZ");
    assert_eq!(pope.question, "Who will the next Pope be? — Pierbattista Pizzaballa");
    assert_eq!(pope.category, Category::Politics, "the event's \"Elections\"");
    assert_eq!(
        pope.url,
        "https://kalshi.com/markets/kxnewpope/who-will-the-next-pope-be/kxnewpope-70"
    );
    assert_eq!(pope.url_keys.series.as_deref(), Some("kxnewpope"));
    assert_eq!(pope.outcomes[0], outcome("Yes", 0.032, Some(0.031), Some(0.07)));
    assert_eq!(pope.outcomes[1], outcome("No", 0.968, Some(0.93), Some(0.969)));
    let iphone = market(&normalized, "KXIPHONERELEASE-IPHONE18-26JUL01");
    assert_eq!(iphone.status, MarketStatus::Resolved);
    assert_eq!(iphone.outcomes[0].price, 0.0);
    assert_eq!(
        iphone.category,
        Category::ScienceAndTechnology,
        "the event's \"Technology\""
    );
    let game = market(&normalized, "KXNFLGAME-26AUG06CARARI-ARI");
    assert_eq!(
        game.question,
        "Hall of Fame Game: Carolina vs Arizona Winner? — Arizona"
    );
    assert_eq!(game.volume, 8000.0);
    assert_eq!(
        game.created_at, None,
        "trimmed record: neither created_time nor open_time"
    );
    // Two markets of one event share a title that names no choice.
    assert_eq!(
        market(&normalized, "KXRAMPBREX-40-RAMP").question,
        "Will Ramp or Brex IPO first? — Ramp"
    );
    // A title of its own is kept as it is.
    assert_eq!(
        market(&normalized, "KXCS2TOTALMAPS-26AUG04EXG-3").question,
        "Will there be over 2.5 maps played?"
    );
    assert_eq!(
        market(&normalized, "KXIPHONERELEASE-IPHONE18-26OCT01").question,
        "Will Apple Inc. release iPhone 18 before Oct 1, 2026?"
    );
}

#[test]
fn kalshi_single_event_kxelonmars_99_keeps_its_recorded_values() {
    let (kind, normalized) = load(Exchange::Kalshi, "event-single-1.json");
    assert_eq!(kind, PayloadKind::KalshiEvent);
    assert_eq!(
        (
            normalized.events.len(),
            normalized.markets.len(),
            normalized.skipped.len()
        ),
        (1, 1, 0)
    );
    let market = market(&normalized, "KXELONMARS-99");
    assert_eq!(market.question, "Will Elon Musk visit Mars before Aug 1, 2099?");
    assert_eq!(market.status, MarketStatus::Open);
    assert_eq!(
        market.outcomes,
        [
            outcome("Yes", 0.06, Some(0.06), Some(0.07)),
            outcome("No", 0.94, Some(0.93), Some(0.94))
        ]
    );
    assert_eq!(market.liquidity, 68148.06);
    assert_eq!(market.volume, 35001.0);
    assert_eq!(market.volume_24h, 10.0);
    assert_eq!(
        iso(market.created_at).as_deref(),
        Some("2025-08-28T20:45:00.000Z"),
        "Go zero time falls back"
    );
    assert_eq!(iso(market.end_date).as_deref(), Some("2099-08-01T04:59:00.000Z"));
    assert_eq!(market.source_updated_at, None);
    assert_eq!(market.category, Category::World);
    assert_eq!(market.event_external_id.as_deref(), Some("KXELONMARS-99"));
    assert_eq!(
        market.url,
        "https://kalshi.com/markets/kxelonmars/will-elon-musk-visit-mars-in-his-lifetime/kxelonmars-99"
    );
    assert_eq!(market.url_keys.market.as_deref(), Some("kxelonmars-99"));
    assert_eq!(market.url_keys.event.as_deref(), Some("kxelonmars-99"));
    assert_eq!(market.url_keys.series.as_deref(), Some("kxelonmars"));
    assert_eq!(market.image_url, "");
    let event = &normalized.events[0];
    assert_eq!(event.title, "Will Elon Musk visit Mars in his lifetime?");
    assert_eq!(event.description, "Before 2099");
}

#[test]
fn kalshi_series_payloads_carry_no_market_data() {
    for file in ["series-1.json", "series-single-1.json"] {
        let bytes = fs::read(demo_data().join("kalshi").join(file)).unwrap();
        let error = normalize(Exchange::Kalshi, &bytes).unwrap_err();
        assert!(
            matches!(error, PayloadError::NoMarketData(PayloadKind::KalshiSeries)),
            "{file}: {error}"
        );
        assert!(error.to_string().contains("carries no markets or events"));
    }
}
