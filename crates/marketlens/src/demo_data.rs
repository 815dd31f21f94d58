//! The recorded exchange payloads built into the binary, so that `marketlens demo` serves
//! real data on a machine with nothing else. They are the files of `demo-data/` at the
//! repository's root, unmodified copies of real API responses (see the SOURCES.md beside
//! them for where each came from), and the news feeds of `demo-data/news/` that parse (the
//! two captures broken on purpose stay out).

use chrono::DateTime;
use marketlens_domain::Exchange;
use marketlens_domain::time::Timestamp;

pub struct DemoFile {
    pub exchange: Exchange,
    pub name: &'static str,
    pub bytes: &'static [u8],
    /// When the payload was recorded (ISO 8601): the time its prices enter the price history
    /// at. Taken from the newest update time in the file, or the date its source committed it
    /// where the records carry none (SOURCES.md).
    pub recorded_at: &'static str,
}

impl DemoFile {
    pub fn recorded_at(&self) -> Timestamp {
        DateTime::parse_from_rfc3339(self.recorded_at)
            .map(|time| time.to_utc())
            .unwrap_or_else(|error| panic!("{}: recorded_at {:?}: {error}", self.name, self.recorded_at))
    }
}

macro_rules! demo_file {
    ($exchange:expr, $folder:literal, $name:literal, $recorded_at:literal) => {
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
            recorded_at: $recorded_at,
        }
    };
}

/// Every exchange payload of the demo, oldest recording first. Nine Polymarket markets (the
/// "Trump deport" brackets) are recorded in both gamma-events-1 (June 2025) and
/// gamma-markets-1 (January 2026), and KXELONMARS-99 in event-single-1 and events-nested-1:
/// their price history starts with two real points.
pub fn files() -> Vec<DemoFile> {
    vec![
        demo_file!(
            Exchange::Polymarket,
            "polymarket",
            "gamma-events-1.json",
            "2025-06-24T23:59:00Z"
        ),
        demo_file!(Exchange::Kalshi, "kalshi", "events-1.json", "2026-01-12T22:08:00Z"),
        demo_file!(
            Exchange::Kalshi,
            "kalshi",
            "event-single-1.json",
            "2026-01-12T22:08:00Z"
        ),
        demo_file!(Exchange::Kalshi, "kalshi", "markets-2.json", "2026-01-12T22:08:00Z"),
        demo_file!(
            Exchange::Polymarket,
            "polymarket",
            "gamma-markets-1.json",
            "2026-01-31T18:07:00Z"
        ),
        demo_file!(
            Exchange::Polymarket,
            "polymarket",
            "gamma-events-2.json",
            "2026-02-07T01:56:00Z"
        ),
        demo_file!(
            Exchange::Polymarket,
            "polymarket",
            "gamma-markets-2.json",
            "2026-02-08T20:49:00Z"
        ),
        demo_file!(Exchange::Kalshi, "kalshi", "markets-1.json", "2026-03-16T15:08:00Z"),
        demo_file!(Exchange::Kalshi, "kalshi", "events-2.json", "2026-04-04T00:00:00Z"),
        demo_file!(
            Exchange::Kalshi,
            "kalshi",
            "events-nested-1.json",
            "2026-04-09T10:48:00Z"
        ),
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
