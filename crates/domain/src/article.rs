//! A news article as the rest of the system sees it: already plain text, already canonical.
//!
//! Everything the feed parser (`marketlens-news`) could not vouch for is settled before an
//! article is made, so that the store, the index and key factors never meet HTML, tracking
//! parameters or a missing date. It lives here, beside the markets, because the store keeps it
//! and explain reads it: neither needs the feed parser to know what an article is.

use crate::text::words;
use crate::time::Timestamp;

/// The longest summary kept, in characters. Feeds such as Vox and TPM put whole articles in
/// their entries; explain needs a few sentences, and 100,000 articles must fit in memory.
pub const MAX_SUMMARY_CHARS: usize = 1_500;

/// One news article from a feed, cleaned.
#[derive(Debug, Clone, PartialEq)]
pub struct Article {
    /// The canonical link (see `marketlens_news::canonical_url`): the key of URL deduplication.
    pub url: String,
    /// The headline, plain text.
    pub title: String,
    /// Plain text from the entry's summary, or from its content when it has no summary: HTML
    /// stripped, entities decoded, whitespace collapsed, at most [`MAX_SUMMARY_CHARS`]
    /// characters, cut at a sentence or word boundary. May be empty.
    pub summary: String,
    /// The feed's own title ("BBC News - Home"), or the feed URL's host when it has none.
    pub publisher: String,
    /// When the feed says the article was published (or last updated, when it gives only
    /// that). `None` when the feed gives no date or one that no known format reads.
    pub published_at: Option<Timestamp>,
    /// When the feed was fetched: the date of an article whose feed gives none.
    pub fetched_at: Timestamp,
}

impl Article {
    /// The moment the article is dated at for recency: its publication time, but never later
    /// than when it was fetched (a feed cannot publish in the future), and the fetch time when
    /// the feed gave no date.
    pub fn dated_at(&self) -> Timestamp {
        dated_at(self.published_at, self.fetched_at)
    }
}

/// [`Article::dated_at`] for callers that keep the two times apart, such as a store.
pub fn dated_at(published_at: Option<Timestamp>, fetched_at: Timestamp) -> Timestamp {
    published_at.map_or(fetched_at, |published| published.min(fetched_at))
}

/// A headline's words, lower-cased, accent-folded and space-separated: equal for headlines
/// that differ only in case, accents, punctuation or spacing. Fit for a unique column.
pub fn title_key(title: &str) -> String {
    words(title).collect::<Vec<_>>().join(" ")
}
