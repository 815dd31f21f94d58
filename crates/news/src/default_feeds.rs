//! The feeds polled when the operator configures none (`MARKETLENS_NEWS_FEEDS` replaces the
//! whole list).
//!
//! The markets are US and world politics, economics and central banks, crypto and sports,
//! so the list covers those, from publishers that keep public RSS or Atom feeds without a
//! key. Each URL is the publisher's own feed address: the ones the recorded captures in
//! `demo-data/news/SOURCES.md` were taken from (BBC, NPR, CNBC, CoinDesk, ESPN, The
//! Guardian, The New York Times, Ars Technica), and the same publishers' section feeds.
//! Nothing here is fetched by this crate; `serve` and `sync --news` do that.

/// A feed to poll, with the topic it is there for (for logs and the operator's eye).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefaultFeed {
    pub url: &'static str,
    pub topic: &'static str,
}

pub const DEFAULT_FEEDS: &[DefaultFeed] = &[
    // World and general news.
    DefaultFeed {
        url: "https://feeds.bbci.co.uk/news/world/rss.xml",
        topic: "world",
    },
    DefaultFeed {
        url: "https://feeds.npr.org/1001/rss.xml",
        topic: "world",
    },
    DefaultFeed {
        url: "https://www.theguardian.com/world/rss",
        topic: "world",
    },
    // Politics.
    DefaultFeed {
        url: "https://feeds.npr.org/1014/rss.xml",
        topic: "politics",
    },
    DefaultFeed {
        url: "https://www.theguardian.com/us-news/us-politics/rss",
        topic: "politics",
    },
    DefaultFeed {
        url: "https://rss.nytimes.com/services/xml/rss/nyt/Politics.xml",
        topic: "politics",
    },
    // Economics and markets.
    DefaultFeed {
        url: "https://www.cnbc.com/id/10000664/device/rss/rss.html",
        topic: "economics",
    },
    DefaultFeed {
        url: "https://feeds.bbci.co.uk/news/business/rss.xml",
        topic: "economics",
    },
    DefaultFeed {
        url: "https://feeds.npr.org/1017/rss.xml",
        topic: "economics",
    },
    // Crypto.
    DefaultFeed {
        url: "https://www.coindesk.com/arc/outboundfeeds/rss/",
        topic: "crypto",
    },
    // Sports.
    DefaultFeed {
        url: "https://www.espn.com/espn/rss/news",
        topic: "sports",
    },
    DefaultFeed {
        url: "https://www.theguardian.com/sport/rss",
        topic: "sports",
    },
    // Technology companies (AI, SpaceX, Apple markets).
    DefaultFeed {
        url: "https://feeds.arstechnica.com/arstechnica/index",
        topic: "technology",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_default_feed_is_a_distinct_https_url_and_every_topic_is_covered() {
        let urls: HashSet<&str> = DEFAULT_FEEDS.iter().map(|feed| feed.url).collect();
        assert_eq!(urls.len(), DEFAULT_FEEDS.len());
        for feed in DEFAULT_FEEDS {
            let parsed = url::Url::parse(feed.url).unwrap();
            assert_eq!(parsed.scheme(), "https", "{}", feed.url);
        }
        let topics: HashSet<&str> = DEFAULT_FEEDS.iter().map(|feed| feed.topic).collect();
        for topic in ["world", "politics", "economics", "crypto", "sports"] {
            assert!(topics.contains(topic), "{topic}");
        }
    }
}
