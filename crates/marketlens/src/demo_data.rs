//! The recorded exchange payloads built into the binary, so that `marketlens demo` serves
//! real data on a machine with nothing else. They are the files of `demo-data/` at the
//! repository's root, unmodified copies of real API responses (see the SOURCES.md beside
//! them for where each came from), and the news feeds of `demo-data/news/` that parse (the
//! two captures broken on purpose stay out).

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

/// A recorded news feed of the demo.
pub struct DemoFeed {
    pub name: &'static str,
    pub bytes: &'static [u8],
}

macro_rules! demo_feed {
    ($name:literal) => {
        DemoFeed {
            name: concat!("news/", $name),
            bytes: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../demo-data/news/", $name)),
        }
    };
}

/// Every news feed of the demo.
pub fn feeds() -> Vec<DemoFeed> {
    vec![
        demo_feed!("aljazeera-america-2016-02.xml"),
        demo_feed!("arstechnica-tech-companies-2025-09.xml"),
        demo_feed!("bbc-news-home-2020-08.xml"),
        demo_feed!("cnbc-finance-fed-2019-07.xml"),
        demo_feed!("cnn-international-2020-08.xml"),
        demo_feed!("coindesk-crypto-2023-03.xml"),
        demo_feed!("espn-nfl-2012-09.xml"),
        demo_feed!("foxnews-latest-2020-08.xml"),
        demo_feed!("guardian-sport-2016-06.xml"),
        demo_feed!("guardian-us-politics-2018-01.xml"),
        demo_feed!("npr-news-elections-shutdown-2025-11.xml"),
        demo_feed!("npr-news-fed-crypto-2025-03.xml"),
        demo_feed!("npr-news-superbowl-2025-02.xml"),
        demo_feed!("nytimes-us-news-2020-08.xml"),
        demo_feed!("tpm-politics-2017-11.atom"),
        demo_feed!("uol-noticias-eleicoes-2018-09.xml"),
        demo_feed!("vox-politics-2016-06.atom"),
        demo_feed!("wsj-world-2020-08.xml"),
    ]
}
