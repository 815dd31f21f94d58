//! RSS 2.0 and Atom feeds (and RSS 0.9x, 1.0 and JSON Feed, which feed-rs reads too) to
//! [`Article`]s.
//!
//! feed-rs does the parsing. Around it, this module makes sure a bad fetch says what went
//! wrong and loses as little as possible: bytes are re-encoded when they are not UTF-8 and
//! say nothing else (see [`crate::feed_bytes`]), an `<rss>` root without a version is read
//! as RSS 2.0, a cut-off download keeps its complete items, and an HTML page served in place
//! of a feed is named as such. Dates feed-rs would not read go through
//! [`crate::feed_date`], and an article whose date no format reads is kept undated.
//!
//! An entry becomes an article only with a headline and a web link: explain cites each
//! article by title and URL, and the URL is the key of deduplication. Entries without either
//! are skipped and counted in [`Skipped`], never silently dropped.

use std::fmt;

use feed_rs::model::{Entry, Feed, Link};
use marketlens_domain::time::Timestamp;
use url::Url;

use crate::canonical_url::canonical_url;
use crate::feed_bytes::{self, Shape};
use crate::feed_date::parse_feed_date;
use crate::plain_text::{article_text, collapse_whitespace, html_to_plain_text, truncate_at_boundary};
use marketlens_domain::article::{Article, MAX_SUMMARY_CHARS};

/// The longest headline kept, in characters.
const MAX_TITLE_CHARS: usize = 300;
/// A summary shorter than this is completed with the entry's content, when it has one: NPR
/// and Ars Technica give a one-line summary and the whole article as content.
const SHORT_SUMMARY_CHARS: usize = 300;

/// The articles of one feed document.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedFeed {
    /// The feed's title, or the feed URL's host when it has none.
    pub publisher: String,
    pub articles: Vec<Article>,
    pub skipped: Skipped,
    /// True when the bytes were neither UTF-8 nor declared another encoding, and were read
    /// as Windows-1252 (ISO-8859-1's superset).
    pub reencoded_from_windows_1252: bool,
}

/// Entries that did not become articles, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skipped {
    /// No headline: nothing to cite the article by.
    pub no_title: usize,
    /// No absolute `http(s)` link, even after resolving a relative one against the site.
    pub no_link: usize,
}

/// Why a document gave no articles, or not all of them.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FeedError {
    #[error("the feed is empty: no bytes but white space")]
    Empty,
    #[error("the feed is an HTML page, not a feed (an error or block page?){}", title_note(.title))]
    HtmlPage { title: Option<String> },
    #[error("the feed is not XML (nor JSON Feed): it does not start with markup")]
    NotXml,
    #[error("the document is XML but not a feed: no RSS, Atom or RDF root element")]
    NotAFeed,
    #[error("the feed is cut off (a truncated download): {} complete articles recovered", .recovered.articles.len())]
    Truncated {
        /// The feed up to its last complete item: store these.
        recovered: Box<ParsedFeed>,
    },
    #[error("the feed is malformed XML: {message}")]
    Malformed { message: String },
}

fn title_note(title: &Option<String>) -> String {
    title.as_ref().map(|title| format!(": {title:?}")).unwrap_or_default()
}

/// The articles of the feed document `bytes`, fetched from `feed_url` at `fetched_at`.
///
/// `feed_url` resolves relative links when the feed names no site of its own, and names the
/// publisher of a feed without a title; a saved file's original URL is best, but any string
/// works. Errors are documented on [`FeedError`]; a truncated feed's error carries the
/// articles that were complete.
pub fn parse_feed(bytes: &[u8], feed_url: &str, fetched_at: Timestamp) -> Result<ParsedFeed, FeedError> {
    match feed_bytes::shape(bytes) {
        Shape::Empty => return Err(FeedError::Empty),
        Shape::HtmlPage { title } => return Err(FeedError::HtmlPage { title }),
        Shape::NotMarkup => return Err(FeedError::NotXml),
        Shape::Other => {}
    }
    let decoded = feed_bytes::decode(bytes);
    let versioned = feed_bytes::with_rss_version(&decoded.bytes);
    let reencoded = decoded.reencoded_from_windows_1252;
    match read(&versioned) {
        Ok(feed) => Ok(articles_of(feed, feed_url, fetched_at, reencoded)),
        Err(feed_rs::parser::ParseFeedError::ParseError(_)) => Err(FeedError::NotAFeed),
        Err(error) => {
            let text = String::from_utf8_lossy(&versioned);
            if !feed_bytes::lacks_root_end(&text) {
                return Err(FeedError::Malformed {
                    message: error.to_string(),
                });
            }
            let recovered = feed_bytes::closed_after_last_item(&text)
                .and_then(|closed| read(closed.as_bytes()).ok())
                .map(|feed| articles_of(feed, feed_url, fetched_at, reencoded))
                .unwrap_or_else(|| ParsedFeed {
                    publisher: host_of(feed_url),
                    articles: Vec::new(),
                    skipped: Skipped::default(),
                    reencoded_from_windows_1252: reencoded,
                });
            Err(FeedError::Truncated {
                recovered: Box::new(recovered),
            })
        }
    }
}

fn read(bytes: &[u8]) -> Result<Feed, feed_rs::parser::ParseFeedError> {
    feed_rs::parser::Builder::new()
        .timestamp_parser(parse_feed_date)
        .build()
        .parse(bytes)
}

fn articles_of(feed: Feed, feed_url: &str, fetched_at: Timestamp, reencoded: bool) -> ParsedFeed {
    let publisher = feed
        .title
        .as_ref()
        .map(|title| collapse_whitespace(&html_to_plain_text(&title.content)))
        .filter(|title| !title.is_empty())
        .unwrap_or_else(|| host_of(feed_url));
    // The feed's own URL stands in for its site only without what may be the operator's
    // credentials: relative article links are resolved against it, and articles are served.
    let site = site_of(&feed.links).or_else(|| absolute_web_url(feed_url).map(without_credentials));
    let mut articles = Vec::with_capacity(feed.entries.len());
    let mut skipped = Skipped::default();
    for entry in &feed.entries {
        let title = entry
            .title
            .as_ref()
            .map(|title| {
                truncate_at_boundary(
                    &collapse_whitespace(&html_to_plain_text(&title.content)),
                    MAX_TITLE_CHARS,
                )
            })
            .unwrap_or_default();
        if title.is_empty() {
            skipped.no_title += 1;
            continue;
        }
        let Some(url) = link_of(entry, site.as_ref()) else {
            skipped.no_link += 1;
            continue;
        };
        articles.push(Article {
            url,
            title,
            summary: summary_of(entry),
            publisher: publisher.clone(),
            published_at: entry.published.or(entry.updated),
            fetched_at,
        });
    }
    ParsedFeed {
        publisher,
        articles,
        skipped,
        reencoded_from_windows_1252: reencoded,
    }
}

/// The entry's page, canonical: its alternate link (or first link), resolved against the site
/// when relative, else its id when that is an absolute web link (RSS `guid`s often are).
fn link_of(entry: &Entry, site: Option<&Url>) -> Option<String> {
    let preferred = entry
        .links
        .iter()
        .find(|link| link.rel.as_deref().is_none_or(|rel| rel == "alternate"))
        .or_else(|| entry.links.first())
        .map(|link| link.href.as_str());
    let resolved = preferred.and_then(|href| {
        let href = href.trim();
        canonical_url(href).or_else(|| canonical_url(site?.join(href).ok()?.as_str()))
    });
    // An id is a link only when it is already absolute: a relative one is an opaque key.
    resolved.or_else(|| canonical_url(&entry.id))
}

/// The plain text of the entry's summary, completed with its content when the summary is
/// short, without repeating a paragraph, bounded.
fn summary_of(entry: &Entry) -> String {
    let summary = entry
        .summary
        .as_ref()
        .map(|summary| article_text(&summary.content))
        .unwrap_or_default();
    let mut text = summary.clone();
    if summary.chars().count() < SHORT_SUMMARY_CHARS {
        let content = entry
            .content
            .as_ref()
            .and_then(|content| content.body.as_deref())
            .map(article_text)
            .unwrap_or_default();
        for paragraph in content.lines() {
            if text.chars().count() > MAX_SUMMARY_CHARS {
                break;
            }
            if !summary.contains(paragraph) {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(paragraph);
            }
        }
    }
    truncate_paragraphs(&text, MAX_SUMMARY_CHARS)
}

/// At most `max_chars` of `text`, keeping whole paragraphs and cutting the first one that
/// does not fit at a sentence or word boundary (when enough room is left to be worth it).
fn truncate_paragraphs(text: &str, max_chars: usize) -> String {
    let mut kept = String::new();
    for paragraph in text.lines() {
        let used = kept.chars().count() + usize::from(!kept.is_empty());
        let room = max_chars.saturating_sub(used);
        if paragraph.chars().count() <= room {
            if !kept.is_empty() {
                kept.push('\n');
            }
            kept.push_str(paragraph);
            continue;
        }
        if room >= 80 {
            if !kept.is_empty() {
                kept.push('\n');
            }
            kept.push_str(&truncate_at_boundary(paragraph, room));
        }
        break;
    }
    kept
}

/// The site a feed belongs to: its alternate (or untyped) link, when absolute.
fn site_of(links: &[Link]) -> Option<Url> {
    links
        .iter()
        .filter(|link| link.rel.as_deref().is_none_or(|rel| rel == "alternate"))
        .find_map(|link| absolute_web_url(&link.href))
}

fn absolute_web_url(text: &str) -> Option<Url> {
    Url::parse(text.trim())
        .ok()
        .filter(|url| matches!(url.scheme(), "http" | "https"))
}

/// `url` without userinfo, query string and fragment.
fn without_credentials(mut url: Url) -> Url {
    let _ = url.set_username("");
    let _ = url.set_password(None);
    url.set_query(None);
    url.set_fragment(None);
    url
}

fn host_of(feed_url: &str) -> String {
    absolute_web_url(feed_url)
        .and_then(|url| url.host_str().map(|host| host.trim_start_matches("www.").to_owned()))
        .unwrap_or_else(|| feed_url.to_owned())
}

impl fmt::Display for Skipped {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "{} without a title, {} without a link",
            self.no_title, self.no_link
        )
    }
}
