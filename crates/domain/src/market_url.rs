//! Public market URLs of both exchanges: parsing a pasted URL into the keys that name a
//! market in our store, and building a market's own URL.
//!
//! Security invariant: a URL is only ever parsed here, never fetched. Hosts other than the
//! two exchanges' are not recognised at all, so explain treats them as free words.
//!
//! Forms recognised (with or without scheme, `www.`, query string, fragment or trailing
//! slash; case of the path does not matter):
//! - Polymarket: `/event/<event-slug>`, `/event/<event-slug>/<market-slug>`,
//!   `/market/<market-slug>`, each optionally behind a two-letter locale (`/es/event/...`).
//! - Kalshi: `/markets/<ticker>`, `/markets/<series>/<slug>`, `/markets/<series>/<slug>/<event>`
//!   where `<ticker>` may be a series, event or market ticker, and `/events/<event>`.

use url::Url;

use crate::exchange::Exchange;

/// One way a URL may name markets, most specific first in [`MarketUrl::keys`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlKey {
    /// A Polymarket market slug or Kalshi market ticker (lower case).
    Market(String),
    /// A Polymarket event slug or Kalshi event ticker (lower case).
    Event(String),
    /// A Polymarket series slug or Kalshi series ticker (lower case).
    Series(String),
}

/// What a recognised exchange URL names. Lookups try [`MarketUrl::keys`] in order and stop
/// at the first key that names a stored market.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketUrl {
    pub exchange: Exchange,
    pub keys: Vec<UrlKey>,
}

/// The longest URL we look at; longer input is not a market URL.
const MAX_URL_LEN: usize = 2048;

/// Parses `text` as a market URL of either exchange. Returns `None` for anything else: free
/// words, URLs of other hosts, exchange URLs that name no market (the home page, `/about`).
pub fn parse(text: &str) -> Option<MarketUrl> {
    let text = text.trim();
    // Control characters are no part of a link, and the URL parser treats them unevenly (one
    // at the end of a path is kept, escaped; before a query string it is dropped).
    if text.len() > MAX_URL_LEN || text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    let with_scheme = if text.contains("://") {
        text.to_owned()
    } else {
        format!("https://{text}")
    };
    let url = Url::parse(&with_scheme).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let host = url.host_str()?.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let segments: Vec<String> = url
        .path_segments()?
        .filter(|segment| !segment.is_empty())
        .map(|segment| segment.to_ascii_lowercase())
        .collect();
    match host {
        "polymarket.com" => parse_polymarket(&segments),
        "kalshi.com" => parse_kalshi(&segments),
        _ => None,
    }
}

fn parse_polymarket(segments: &[String]) -> Option<MarketUrl> {
    let segments = match segments {
        [locale, rest @ ..] if locale.len() == 2 && locale.chars().all(|c| c.is_ascii_lowercase()) => rest,
        _ => segments,
    };
    let keys = match segments {
        [kind, event] if kind == "event" => vec![UrlKey::Event(event.clone())],
        [kind, event, market, ..] if kind == "event" => {
            vec![UrlKey::Market(market.clone()), UrlKey::Event(event.clone())]
        }
        [kind, market, ..] if kind == "market" => vec![UrlKey::Market(market.clone())],
        _ => return None,
    };
    Some(MarketUrl {
        exchange: Exchange::Polymarket,
        keys,
    })
}

fn parse_kalshi(segments: &[String]) -> Option<MarketUrl> {
    let keys = match segments {
        [kind, ticker] if kind == "markets" || kind == "events" => vec![
            UrlKey::Market(ticker.clone()),
            UrlKey::Event(ticker.clone()),
            UrlKey::Series(ticker.clone()),
        ],
        [kind, series, _slug] if kind == "markets" => vec![UrlKey::Series(series.clone())],
        // Kalshi's page of an event: its markets, the one whose ticker is the event's among them
        // (KXCLOSEHORMUZ-27JAN is one of its event's three markets). A market ticker here is
        // still found, by the second key.
        [kind, series, _slug, ticker, ..] if kind == "markets" => vec![
            UrlKey::Event(ticker.clone()),
            UrlKey::Market(ticker.clone()),
            UrlKey::Series(series.clone()),
        ],
        _ => return None,
    };
    Some(MarketUrl {
        exchange: Exchange::Kalshi,
        keys,
    })
}

/// A Polymarket market's page: the event page when the market is the event's only one
/// (its slug is the event's), else the market within its event, else the bare market page.
pub fn polymarket_market_url(market_slug: Option<&str>, event_slug: Option<&str>) -> String {
    match (market_slug, event_slug) {
        (Some(market), Some(event)) if market != event => {
            format!("https://polymarket.com/event/{event}/{market}")
        }
        (_, Some(event)) => format!("https://polymarket.com/event/{event}"),
        (Some(market), None) => format!("https://polymarket.com/market/{market}"),
        (None, None) => "https://polymarket.com".to_owned(),
    }
}

/// A Kalshi market's page. Kalshi's pages are per event, at
/// `/markets/<series>/<slug>/<event>`, where the slug is decorative; without the series the
/// event ticker alone is used, which Kalshi also serves.
pub fn kalshi_market_url(event_ticker: &str, series_ticker: Option<&str>, title: &str) -> String {
    let event = event_ticker.to_ascii_lowercase();
    match series_ticker {
        Some(series) => {
            let slug = slugify(title);
            let slug = if slug.is_empty() { event.clone() } else { slug };
            format!(
                "https://kalshi.com/markets/{}/{slug}/{event}",
                series.to_ascii_lowercase()
            )
        }
        None => format!("https://kalshi.com/markets/{event}"),
    }
}

fn slugify(title: &str) -> String {
    crate::text::words(title).take(12).collect::<Vec<_>>().join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Option<(Exchange, Vec<UrlKey>)> {
        parse(text).map(|parsed| (parsed.exchange, parsed.keys))
    }

    #[test]
    fn polymarket_forms() {
        let event = Some((
            Exchange::Polymarket,
            vec![UrlKey::Event("fed-decision-in-october".into())],
        ));
        assert_eq!(
            keys("https://polymarket.com/event/fed-decision-in-october?tid=1758818660485"),
            event
        );
        assert_eq!(keys("polymarket.com/event/fed-decision-in-october/"), event);
        assert_eq!(
            keys("https://www.polymarket.com/es/event/fed-decision-in-october#x"),
            event
        );
        assert_eq!(
            keys("https://polymarket.com/event/us-strikes-iran-by/us-strikes-iran-by-june-30"),
            Some((
                Exchange::Polymarket,
                vec![
                    UrlKey::Market("us-strikes-iran-by-june-30".into()),
                    UrlKey::Event("us-strikes-iran-by".into())
                ]
            ))
        );
        assert_eq!(
            keys("https://polymarket.com/market/will-ethereum-reach-10k-before-2025"),
            Some((
                Exchange::Polymarket,
                vec![UrlKey::Market("will-ethereum-reach-10k-before-2025".into())]
            ))
        );
    }

    #[test]
    fn kalshi_forms() {
        assert_eq!(
            keys("https://kalshi.com/markets/kxusflycan"),
            Some((
                Exchange::Kalshi,
                vec![
                    UrlKey::Market("kxusflycan".into()),
                    UrlKey::Event("kxusflycan".into()),
                    UrlKey::Series("kxusflycan".into())
                ]
            ))
        );
        assert_eq!(
            keys("https://kalshi.com/markets/kxp3ar/sibling/kxp3ar-other-event"),
            Some((
                Exchange::Kalshi,
                vec![
                    UrlKey::Event("kxp3ar-other-event".into()),
                    UrlKey::Market("kxp3ar-other-event".into()),
                    UrlKey::Series("kxp3ar".into())
                ]
            ))
        );
        assert_eq!(
            keys("kalshi.com/markets/kxhighny/highest-temperature-in-nyc"),
            Some((Exchange::Kalshi, vec![UrlKey::Series("kxhighny".into())]))
        );
        assert_eq!(
            keys("https://kalshi.com/markets/KXELONMARS/will-elon-musk-visit-mars/KXELONMARS-99/"),
            Some((
                Exchange::Kalshi,
                vec![
                    UrlKey::Event("kxelonmars-99".into()),
                    UrlKey::Market("kxelonmars-99".into()),
                    UrlKey::Series("kxelonmars".into())
                ]
            ))
        );
    }

    #[test]
    fn refuses_other_hosts_and_non_market_paths() {
        assert_eq!(parse("https://example.com/event/fed-decision"), None);
        assert_eq!(parse("https://polymarket.com.evil.com/event/x"), None);
        assert_eq!(parse("https://polymarket.com/"), None);
        assert_eq!(parse("https://kalshi.com/about"), None);
        assert_eq!(parse("ftp://polymarket.com/event/x"), None);
        assert_eq!(parse("bitcoin above 100k"), None);
        assert_eq!(parse("assets.kalshi.com/contract_terms/BTC.pdf"), None);
        // Found by fuzz/fuzz_targets/market_url.rs: a control character made the same link
        // name different keys with and without a query string.
        assert_eq!(parse("kalshi.com/markets/KXhket.\u{8}"), None);
        assert_eq!(parse("kalshi.com/markets/KXhket.\u{8}?utm_source=x"), None);
    }

    #[test]
    fn builds_urls_that_parse_back() {
        let polymarket = polymarket_market_url(Some("will-x"), Some("event-x"));
        assert_eq!(parse(&polymarket).unwrap().keys[0], UrlKey::Market("will-x".into()));
        let kalshi = kalshi_market_url("KXELONMARS-99", Some("KXELONMARS"), "Will Elon Musk visit Mars?");
        assert_eq!(
            kalshi,
            "https://kalshi.com/markets/kxelonmars/will-elon-musk-visit-mars/kxelonmars-99"
        );
        assert_eq!(parse(&kalshi).unwrap().keys[0], UrlKey::Event("kxelonmars-99".into()));
    }
}
