//! Market URL parsing: any text. It never panics, and what it accepts names a market by at
//! least one key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use marketlens_domain::market_url::parse;

fuzz_target!(|text: &str| {
    if let Some(url) = parse(text) {
        assert!(!url.keys.is_empty(), "{text:?} parsed to a URL with no key");
    }
});
