//! URLs fit to be shown: without what may be a credential. Operators put credentials in the
//! URLs they configure (a feed's `?apikey=`, an exchange proxy's `?token=`, a database's or
//! Redis's `user:password@`), and errors repeat those URLs (reqwest's "error sending request
//! for url (…)"). Whatever shows a URL or an error that may hold one (readiness, logs, admin
//! output, stored sync and feed errors) passes it through here first.
//!
//! A URL keeps its scheme, host, port and path; userinfo becomes `***`, a query string `?***`,
//! and a fragment is dropped. What does not parse as a URL is left as it is: it names no host
//! to send a credential to.

use url::Url;

/// What replaces a password or a query string.
const HIDDEN: &str = "***";

/// `url` without its userinfo, query string and fragment. What does not parse (a port out
/// of range, a URL cut short) is redacted by its shape: everything between `://` and an `@`,
/// and everything from a `?` or `#`.
pub fn url(url: &str) -> String {
    let Ok(mut parsed) = Url::parse(url) else {
        return by_shape(url);
    };
    if parsed.cannot_be_a_base() {
        return by_shape(url);
    }
    if !parsed.username().is_empty() {
        let _ = parsed.set_username(HIDDEN);
    }
    if parsed.password().is_some() {
        let _ = parsed.set_password(None);
    }
    if parsed.query().is_some() {
        parsed.set_query(Some(HIDDEN));
    }
    parsed.set_fragment(None);
    parsed.into()
}

/// Redacts a URL-like text that does not parse, by its shape alone.
fn by_shape(text: &str) -> String {
    let mut redacted = text.to_owned();
    if let Some(scheme_end) = redacted.find("://") {
        let authority_start = scheme_end + 3;
        let authority_end = redacted[authority_start..]
            .find(['/', '?', '#'])
            .map_or(redacted.len(), |end| authority_start + end);
        if let Some(at) = redacted[authority_start..authority_end].rfind('@') {
            redacted.replace_range(authority_start..authority_start + at, HIDDEN);
        }
    }
    if let Some(query) = redacted.find(['?', '#']) {
        redacted.truncate(query);
        redacted.push('?');
        redacted.push_str(HIDDEN);
    }
    redacted
}

/// `text` with every `http://` or `https://` URL in it passed through [`url`]. A URL runs to
/// the next whitespace, quote, parenthesis or angle bracket (square brackets belong to an
/// IPv6 host), or to where another URL starts ("http://a/x,http://b/y").
pub fn urls_in(text: &str) -> String {
    let mut redacted = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = next_url_start(rest) {
        redacted.push_str(&rest[..start]);
        let tail = &rest[start..];
        let delimited = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '(' | ')' | '<' | '>'))
            .unwrap_or(tail.len());
        // Another URL inside this one (after its scheme) starts a new one.
        let end = next_url_start(&tail[1..delimited]).map_or(delimited, |next| {
            let next = next + 1;
            // Drop the separator before the next URL (a comma, a semicolon) from this one.
            tail[..next].trim_end_matches([',', ';']).len()
        });
        redacted.push_str(&url(&tail[..end]));
        rest = &tail[end..];
    }
    redacted.push_str(rest);
    redacted
}

/// Where the next URL of `text` starts (scheme matched case-insensitively).
fn next_url_start(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    ["http://", "https://"]
        .iter()
        .filter_map(|scheme| lower.find(scheme))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hides_userinfo_and_query_keeps_the_rest() {
        assert_eq!(
            url("https://news.example/feed.xml?apikey=s3cret&x=1#top"),
            "https://news.example/feed.xml?***"
        );
        assert_eq!(
            url("postgres://app:s3cret@db.internal:5432/marketlens"),
            "postgres://***@db.internal:5432/marketlens"
        );
        assert_eq!(url("redis://:s3cret@127.0.0.1:6379/0"), "redis://127.0.0.1:6379/0");
        assert_eq!(url("https://api.example/v1/markets"), "https://api.example/v1/markets");
        assert_eq!(url("not a url"), "not a url");
    }

    #[test]
    fn finds_urls_inside_error_messages() {
        let error = "error sending request for url (http://u:p@127.0.0.1:9/feed?token=s3cret): connection refused";
        assert_eq!(
            urls_in(error),
            "error sending request for url (http://***@127.0.0.1:9/feed?***): connection refused"
        );
        assert_eq!(
            urls_in("two: HTTPS://a.example/?k=1 and \"http://b.example/x?y=2\""),
            "two: https://a.example/?*** and \"http://b.example/x?***\""
        );
        assert_eq!(urls_in("no url here"), "no url here");
        // An IPv6 host, a port out of range, two URLs joined by a comma.
        assert_eq!(
            urls_in("connect http://u:s3cret@[::1]:9/feed?token=x failed"),
            "connect http://***@[::1]:9/feed?*** failed"
        );
        assert_eq!(
            urls_in("http://user:s3cret@host:99999/x?k=1"),
            "http://***@host:99999/x?***"
        );
        assert_eq!(
            urls_in("http://a.example/feed,http://u:pw@b.example/x"),
            "http://a.example/feed,http://***@b.example/x"
        );
    }

    proptest! {
        /// Whatever punctuation surrounds it, a secret in a URL's query or userinfo never survives.
        #[test]
        fn a_secret_in_a_url_never_survives(
            before in "[ -/:-@\\[-`{-~]{0,20}",
            after in "[ -/:-@\\[-`{-~]{0,20}",
            secret in "[A-Za-z0-9]{8,16}",
            in_query in any::<bool>(),
            ipv6 in any::<bool>(),
        ) {
            let with_secret = match (in_query, ipv6) {
                (true, false) => format!("http://host.example/path?key={secret}"),
                (false, false) => format!("http://user:{secret}@host.example/path"),
                (true, true) => format!("http://[::1]:8080/path?key={secret}"),
                (false, true) => format!("http://user:{secret}@[::1]:99999/path"),
            };
            let text = format!("{before} {with_secret} {after}");
            let redacted = urls_in(&text);
            prop_assert!(!redacted.contains(&secret), "{redacted}");
        }
    }
}
