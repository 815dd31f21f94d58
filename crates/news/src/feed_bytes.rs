//! What a fetched feed's bytes are before feed-rs reads them: which encoding, whether they
//! are a feed at all, and where a cut-off download can be closed.
//!
//! These are the ways real captures break (see `demo-data/news/SOURCES.md`): a feed in
//! ISO-8859-1 with no XML declaration (UOL), which an XML parser must read as UTF-8 and
//! fails on; an HTML error page served at the feed's URL (a CloudFront 403); and a download
//! cut off mid-item (Fox News at 12,288 bytes). Each is recognized here so the caller gets an
//! error that names it, and so that as little news as possible is lost.

use std::borrow::Cow;

/// How many leading bytes are searched for an XML declaration or an HTML page's markers.
const PROLOGUE_BYTES: usize = 1_024;

/// The bytes to give the XML parser, and whether they had to be re-encoded.
pub struct Decoded<'a> {
    pub bytes: Cow<'a, [u8]>,
    /// True when the bytes were not UTF-8 and declared no other encoding, so were read as
    /// Windows-1252 (a superset of ISO-8859-1's printable characters) and re-encoded.
    pub reencoded_from_windows_1252: bool,
}

/// `bytes` as the XML parser should see them. Valid UTF-8 and bytes that declare their own
/// encoding are passed unchanged (the parser decodes declared encodings itself); anything
/// else is read as Windows-1252, the encoding of nearly every undeclared non-UTF-8 feed.
pub fn decode(bytes: &[u8]) -> Decoded<'_> {
    let declares_other_encoding = declared_encoding(bytes)
        .is_some_and(|label| !label.eq_ignore_ascii_case("utf-8") && !label.eq_ignore_ascii_case("utf8"));
    if std::str::from_utf8(bytes).is_ok() || declares_other_encoding || starts_with_utf16_mark(bytes) {
        return Decoded {
            bytes: Cow::Borrowed(bytes),
            reencoded_from_windows_1252: false,
        };
    }
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
    Decoded {
        bytes: Cow::Owned(text.into_owned().into_bytes()),
        reencoded_from_windows_1252: true,
    }
}

/// The `encoding` of the XML declaration, if the bytes start with one that names it.
fn declared_encoding(bytes: &[u8]) -> Option<String> {
    let prologue = String::from_utf8_lossy(&bytes[..bytes.len().min(PROLOGUE_BYTES)]);
    let declaration = prologue.trim_start_matches('\u{feff}').trim_start();
    let declaration = &declaration[..declaration.strip_prefix("<?xml")?.find("?>")? + "<?xml".len()];
    let after = &declaration[declaration.find("encoding")? + "encoding".len()..];
    let after = after.trim_start().strip_prefix('=')?.trim_start();
    let quote = after.chars().next().filter(|quote| matches!(quote, '"' | '\''))?;
    let value = &after[1..];
    Some(value[..value.find(quote)?].to_owned())
}

fn starts_with_utf16_mark(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF])
}

/// What the first markup of a document says it is.
#[derive(Debug, PartialEq)]
pub enum Shape {
    /// Nothing but white space.
    Empty,
    /// An HTML page (a doctype or `<html>` first), with its `<title>` if it has one.
    HtmlPage { title: Option<String> },
    /// Starts with neither markup nor a JSON object.
    NotMarkup,
    /// Markup or JSON: for the feed parser to judge.
    Other,
}

pub fn shape(bytes: &[u8]) -> Shape {
    let prologue = String::from_utf8_lossy(&bytes[..bytes.len().min(PROLOGUE_BYTES)]);
    let start = prologue.trim_start_matches(|character: char| character.is_whitespace() || character == '\u{feff}');
    if start.is_empty() {
        return if bytes.iter().all(u8::is_ascii_whitespace) {
            Shape::Empty
        } else {
            Shape::NotMarkup
        };
    }
    if !start.starts_with('<') && !start.starts_with('{') {
        return Shape::NotMarkup;
    }
    let lowered = start.to_ascii_lowercase();
    if lowered.starts_with("<!doctype html") || lowered.starts_with("<html") {
        let whole = String::from_utf8_lossy(bytes);
        return Shape::HtmlPage {
            title: html_title(&whole),
        };
    }
    Shape::Other
}

fn html_title(document: &str) -> Option<String> {
    let lowered = document.to_ascii_lowercase();
    let open = lowered.find("<title")?;
    let content_start = open + lowered[open..].find('>')? + 1;
    let content_end = content_start + lowered[content_start..].find("</title")?;
    let title = crate::plain_text::collapse_whitespace(document.get(content_start..content_end)?);
    (!title.is_empty()).then_some(title)
}

/// `bytes` with `version="2.0"` added to an `<rss>` root that has no version attribute, which
/// feed-rs would otherwise refuse as no feed (UOL's feed has such a root). Every encoding a
/// feed is written in keeps ASCII markup as ASCII, so this works on the raw bytes.
pub fn with_rss_version(bytes: &[u8]) -> Cow<'_, [u8]> {
    let window = &bytes[..bytes.len().min(PROLOGUE_BYTES * 4)];
    let Some(start) = window.windows(4).position(|four| four == b"<rss") else {
        return Cow::Borrowed(bytes);
    };
    let tag_name_end = start + 4;
    let Some(tag_length) = bytes[tag_name_end..].iter().position(|&byte| byte == b'>') else {
        return Cow::Borrowed(bytes);
    };
    let attributes = &bytes[tag_name_end..tag_name_end + tag_length];
    let is_root = attributes
        .first()
        .is_none_or(|byte| byte.is_ascii_whitespace() || *byte == b'/');
    if !is_root || attributes.windows(7).any(|seven| seven == b"version") {
        return Cow::Borrowed(bytes);
    }
    let mut repaired = Vec::with_capacity(bytes.len() + 16);
    repaired.extend_from_slice(&bytes[..tag_name_end]);
    repaired.extend_from_slice(b" version=\"2.0\"");
    repaired.extend_from_slice(&bytes[tag_name_end..]);
    Cow::Owned(repaired)
}

/// Whether the document lacks the end tag of its root, as a cut-off download does.
pub fn lacks_root_end(text: &str) -> bool {
    let tail = text.trim_end();
    !(tail.ends_with("</rss>") || tail.ends_with("</feed>") || tail.ends_with("RDF>"))
}

/// A cut-off feed closed after its last complete item, or `None` when it holds no complete
/// item. RSS items end in `</item>`, Atom entries in `</entry>`; the channel and root are
/// closed after it. Namespace prefixes on the root (`<rdf:RDF>`) are not attempted.
pub fn closed_after_last_item(text: &str) -> Option<String> {
    if let Some(end) = text.rfind("</item>") {
        let mut closed = text[..end + "</item>".len()].to_owned();
        closed.push_str("</channel></rss>");
        return Some(closed);
    }
    let end = text.rfind("</entry>")?;
    let mut closed = text[..end + "</entry>".len()].to_owned();
    closed.push_str("</feed>");
    Some(closed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undeclared_latin_1_is_reencoded() {
        let bytes = b"<rss version=\"2.0\"><channel><title>Not\xedcias</title></channel></rss>";
        let decoded = decode(bytes);
        assert!(decoded.reencoded_from_windows_1252);
        assert!(
            String::from_utf8(decoded.bytes.into_owned())
                .unwrap()
                .contains("Notícias")
        );
    }

    #[test]
    fn declared_encodings_and_utf8_pass_unchanged() {
        let declared = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><t>\xe9</t></rss>";
        assert!(!decode(declared).reencoded_from_windows_1252);
        assert!(!decode("<rss>é</rss>".as_bytes()).reencoded_from_windows_1252);
        assert_eq!(declared_encoding(declared).as_deref(), Some("ISO-8859-1"));
        assert_eq!(
            declared_encoding(b"<?xml version='1.0' encoding = 'utf-8' ?>").as_deref(),
            Some("utf-8")
        );
        assert_eq!(declared_encoding(b"<?xml version=\"1.0\"?><rss encoding=\"x\">"), None);
    }

    #[test]
    fn recognizes_html_pages_and_non_markup() {
        let page = b"<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01\">\n<HTML><HEAD><TITLE>ERROR: The request could not be satisfied</TITLE>";
        assert_eq!(
            shape(page),
            Shape::HtmlPage {
                title: Some("ERROR: The request could not be satisfied".to_owned())
            }
        );
        assert_eq!(shape(b"  \n"), Shape::Empty);
        assert_eq!(shape(b"Service Unavailable"), Shape::NotMarkup);
        assert_eq!(shape(b"<?xml version=\"1.0\"?><rss/>"), Shape::Other);
    }

    #[test]
    fn gives_a_versionless_rss_root_a_version() {
        assert_eq!(
            &*with_rss_version(b"<rss>\n<channel/></rss>"),
            b"<rss version=\"2.0\">\n<channel/></rss>"
        );
        let versioned: &[u8] = b"<rss version=\"0.91\"><channel/></rss>";
        assert_eq!(&*with_rss_version(versioned), versioned);
        let other: &[u8] = b"<rssfeed><channel/></rssfeed>";
        assert_eq!(&*with_rss_version(other), other);
    }

    #[test]
    fn closes_a_cut_off_feed_after_its_last_item() {
        let cut = "<rss><channel><item><title>A</title></item><item><title>B</ti";
        assert_eq!(
            closed_after_last_item(cut).as_deref(),
            Some("<rss><channel><item><title>A</title></item></channel></rss>")
        );
        assert!(lacks_root_end(cut));
        assert!(!lacks_root_end("<feed></feed>\n"));
        assert_eq!(closed_after_last_item("<rss><channel><item><title>B</ti"), None);
    }
}
