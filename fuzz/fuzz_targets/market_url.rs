//! Market URL parsing: any text. Beyond not panicking: an accepted URL means the same with a
//! query string added (shared links carry tracking parameters), and the URLs we build for a
//! market from its slugs or tickers parse back to keys that name it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use marketlens_domain::market_url::{UrlKey, kalshi_market_url, parse, polymarket_market_url};

/// What a slug or lower-cased ticker looks like.
fn is_slug(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 64
        && text
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
}

fuzz_target!(|input: (&str, &str, &str)| {
    let (text, first, second) = input;
    if let Some(url) = parse(text) {
        if !text.contains(['?', '#']) {
            let tracked = format!("{}?utm_source=fuzz&x=1", text.trim());
            assert_eq!(parse(&tracked).as_ref(), Some(&url), "{text:?} and {tracked:?}");
        }
    }
    if is_slug(first) && is_slug(second) {
        let event = UrlKey::Event(second.to_owned());
        let polymarket = polymarket_market_url(Some(first), Some(second));
        let parsed = parse(&polymarket).unwrap_or_else(|| panic!("{polymarket:?} not parsed"));
        assert!(parsed.keys.contains(&event), "{polymarket:?}: {parsed:?}");
        if first != second {
            assert_eq!(parsed.keys[0], UrlKey::Market(first.to_owned()), "{polymarket:?}");
        }
        for kalshi in [
            kalshi_market_url(second, Some(first), text),
            kalshi_market_url(second, None, text),
        ] {
            let parsed = parse(&kalshi).unwrap_or_else(|| panic!("{kalshi:?} not parsed"));
            assert!(parsed.keys.contains(&event), "{kalshi:?}: {parsed:?}");
        }
    }
});
