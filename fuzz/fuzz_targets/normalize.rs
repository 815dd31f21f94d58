//! Exchange payload normalization: any bytes, as either exchange's sync page. Beyond not
//! panicking: the shape detected is the one normalized, everything returned belongs to the
//! exchange asked for, and the same bytes always give the same result (upserts rely on it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use marketlens_domain::Exchange;
use marketlens_exchanges::{detect, normalize_page};

fuzz_target!(|bytes: &[u8]| {
    let detected = detect(bytes);
    for exchange in Exchange::ALL {
        let Ok(page) = normalize_page(exchange, bytes) else {
            continue;
        };
        assert_eq!(
            detected.as_ref().ok(),
            Some(&page.kind),
            "detect disagrees with normalize"
        );
        assert_eq!(page.kind.exchange(), exchange);
        assert!(page.normalized.markets.iter().all(|market| market.exchange == exchange));
        assert!(page.normalized.events.iter().all(|event| event.exchange == exchange));
        // Debug rather than PartialEq, so that a NaN compares as itself.
        let again = normalize_page(exchange, bytes).expect("normalized once, so again");
        assert_eq!(format!("{page:?}"), format!("{again:?}"), "not deterministic");
    }
});
