//! One spelling per article link, so that the same story reached through two feeds, or
//! through one feed's tracking redirect parameters, is stored once.
//!
//! Publishers append campaign parameters to the links in their feeds (`?at_medium=RSS` on the
//! BBC, `utm_*` on CoinDesk, `emc=rss&partner=rss` on the New York Times). They say how a
//! reader arrived, not which article it is, so they are dropped; every other parameter is
//! kept in its order, because some sites address articles by query (`story.php?storyId=1`).
//! The scheme and host are lower-cased and a default port and the fragment removed (the
//! `url` crate does the first three). The path is kept as it is: paths are case-sensitive.

use url::Url;

/// Query parameters that only track where a reader came from.
const TRACKING_PARAMETERS: &[&str] = &[
    "cmp", "cmpid", "emc", "fbclid", "gclid", "mc_cid", "mc_eid", "mod", "ncid", "ocid", "partner", "smid", "soc_src",
    "soc_trk", "sr_share", "taid",
];

/// Parameter prefixes that only track where a reader came from (`utm_source`, `at_medium`).
const TRACKING_PREFIXES: &[&str] = &["utm_", "at_", "__twitter"];

/// The canonical form of an absolute `http` or `https` link (without tracking parameters,
/// fragment or userinfo), or `None` when `link` is not one.
pub fn canonical_url(link: &str) -> Option<String> {
    let mut url = Url::parse(link.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return None;
    }
    url.set_fragment(None);
    // A link never carries credentials to whoever it is shown to.
    let _ = url.set_username("");
    let _ = url.set_password(None);
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(name, _)| !is_tracking(name))
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    if kept.is_empty() {
        url.set_query(None);
    } else {
        url.query_pairs_mut().clear().extend_pairs(kept);
    }
    Some(url.into())
}

fn is_tracking(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    TRACKING_PARAMETERS.contains(&name.as_str()) || TRACKING_PREFIXES.iter().any(|prefix| name.starts_with(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_tracking_parameters_and_fragments() {
        assert_eq!(
            canonical_url("https://www.bbc.co.uk/news/uk-53871078?at_medium=RSS&at_campaign=KARANGA").as_deref(),
            Some("https://www.bbc.co.uk/news/uk-53871078")
        );
        assert_eq!(
            canonical_url(
                "https://www.coindesk.com/markets/2023/03/13/bitcoin/?utm_medium=referral&utm_source=rss&utm_campaign=headlines"
            )
            .as_deref(),
            Some("https://www.coindesk.com/markets/2023/03/13/bitcoin/")
        );
        assert_eq!(
            canonical_url("HTTPS://WWW.NYTimes.com:443/2020/08/21/us/Fires.html?emc=rss&partner=rss#comments")
                .as_deref(),
            Some("https://www.nytimes.com/2020/08/21/us/Fires.html")
        );
    }

    #[test]
    fn keeps_parameters_that_address_the_article() {
        assert_eq!(
            canonical_url("https://www.npr.org/templates/story/story.php?storyId=1001&utm_source=x").as_deref(),
            Some("https://www.npr.org/templates/story/story.php?storyId=1001")
        );
    }

    #[test]
    fn refuses_what_is_not_a_web_link() {
        assert_eq!(canonical_url("/livewire/relative-path"), None);
        assert_eq!(canonical_url("mailto:desk@example.com"), None);
        assert_eq!(canonical_url("not a url"), None);
        assert_eq!(canonical_url(""), None);
    }
}
