//! Explain: find the one market a query names, and say what its data shows.
//!
//! A query is a market URL of either exchange (parsed, never fetched), a market's own id on
//! its exchange (a Polymarket id or slug, a Kalshi ticker, any case), or free words.
//!
//! Free words pick a market only when its question covers the query's distinctive words
//! (`docs/contract/decisions.md#d8-ranking`). Each word of the query weighs its inverse
//! document frequency over the catalogue's questions, so that "shutdown", which no question
//! holds, outweighs "government", which one 2021 stimulus question holds; a market's coverage
//! is the share of that weight its question holds, and below [`MIN_COVERAGE`] explain refuses
//! and names the best candidates instead, so that a client can refine. Words are compared as
//! prefixes after a light stemming ("deportations" finds "deport", "insolvency" finds
//! "insolvent"); numbers ("150k", "2026") are no words to cover but thresholds and dates,
//! which the matcher's reading of the query (`marketlens_domain::matching::query`) compares,
//! so that "bitcoin 150k" finds the $150,000 market and not the $100,000 one beside it.
//! Among the markets that pass, the matcher's score ranks first, then coverage, then open
//! before closed, then volume. The search's hundred candidates are ranked by coverage on what
//! it returns of them ([`SearchHit`]: the question, status, volume), their words borrowed from
//! the question where they can be; only the twenty best are read in full for the matcher,
//! which needs their outcomes and end dates. That keeps explain to a fraction of a
//! millisecond of CPU (issue 23). The search and the full read are two reads of the
//! catalogue: a reload between them can leave out a candidate the reload removed, as a call
//! a moment later would.
//!
//! Key factors come from the news the service has gathered ([`crate::LiveNews`]);
//! the summary says how many articles from the market's own time were found.

use crate::{CatalogReader, SearchHit};
use chrono::NaiveDate;
use marketlens_domain::ids::market_id;
use marketlens_domain::market_url::{self, MarketUrl, UrlKey};
use marketlens_domain::matching::query::QueryFeatures;
use marketlens_domain::text::{is_stopword, word_slices, words};
use marketlens_domain::{Exchange, MarketStatus};
use marketlens_storage::{
    MarketFilter, MarketQuery, MarketSort, MarketSummary, SearchWords, SortOrder, Store, StoreError, StoredMarket,
};
use std::cmp::Ordering;
use std::sync::Arc;
use uuid::Uuid;

/// How many candidates the index proposes for free words before they are ranked.
const CANDIDATES: u32 = 100;
/// How many of the best-covered candidates the matcher's reading of the query then ranks.
const SCORED: usize = 20;
/// The share of the query's word weight a market's question must hold to be chosen.
pub const MIN_COVERAGE: f64 = 0.45;
/// How many candidates a refusal names.
pub const REFUSAL_CANDIDATES: usize = 3;
/// The most words of a query that are weighed and covered (a list's `search` takes as many).
const MAX_WEIGHED_WORDS: usize = 12;

/// What explain found for a query.
#[derive(Debug, Clone)]
pub enum Pick {
    Market(Arc<StoredMarket>),
    /// No market is about the query: the best candidates, best first (at most
    /// [`REFUSAL_CANDIDATES`], none when nothing shares a word with it).
    NoMatch(Vec<Candidate>),
}

/// A market that shares words with a query but was not chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub id: Uuid,
    pub exchange: Exchange,
    pub question: String,
    /// The share of the query's word weight its question holds, in `[0, 1]`.
    pub coverage: f64,
}

/// The market a parsed exchange URL names: of the stored markets its most specific key finds
/// (an event page names several), the open one with the highest volume.
pub async fn market_by_url(store: &dyn Store, url: &MarketUrl) -> Result<Option<StoredMarket>, StoreError> {
    let markets = store.markets_by_url(url).await?;
    Ok(markets.into_iter().min_by(|left, right| {
        status_then_volume(
            (left.market.status, left.market.volume, &left.market.external_id),
            (right.market.status, right.market.volume, &right.market.external_id),
        )
    }))
}

/// The market a bare exchange id names: a Polymarket market id or slug, a Kalshi market
/// ticker (any case), or an event's slug or ticker (then its open market with the highest
/// volume, as for an event's URL). Only a single token with a digit or a hyphen, and not a year,
/// is tried, so
/// that one free word ("bitcoin") costs no lookup.
pub async fn market_by_exchange_id(
    store: &dyn Store,
    catalog: &dyn CatalogReader,
    query: &str,
) -> Result<Option<Arc<StoredMarket>>, StoreError> {
    let token = query.trim();
    let looks_like_id = !token.is_empty()
        && token.len() <= 200
        && token
            .chars()
            .all(|character| character.is_ascii_alphanumeric() || matches!(character, '-' | '_' | '.'))
        && token
            .chars()
            .any(|character| character.is_ascii_digit() || character == '-')
        // A year ("2025") is what the query is about, not a market's id.
        && !token.parse::<u32>().is_ok_and(|number| (1900..2100).contains(&number) && token.len() == 4);
    if !looks_like_id {
        return Ok(None);
    }
    let exact = [
        market_id(Exchange::Kalshi, &token.to_ascii_uppercase()),
        market_id(Exchange::Polymarket, token),
    ];
    for id in exact {
        if let Some(stored) = catalog.get_market(id).await? {
            return Ok(Some(stored));
        }
    }
    let key = token.to_ascii_lowercase();
    for exchange in Exchange::ALL {
        let url = MarketUrl {
            exchange,
            keys: vec![UrlKey::Market(key.clone()), UrlKey::Event(key.clone())],
        };
        if let Some(stored) = market_by_url(store, &url).await? {
            return Ok(Some(Arc::new(stored)));
        }
    }
    Ok(None)
}

/// The market `query` names, or the candidates that came closest. `today` resolves dates
/// the query writes without a year ("december"). A URL is looked up in the store by its keys,
/// an exchange id by the market's id; free words are searched in the catalogue, and only the
/// chosen market is read in full from the store.
pub async fn find_market(
    store: &dyn Store,
    catalog: &dyn CatalogReader,
    query: &str,
    today: NaiveDate,
) -> Result<Pick, StoreError> {
    if let Some(url) = market_url::parse(query) {
        return Ok(match market_by_url(store, &url).await? {
            Some(stored) => Pick::Market(Arc::new(stored)),
            None => Pick::NoMatch(Vec::new()),
        });
    }
    if let Some(stored) = market_by_exchange_id(store, catalog, query).await? {
        return Ok(Pick::Market(stored));
    }
    let terms = QueryTerms::of(query);
    if terms.words.is_empty() {
        return Ok(Pick::NoMatch(Vec::new()));
    }
    let weights = word_weights(catalog, &terms.words).await?;
    let total_weight: f64 = weights.iter().sum();
    let searched = terms
        .words
        .iter()
        .chain(&terms.numbers)
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    let Some(search) = SearchWords::parse(&searched) else {
        return Ok(Pick::NoMatch(Vec::new()));
    };
    let mut candidates: Vec<(f64, SearchHit)> = catalog
        .search_any_words(&search, CANDIDATES)
        .await?
        .into_iter()
        .map(|hit| {
            let held = covered(&terms.words, &hit.question);
            let weight: f64 = held
                .iter()
                .zip(&weights)
                .filter(|(held, _)| **held)
                .map(|(_, weight)| weight)
                .sum();
            (weight / total_weight, hit)
        })
        .filter(|(coverage, _)| *coverage > 0.0)
        .collect();
    // The matcher's reading costs more than word coverage: only the best-covered are read.
    candidates.sort_by(|(left_coverage, left), (right_coverage, right)| {
        right_coverage.total_cmp(left_coverage).then_with(|| {
            status_then_volume(
                (left.status, left.volume, &left.external_id),
                (right.status, right.volume, &right.external_id),
            )
        })
    });
    candidates.truncate(SCORED);
    // Only the kept candidates are read in full, in their order (a market gone from the
    // catalogue since the search is left out).
    let ids: Vec<Uuid> = candidates.iter().map(|(_, hit)| hit.id).collect();
    let features = QueryFeatures::parse(query, today);
    let mut ranked: Vec<((f64, f64), MarketSummary)> = catalog
        .summaries_of(&ids)
        .await?
        .into_iter()
        .filter_map(|summary| {
            let (coverage, _) = candidates.iter().find(|(_, hit)| hit.id == summary.id)?;
            let score = features.score_market(&summary.question, &summary.outcomes, summary.end_date);
            Some(((score, *coverage), summary))
        })
        .collect();
    ranked.sort_by(
        |((left_score, left_coverage), left), ((right_score, right_coverage), right)| {
            let left_passes = *left_coverage >= MIN_COVERAGE;
            let right_passes = *right_coverage >= MIN_COVERAGE;
            right_passes
                .cmp(&left_passes)
                .then(right_score.total_cmp(left_score))
                .then(right_coverage.total_cmp(left_coverage))
                .then_with(|| {
                    status_then_volume(
                        (left.status, left.volume, &left.external_id),
                        (right.status, right.volume, &right.external_id),
                    )
                })
        },
    );
    match ranked.first() {
        Some(((_, coverage), summary)) if *coverage >= MIN_COVERAGE => match catalog.get_market(summary.id).await? {
            Some(stored) => Ok(Pick::Market(stored)),
            None => Ok(Pick::NoMatch(Vec::new())),
        },
        _ => Ok(Pick::NoMatch(
            ranked
                .into_iter()
                .take(REFUSAL_CANDIDATES)
                .map(|((_, coverage), summary)| Candidate {
                    id: summary.id,
                    exchange: summary.exchange,
                    question: summary.question.into(),
                    coverage,
                })
                .collect(),
        )),
    }
}

/// A query's words to cover, stemmed and without stopwords, and its numbers.
struct QueryTerms {
    words: Vec<String>,
    numbers: Vec<String>,
}

impl QueryTerms {
    fn of(query: &str) -> QueryTerms {
        let mut terms = QueryTerms {
            words: Vec::new(),
            numbers: Vec::new(),
        };
        for word in words(query) {
            if word.chars().any(|character| character.is_ascii_digit()) {
                terms.numbers.push(word);
            } else if word.len() >= 2 && !is_stopword(&word) {
                terms.words.push(stem(&word));
            }
        }
        for list in [&mut terms.words, &mut terms.numbers] {
            list.sort();
            list.dedup();
        }
        // Each word to cover costs a count over the catalogue: the longest (the most telling)
        // are kept, as many as a search may have.
        if terms.words.len() > MAX_WEIGHED_WORDS {
            terms
                .words
                .sort_by(|left, right| right.len().cmp(&left.len()).then_with(|| left.cmp(right)));
            terms.words.truncate(MAX_WEIGHED_WORDS);
            terms.words.sort();
        }
        terms
    }
}

/// Suffixes stripped from a query's word, so that it finds the question's other forms of it
/// as a prefix. Crude, as the news index's inflections are: enough for "deportations" to find
/// "deport", "sentencing" "sentenced", "approval" "approved", "raise" "raising",
/// "qualification" "qualify". Stripping only, by hand, rather than Snowball's English stemmer
/// (rust-stemmers): a stem here must stay a prefix of the word, because the questions are
/// searched unstemmed, by prefix; Snowball rewrites endings ("policy" becomes "polici").
const SUFFIXES: &[&str] = &[
    "ications", "ication", "ations", "ation", "ments", "ment", "ings", "ing", "ency", "ed", "es", "al", "e", "s",
];

fn stem(word: &str) -> String {
    for suffix in SUFFIXES {
        if let Some(stem) = word.strip_suffix(suffix) {
            let shortest = if *suffix == "s" { 3 } else { 4 };
            if stem.len() >= shortest {
                return stem.to_owned();
            }
        }
    }
    word.to_owned()
}

/// Each word's inverse document frequency over the catalogue's questions (as prefixes, as
/// search reads them): `ln(1 + (N - n + 0.5) / (n + 0.5))` of N markets, n of which hold the
/// word. Read as the totals of the catalogue's own search, so any reader answers it.
async fn word_weights(catalog: &dyn CatalogReader, terms: &[String]) -> Result<Vec<f64>, StoreError> {
    let count = |search: Option<SearchWords>| MarketQuery {
        filter: MarketFilter {
            search,
            ..MarketFilter::default()
        },
        sort: MarketSort::Volume,
        order: SortOrder::Desc,
        limit: 1,
        offset: 0,
    };
    let markets = catalog.list_markets(&count(None)).await?.total as f64;
    let mut weights = Vec::with_capacity(terms.len());
    for term in terms {
        // Each count reads the snapshot of its own moment: a word cannot be in more markets
        // than there are, or its weight would turn negative.
        let holding = (catalog.list_markets(&count(SearchWords::parse(term))).await?.total as f64).min(markets);
        weights.push((1.0 + (markets - holding + 0.5) / (holding + 0.5)).ln());
    }
    Ok(weights)
}

/// For each of the query's words, whether it begins some word of the question.
fn covered(query_words: &[String], question: &str) -> Vec<bool> {
    let mut held = vec![false; query_words.len()];
    for word in word_slices(question) {
        for (is_held, query_word) in held.iter_mut().zip(query_words) {
            *is_held |= word.starts_with(query_word.as_str());
        }
    }
    held
}

/// Open before closed, then higher volume, then external id: a total order, so the pick is
/// stable. Each side is (status, volume, external id).
fn status_then_volume(left: (MarketStatus, f64, &str), right: (MarketStatus, f64, &str)) -> Ordering {
    (left.0 != MarketStatus::Open)
        .cmp(&(right.0 != MarketStatus::Open))
        .then(right.1.total_cmp(&left.1))
        .then_with(|| left.2.cmp(right.2))
}

/// The summary of a market's data: leading outcome and price, volumes, end date, and how
/// many news articles about it from its own time were found.
pub fn summary(stored: &StoredMarket, now: chrono::DateTime<chrono::Utc>, articles_found: usize) -> String {
    let market = &stored.market;
    let mut sentences = Vec::new();
    let leader = market
        .outcomes
        .iter()
        .max_by(|left, right| left.price.total_cmp(&right.price));
    match leader {
        Some(leader) => sentences.push(format!(
            "On {}, \"{}\" is led by {} at {}.",
            market.exchange.display_name(),
            market.question,
            leader.name,
            percent(leader.price)
        )),
        None => sentences.push(format!(
            "On {}, \"{}\" has no priced outcome.",
            market.exchange.display_name(),
            market.question
        )),
    }
    let volume = format!(
        "Volume is {} in total and {} in the last 24 hours",
        dollars(market.volume),
        dollars(market.volume_24h)
    );
    // Kalshi's 2026 payloads report no liquidity (always 0): say nothing rather than "$0".
    sentences.push(if market.liquidity > 0.0 {
        format!("{volume}, with {} of liquidity.", dollars(market.liquidity))
    } else {
        format!("{volume}.")
    });
    let exchange = market.exchange.display_name();
    sentences.push(match (market.end_date, market.status) {
        (Some(end), MarketStatus::Open) if end > now => format!("It ends on {}.", long_date(end)),
        (Some(end), MarketStatus::Open) => {
            format!(
                "Its end date, {}, has passed, but {exchange} still lists it as open.",
                long_date(end)
            )
        }
        (Some(end), status) => format!(
            "It is {}; its end date was {}.",
            status.as_str().to_lowercase(),
            long_date(end)
        ),
        (None, MarketStatus::Open) => "It has no set end date.".to_owned(),
        (None, status) => format!("It is {}.", status.as_str().to_lowercase()),
    });
    sentences.push(match articles_found {
        0 => "No news articles about this market from its time were found.".to_owned(),
        1 => "1 news article about it from the market's time was found.".to_owned(),
        found => format!("{found} news articles about it from the market's time were found."),
    });
    sentences.join(" ")
}

fn long_date(timestamp: chrono::DateTime<chrono::Utc>) -> String {
    timestamp.format("%B %-d, %Y").to_string()
}

fn percent(price: f64) -> String {
    let tenths = (price * 1000.0).round() / 10.0;
    if tenths.fract() == 0.0 {
        format!("{tenths:.0}%")
    } else {
        format!("{tenths:.1}%")
    }
}

/// Whole dollars with thousands separators: `$1,015,034`.
fn dollars(amount: f64) -> String {
    let whole = amount.max(0.0).round() as u64;
    let digits = whole.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("${grouped}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_money_and_percentages() {
        assert_eq!(dollars(1_015_033.948_621), "$1,015,034");
        assert_eq!(dollars(999.4), "$999");
        assert_eq!(dollars(0.0), "$0");
        assert_eq!(dollars(1000.0), "$1,000");
        assert_eq!(percent(0.0015), "0.2%");
        assert_eq!(percent(0.72), "72%");
        assert_eq!(percent(0.725), "72.5%");
    }

    fn stored(status: MarketStatus, end_day: Option<i64>, liquidity: f64) -> StoredMarket {
        use marketlens_domain::market::{Rules, UrlKeys};
        use marketlens_domain::{Category, Exchange, Market, Outcome};
        let day = |day: i64| marketlens_domain::time::from_epoch_millis(1_767_225_600_000 + day * 86_400_000);
        let market = Market {
            exchange: Exchange::Kalshi,
            external_id: "KX-1".into(),
            event_external_id: None,
            question: "Will it snow?".into(),
            description: String::new(),
            status,
            category: Category::ClimateAndWeather,
            liquidity,
            volume: 12_345.6,
            volume_24h: 99.0,
            start_date: None,
            end_date: end_day.map(day),
            created_at: None,
            source_updated_at: None,
            outcomes: vec![
                Outcome {
                    name: "Yes".into(),
                    price: 0.27,
                    best_bid_price: None,
                    best_ask_price: None,
                },
                Outcome {
                    name: "No".into(),
                    price: 0.73,
                    best_bid_price: None,
                    best_ask_price: None,
                },
            ],
            url_keys: UrlKeys::default(),
            url: String::new(),
            image_url: String::new(),
            rules: Rules::default(),
            resolution: None,
        };
        StoredMarket {
            id: market.id(),
            market,
            created_at: day(0),
            updated_at: day(0),
            observed_at: day(0),
        }
    }

    #[test]
    fn summaries_state_leader_volumes_end_date_and_news() {
        let now = marketlens_domain::time::from_epoch_millis(1_767_225_600_000 + 10 * 86_400_000);
        let open_future = summary(&stored(MarketStatus::Open, Some(40), 500.0), now, 0);
        assert_eq!(
            open_future,
            "On Kalshi, \"Will it snow?\" is led by No at 73%. Volume is $12,346 in total and $99 in the last \
             24 hours, with $500 of liquidity. It ends on February 10, 2026. No news articles about this market \
             from its time were found."
        );
        let open_past = summary(&stored(MarketStatus::Open, Some(5), 0.0), now, 0);
        assert!(
            open_past
                .contains("24 hours. Its end date, January 6, 2026, has passed, but Kalshi still lists it as open."),
            "{open_past}"
        );
        let resolved = summary(&stored(MarketStatus::Resolved, Some(5), 0.0), now, 0);
        assert!(
            resolved.contains("It is resolved; its end date was January 6, 2026."),
            "{resolved}"
        );
        assert!(summary(&stored(MarketStatus::Open, None, 0.0), now, 0).contains("It has no set end date."));
        assert!(summary(&stored(MarketStatus::Closed, None, 0.0), now, 0).contains("It is closed."));
        assert!(
            summary(&stored(MarketStatus::Open, None, 0.0), now, 1)
                .ends_with("1 news article about it from the market's time was found.")
        );
        assert!(
            summary(&stored(MarketStatus::Open, None, 0.0), now, 12)
                .ends_with("12 news articles about it from the market's time were found.")
        );
    }

    #[test]
    fn query_words_are_stemmed_and_numbers_kept_apart() {
        let terms = QueryTerms::of("Trump's deportations in 2025: bitcoin 150k, the Fed's approval");
        assert_eq!(terms.words, ["approv", "bitcoin", "deport", "fed", "trump"]);
        assert_eq!(terms.numbers, ["150k", "2025"]);
        assert_eq!(stem("cuts"), "cut");
        assert_eq!(stem("final"), "final");
        assert_eq!(stem("raise"), "rais");
        assert_eq!(stem("insolvency"), "insolv");
    }

    #[test]
    fn at_most_twelve_words_are_weighed_the_longest() {
        let query = "aa bb cc dd ee ff gg hh ii jj kk llll mmmm nnnn oooooooo ppppp qqqqqq rrrrrrr";
        let terms = QueryTerms::of(query);
        assert_eq!(terms.words.len(), MAX_WEIGHED_WORDS);
        for long in ["llll", "mmmm", "nnnn", "oooooooo", "ppppp", "qqqqqq", "rrrrrrr"] {
            assert!(terms.words.contains(&long.to_owned()), "{long} kept: {:?}", terms.words);
        }
        assert!(terms.words.windows(2).all(|pair| pair[0] < pair[1]), "kept in order");
    }

    #[test]
    fn coverage_reads_query_words_as_prefixes() {
        let query: Vec<String> = ["bitcoin", "100k", "dec"].map(String::from).to_vec();
        assert_eq!(
            covered(&query, "Will Bitcoin reach $100k by December 31?"),
            [true, true, true]
        );
        assert_eq!(covered(&query, "Will Ethereum reach $10k?"), [false, false, false]);
    }
}
