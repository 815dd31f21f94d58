//! Property tests of market URL parsing: any text is safe to parse, and every public URL form
//! of both exchanges, however decorated, gives the keys of the market or event it names.

use marketlens_domain::Exchange;
use marketlens_domain::market_url::{UrlKey, kalshi_market_url, parse, polymarket_market_url};
use proptest::prelude::*;

/// A slug as the exchanges write them.
fn slug() -> impl Strategy<Value = String> {
    "[a-z0-9]{1,12}(-[a-z0-9]{1,12}){0,5}"
}

/// A Kalshi ticker (upper case on the wire, any case in a pasted URL).
fn ticker() -> impl Strategy<Value = String> {
    "KX[A-Z0-9]{1,10}(-[A-Z0-9]{1,8}){0,2}"
}

/// What a pasted URL may carry around the path: scheme or none, `www.`, a trailing slash, a
/// query string, a fragment.
#[derive(Debug, Clone)]
struct Decoration {
    scheme: &'static str,
    www: bool,
    trailing_slash: bool,
    query: Option<String>,
    fragment: Option<String>,
}

fn decoration() -> impl Strategy<Value = Decoration> {
    (
        prop_oneof![Just("https://"), Just("http://"), Just("")],
        any::<bool>(),
        any::<bool>(),
        proptest::option::of("[a-z]{1,6}=[a-zA-Z0-9]{0,12}(&[a-z]{1,6}=[0-9]{1,6}){0,2}"),
        proptest::option::of("[a-z0-9]{1,8}"),
    )
        .prop_map(|(scheme, www, trailing_slash, query, fragment)| Decoration {
            scheme,
            www,
            trailing_slash,
            query,
            fragment,
        })
}

fn decorate(host: &str, path: &str, decoration: &Decoration) -> String {
    let mut url = format!(
        "{}{}{host}{path}",
        decoration.scheme,
        if decoration.www { "www." } else { "" }
    );
    if decoration.trailing_slash {
        url.push('/');
    }
    if let Some(query) = &decoration.query {
        url.push('?');
        url.push_str(query);
    }
    if let Some(fragment) = &decoration.fragment {
        url.push('#');
        url.push_str(fragment);
    }
    url
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn any_text_parses_without_panicking(text in any::<String>()) {
        let _ = parse(&text);
    }

    #[test]
    fn url_like_text_parses_without_panicking(
        scheme in prop_oneof![Just(""), Just("https://"), Just("http://"), Just("ftp://"), Just("javascript:")],
        host in prop_oneof![
            Just("polymarket.com".to_owned()),
            Just("kalshi.com".to_owned()),
            Just("www.kalshi.com".to_owned()),
            "[a-z.]{0,20}",
        ],
        path in "(/[^/?#\\s]{0,15}){0,6}",
        tail in "[?#]?[ -~]{0,20}",
    ) {
        let _ = parse(&format!("{scheme}{host}{path}{tail}"));
    }

    #[test]
    fn polymarket_event_and_market_pages(
        event in slug(),
        market in slug(),
        locale in proptest::option::of("[a-z]{2}"),
        decoration in decoration(),
    ) {
        let prefix = locale.map(|locale| format!("/{locale}")).unwrap_or_default();
        let event_page = parse(&decorate("polymarket.com", &format!("{prefix}/event/{event}"), &decoration)).unwrap();
        prop_assert_eq!(event_page.exchange, Exchange::Polymarket);
        prop_assert_eq!(event_page.keys, vec![UrlKey::Event(event.clone())]);

        let market_in_event = decorate("polymarket.com", &format!("{prefix}/event/{event}/{market}"), &decoration);
        prop_assert_eq!(
            parse(&market_in_event).unwrap().keys,
            vec![UrlKey::Market(market.clone()), UrlKey::Event(event.clone())]
        );
        let market_page = decorate("polymarket.com", &format!("{prefix}/market/{market}"), &decoration);
        prop_assert_eq!(parse(&market_page).unwrap().keys, vec![UrlKey::Market(market)]);
    }

    #[test]
    fn kalshi_market_series_and_event_pages(
        series in ticker(),
        event in ticker(),
        title_slug in slug(),
        decoration in decoration(),
    ) {
        let lower = |text: &str| text.to_ascii_lowercase();
        let by_ticker = parse(&decorate("kalshi.com", &format!("/markets/{event}"), &decoration)).unwrap();
        prop_assert_eq!(by_ticker.exchange, Exchange::Kalshi);
        prop_assert_eq!(
            by_ticker.keys,
            vec![UrlKey::Market(lower(&event)), UrlKey::Event(lower(&event)), UrlKey::Series(lower(&event))]
        );
        let events_page = parse(&decorate("kalshi.com", &format!("/events/{event}"), &decoration)).unwrap();
        prop_assert_eq!(events_page.keys[1].clone(), UrlKey::Event(lower(&event)));
        let series_page = parse(&decorate("kalshi.com", &format!("/markets/{series}/{title_slug}"), &decoration)).unwrap();
        prop_assert_eq!(series_page.keys, vec![UrlKey::Series(lower(&series))]);
        let event_page = parse(&decorate("kalshi.com", &format!("/markets/{series}/{title_slug}/{event}"), &decoration)).unwrap();
        prop_assert_eq!(
            event_page.keys,
            vec![UrlKey::Event(lower(&event)), UrlKey::Market(lower(&event)), UrlKey::Series(lower(&series))]
        );
    }

    #[test]
    fn built_urls_parse_back_to_what_they_name(
        event in slug(),
        market in slug(),
        series in ticker(),
        event_ticker in ticker(),
        title in "[A-Za-z0-9 ?$%,.'-]{0,60}",
    ) {
        let polymarket = parse(&polymarket_market_url(Some(&market), Some(&event))).unwrap();
        let expected = if market == event { UrlKey::Event(event.clone()) } else { UrlKey::Market(market.clone()) };
        prop_assert_eq!(polymarket.keys[0].clone(), expected);
        let kalshi = parse(&kalshi_market_url(&event_ticker, Some(&series), &title)).unwrap();
        prop_assert_eq!(kalshi.keys[0].clone(), UrlKey::Event(event_ticker.to_ascii_lowercase()));
        let kalshi_bare = parse(&kalshi_market_url(&event_ticker, None, &title)).unwrap();
        prop_assert!(kalshi_bare.keys.contains(&UrlKey::Event(event_ticker.to_ascii_lowercase())));
        // A Polymarket market without an event has its own page, an event's slug alone names
        // the event's; with neither there is no page (get market's `url` is then null).
        let market_page = parse(&polymarket_market_url(Some(&market), None)).unwrap();
        prop_assert_eq!(market_page.keys, vec![UrlKey::Market(market.clone())]);
        let event_page = parse(&polymarket_market_url(None, Some(&event))).unwrap();
        prop_assert_eq!(event_page.keys, vec![UrlKey::Event(event.clone())]);
        prop_assert_eq!(parse(&polymarket_market_url(None, None)), None);
    }

    #[test]
    fn other_hosts_are_never_exchange_urls(
        host in "[a-z]{1,10}\\.(com|org|net|io)",
        path in "(/[a-z0-9-]{1,10}){0,4}",
    ) {
        prop_assume!(host != "kalshi.com" && host != "polymarket.com");
        prop_assert_eq!(parse(&format!("https://{host}{path}")), None);
        prop_assert_eq!(parse(&format!("https://polymarket.com.{host}{path}")), None);
        prop_assert_eq!(parse(&format!("https://kalshi.com.{host}{path}")), None);
    }
}
