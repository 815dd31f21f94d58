//! The recorded exchange payloads built into the binary, so that `marketlens demo` serves
//! real data on a machine with nothing else. They are the files of `demo-data/` at the
//! repository's root, unmodified copies of real API responses (see the SOURCES.md beside
//! them for where each came from).

use marketlens_domain::Exchange;

pub struct DemoFile {
    pub exchange: Exchange,
    pub name: &'static str,
    pub bytes: &'static [u8],
}

macro_rules! demo_file {
    ($exchange:expr, $folder:literal, $name:literal) => {
        DemoFile {
            exchange: $exchange,
            name: concat!($folder, "/", $name),
            bytes: include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../demo-data/",
                $folder,
                "/",
                $name
            )),
        }
    };
}

/// Every exchange payload of the demo, oldest recording first.
pub fn files() -> Vec<DemoFile> {
    vec![
        demo_file!(Exchange::Polymarket, "polymarket", "gamma-markets-2.json"),
        demo_file!(Exchange::Polymarket, "polymarket", "gamma-events-2.json"),
        demo_file!(Exchange::Polymarket, "polymarket", "gamma-events-1.json"),
        demo_file!(Exchange::Polymarket, "polymarket", "gamma-markets-1.json"),
        demo_file!(Exchange::Kalshi, "kalshi", "events-1.json"),
        demo_file!(Exchange::Kalshi, "kalshi", "event-single-1.json"),
        demo_file!(Exchange::Kalshi, "kalshi", "markets-2.json"),
        demo_file!(Exchange::Kalshi, "kalshi", "events-2.json"),
        demo_file!(Exchange::Kalshi, "kalshi", "markets-1.json"),
        demo_file!(Exchange::Kalshi, "kalshi", "events-nested-1.json"),
    ]
}
