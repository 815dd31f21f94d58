//! Explain: find the one market a query names, and say what its data shows.
//!
//! A query is a market URL of either exchange (parsed, never fetched) or free words. Free
//! words pick the best market by relevance first, then open before closed, then volume
//! (`docs/contract/decisions.md#d8-ranking`). Relevance is the matcher's reading of the query
//! (`marketlens_domain::matching::query`): the entities, thresholds and dates it names,
//! so that "bitcoin above 100k december" finds the $100,000 December market and not the
//! $150,000 one beside it; ties go to how many of the query's words begin a word of the
//! question. A market must match at least half of those words, so that one shared word
//! ("trump") does not pass for an answer.
//!
//! Key factors come from the news the service has gathered ([`crate::LiveNews`]);
//! the summary says how many recent articles about the market were found.

use crate::CatalogReader;
use chrono::NaiveDate;
use marketlens_domain::MarketStatus;
use marketlens_domain::market_url::{self, MarketUrl};
use marketlens_domain::matching::query::QueryFeatures;
use marketlens_domain::text::{is_stopword, words};
use marketlens_storage::{MarketSummary, SearchWords, Store, StoreError, StoredMarket};
use std::cmp::Ordering;
use std::sync::Arc;

/// How many candidates the index proposes for free words before they are ranked.
const CANDIDATES: u32 = 50;
/// How many of the best-covered candidates the matcher's reading of the query then ranks.
const SCORED: usize = 20;

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

/// The market `query` names, if any. `today` resolves dates the query writes without a
/// year ("december"). A URL is looked up in the store by its keys; free words are searched in
/// the catalogue, and only the chosen market is read in full from the store.
pub async fn find_market(
    store: &dyn Store,
    catalog: &dyn CatalogReader,
    query: &str,
    today: NaiveDate,
) -> Result<Option<Arc<StoredMarket>>, StoreError> {
    if let Some(url) = market_url::parse(query) {
        return Ok(market_by_url(store, &url).await?.map(Arc::new));
    }
    let informative: Vec<String> = {
        let all: Vec<String> = words(query).collect();
        let kept: Vec<String> = all.iter().filter(|word| !is_stopword(word)).cloned().collect();
        let mut kept = if kept.is_empty() { all } else { kept };
        kept.sort();
        kept.dedup();
        kept
    };
    let Some(search) = SearchWords::parse(&informative.join(" ")) else {
        return Ok(None);
    };
    let required = informative.len().div_ceil(2);
    let mut candidates: Vec<(usize, MarketSummary)> = catalog
        .search_any_words(&search, CANDIDATES)
        .await?
        .into_iter()
        .map(|summary| (coverage(&informative, &summary.question), summary))
        .filter(|(covered, _)| *covered >= required)
        .collect();
    // The matcher's reading costs more than word coverage: only the best-covered are read.
    candidates.sort_by_key(|(covered, _)| std::cmp::Reverse(*covered));
    candidates.truncate(SCORED);
    let features = QueryFeatures::parse(query, today);
    let best = candidates
        .into_iter()
        .map(|(covered, summary)| {
            let score = features.score_market(&summary.question, &summary.outcomes, summary.end_date);
            ((score, covered), summary)
        })
        .min_by(
            |((left_score, left_covered), left), ((right_score, right_covered), right)| {
                right_score
                    .total_cmp(left_score)
                    .then(right_covered.cmp(left_covered))
                    .then_with(|| {
                        status_then_volume(
                            (left.status, left.volume, &left.external_id),
                            (right.status, right.volume, &right.external_id),
                        )
                    })
            },
        );
    match best {
        Some((_, summary)) => catalog.get_market(summary.id).await,
        None => Ok(None),
    }
}

/// How many of the query's words begin some word of the question.
fn coverage(query_words: &[String], question: &str) -> usize {
    let question_words: Vec<String> = words(question).collect();
    query_words
        .iter()
        .filter(|query_word| question_words.iter().any(|word| word.starts_with(query_word.as_str())))
        .count()
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
/// many recent news articles about it were found.
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
        0 => "No recent news articles about this market were found.".to_owned(),
        1 => "1 recent news article about it was found.".to_owned(),
        found => format!("{found} recent news articles about it were found."),
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
             24 hours, with $500 of liquidity. It ends on February 10, 2026. No recent news articles about this \
             market were found."
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
                .ends_with("1 recent news article about it was found.")
        );
        assert!(
            summary(&stored(MarketStatus::Open, None, 0.0), now, 12)
                .ends_with("12 recent news articles about it were found.")
        );
    }

    #[test]
    fn coverage_counts_prefix_matches() {
        let query: Vec<String> = ["bitcoin", "100k", "dec"].map(String::from).to_vec();
        assert_eq!(coverage(&query, "Will Bitcoin reach $100k by December 31?"), 3);
        assert_eq!(coverage(&query, "Will Ethereum reach $10k?"), 0);
    }
}
