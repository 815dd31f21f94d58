//! Exchange payload normalization: any bytes, as either exchange's payload, whole or as a sync
//! page. It never panics, and every market it returns is valid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use marketlens_domain::Exchange;
use marketlens_exchanges::{detect, normalize, normalize_page};

fuzz_target!(|bytes: &[u8]| {
    let _ = detect(bytes);
    for exchange in Exchange::ALL {
        if let Ok((_, normalized)) = normalize(exchange, bytes) {
            for market in &normalized.markets {
                assert!(market.validate().is_ok(), "an invalid market came out: {market:?}");
            }
        }
        let _ = normalize_page(exchange, bytes);
    }
});
