//! Feed text to plain text: what a summary and a key factor are made of.
//!
//! Feeds carry HTML in their summaries (escaped `<p>` in the Guardian's, whole articles in
//! Vox's and TPM's), entities even inside CDATA (CNBC's `&#039;`), link widgets (ESPN's
//! tweetmeme button) and calls to action ("Continue reading..."). HTML is parsed by
//! `html2text` (html5ever underneath), which drops tags, scripts and styles and decodes
//! entities; this module then collapses white space, drops the calls to action and bounds
//! the length at a sentence or word boundary. Paragraphs stay apart, one per line, because a
//! paragraph break ends a sentence even when the writer put no full stop before it.

use html2text::render::TrivialDecorator;

use crate::sentences::sentences;

/// Phrases that invite the reader elsewhere and say nothing about the news; text is cut
/// where one begins. Matched case-insensitively.
const CALLS_TO_ACTION: &[&str] = &[
    "continue reading",
    "read more",
    "read the full story",
    "read full article",
    "click here",
    "keep reading",
    "(more…)",
    "[…]",
    "[...]",
];

/// Paragraph openings that mark a line as furniture around the article (a link to another
/// story, a photo credit) rather than its text. Matched case-insensitively.
const FURNITURE_LINES: &[&str] = &[
    "related:",
    "(image credit",
    "image credit:",
    "photograph:",
    "photo:",
    "video:",
    "listen:",
    "watch:",
    "advertisement",
];

/// Plain text of an HTML fragment (or of text that merely might hold markup): tags dropped,
/// entities decoded, runs of white space collapsed to one space, and one paragraph per line.
pub fn html_to_plain_text(html: &str) -> String {
    paragraphs(html).collect::<Vec<_>>().join("\n")
}

/// [`html_to_plain_text`] for article text: also without calls to action and furniture
/// lines (related links, photo credits), which say nothing about the news.
pub fn article_text(html: &str) -> String {
    paragraphs(html)
        .map(|line| without_calls_to_action(&line).to_owned())
        .filter(|line| line.chars().any(char::is_alphanumeric) && !is_furniture(line))
        .collect::<Vec<_>>()
        .join("\n")
}

fn paragraphs(html: &str) -> impl Iterator<Item = String> {
    // A very wide line, so that the renderer never wraps a paragraph.
    const NO_WRAPPING: usize = 100_000;
    let rendered = if html.trim().is_empty() {
        String::new()
    } else {
        html2text::config::with_decorator(TrivialDecorator::new())
            .raw_mode(true)
            .allow_width_overflow()
            .string_from_read(html.as_bytes(), NO_WRAPPING)
            // Rendering only fails on a width too small for the text, which cannot happen
            // here; the raw text is still better than nothing.
            .unwrap_or_else(|_| html.to_owned())
    };
    rendered
        .lines()
        .map(collapse_whitespace)
        .filter(|line| line.chars().any(char::is_alphanumeric))
        .collect::<Vec<_>>()
        .into_iter()
}

fn is_furniture(line: &str) -> bool {
    let lowered = line.to_lowercase();
    FURNITURE_LINES.iter().any(|opening| lowered.starts_with(opening))
}

/// `text` with every run of white space (including non-breaking spaces) made one space, and
/// trimmed.
pub fn collapse_whitespace(text: &str) -> String {
    text.split(|character: char| character.is_whitespace() || character == '\u{a0}')
        .filter(|piece| !piece.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` up to the first call to action, trimmed of the punctuation left dangling.
fn without_calls_to_action(text: &str) -> &str {
    let lowered = text.to_lowercase();
    let cut = CALLS_TO_ACTION
        .iter()
        .filter_map(|phrase| lowered.find(phrase))
        .min()
        // Lower-casing can change byte lengths outside ASCII; cut only where both agree.
        .filter(|&position| lowered.len() == text.len() && text.is_char_boundary(position))
        .unwrap_or(text.len());
    text[..cut].trim_end_matches(|character: char| {
        character.is_whitespace() || matches!(character, ':' | '|' | '-' | '–' | '—')
    })
}

/// At most `max_chars` characters of `text`: whole sentences when they fill at least half
/// the room, otherwise whole words followed by "…". Text that fits is returned unchanged.
pub fn truncate_at_boundary(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let mut kept = String::new();
    for sentence in sentences(text) {
        let separator = usize::from(!kept.is_empty());
        if kept.chars().count() + separator + sentence.chars().count() > max_chars {
            break;
        }
        if separator == 1 {
            kept.push(' ');
        }
        kept.push_str(sentence);
    }
    if kept.chars().count() * 2 >= max_chars {
        return kept;
    }
    // Room for the ellipsis, then back to the last space so no word is cut in two.
    let room = max_chars.saturating_sub(1);
    let prefix: String = text.chars().take(room).collect();
    let ends_on_word_boundary = text.chars().nth(room).is_none_or(char::is_whitespace);
    let words = match prefix.rfind(char::is_whitespace) {
        Some(space) if space > 0 && !ends_on_word_boundary => &prefix[..space],
        _ => prefix.as_str(),
    };
    let words = words.trim_end_matches(|character: char| !character.is_alphanumeric());
    format!("{words}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_tags_decodes_entities_and_keeps_paragraphs_apart() {
        let html =
            "<p>The president&#039;s &lsquo;new&rsquo; speech</p><p>Donald   Trump &amp; the <a href=\"x\">GOP</a></p>";
        assert_eq!(
            html_to_plain_text(html),
            "The president's ‘new’ speech\nDonald Trump & the GOP"
        );
    }

    #[test]
    fn cuts_calls_to_action() {
        let html = "<p>Fed expected to cut rates.</p> <a href=\"https://g.co\">Continue reading...</a>";
        assert_eq!(article_text(html), "Fed expected to cut rates.");
        assert_eq!(article_text("Stocks rose. Read more: markets"), "Stocks rose.");
        assert_eq!(
            html_to_plain_text("Watch: Read more about it"),
            "Watch: Read more about it"
        );
    }

    #[test]
    fn drops_furniture_lines() {
        let html = "<p>Trump spoke.</p><p>Related: Fact check of the speech</p><p>(Image credit: Mark Wilson)</p>";
        assert_eq!(article_text(html), "Trump spoke.");
    }

    #[test]
    fn drops_scripts_images_and_empty_markup() {
        assert_eq!(
            html_to_plain_text("<script>var x = 1;</script><img src=\"a.png\"><p> </p>"),
            ""
        );
        assert_eq!(html_to_plain_text("   "), "");
    }

    #[test]
    fn plain_text_passes_through() {
        assert_eq!(
            html_to_plain_text("AT&T rose 5% as S&P < 3000"),
            "AT&T rose 5% as S&P < 3000"
        );
    }

    #[test]
    fn truncates_at_sentences_then_words() {
        let text = "Bitcoin rose. Ether fell sharply after the report.";
        assert_eq!(truncate_at_boundary(text, 100), text);
        assert_eq!(truncate_at_boundary(text, 20), "Bitcoin rose.");
        assert_eq!(
            truncate_at_boundary("One extraordinarily long sentence without end", 20),
            "One extraordinarily…"
        );
        assert!(truncate_at_boundary(&"word ".repeat(100), 50).chars().count() <= 50);
    }
}
