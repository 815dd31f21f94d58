//! Every recorded feed in `demo-data/news/` (unmodified copies of the shared fixtures)
//! through `parse_feed`: the article counts `SOURCES.md` documents, the clear error of each
//! deliberately broken capture, and spot checks of real values. Feeds for cases the captures
//! lack are written by the tests themselves, in `tests/data/feeds/`.

use std::fs;
use std::path::{Path, PathBuf};

use marketlens_domain::time::{Timestamp, from_epoch_millis, to_iso8601};
use marketlens_news::{FeedError, ParsedFeed, Skipped, parse_feed};

fn demo_news() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo-data/news")
}

fn own_feeds() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/feeds")
}

/// 2026-01-01T00:00:00Z: later than every fixture.
fn fetched_at() -> Timestamp {
    from_epoch_millis(1_767_225_600_000)
}

fn parse_file(path: &Path) -> Result<ParsedFeed, FeedError> {
    let bytes = fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    parse_feed(&bytes, "https://feeds.example/feed.xml", fetched_at())
}

fn parse(file: &str) -> Result<ParsedFeed, FeedError> {
    parse_file(&demo_news().join(file))
}

fn parsed(file: &str) -> ParsedFeed {
    parse(file).unwrap_or_else(|error| panic!("{file}: {error}"))
}

fn iso(timestamp: Option<Timestamp>) -> Option<String> {
    timestamp.map(to_iso8601)
}

/// Articles per well-formed capture: the item counts of `SOURCES.md`, none skipped.
const ARTICLE_COUNTS: &[(&str, usize)] = &[
    ("aljazeera-america-2016-02.xml", 50),
    ("arstechnica-tech-companies-2025-09.xml", 20),
    ("bbc-news-home-2020-08.xml", 57),
    ("cnbc-finance-fed-2019-07.xml", 30),
    ("cnn-international-2020-08.xml", 49),
    ("coindesk-crypto-2023-03.xml", 50),
    ("espn-nfl-2012-09.xml", 15),
    ("foxnews-latest-2020-08.xml", 10),
    ("guardian-sport-2016-06.xml", 89),
    ("guardian-us-politics-2018-01.xml", 55),
    ("npr-news-elections-shutdown-2025-11.xml", 10),
    ("npr-news-fed-crypto-2025-03.xml", 10),
    ("npr-news-iran-2026-02-28.xml", 10),
    ("npr-news-iran-2026-03-01.xml", 10),
    ("npr-news-iran-2026-03-02a.xml", 10),
    ("npr-news-iran-2026-03-02b.xml", 10),
    ("npr-news-superbowl-2025-02.xml", 10),
    ("nytimes-us-news-2020-08.xml", 48),
    ("tpm-politics-2017-11.atom", 20),
    ("uol-noticias-eleicoes-2018-09.xml", 15),
    ("vox-politics-2016-06.atom", 30),
    ("wsj-world-2020-08.xml", 6),
];

const BROKEN: &[&str] = &["foxnews-truncated-2020-05.xml", "latimes-cloudfront-403-2021-10.xml"];

#[test]
fn every_capture_is_counted_here() {
    let mut listed: Vec<&str> = ARTICLE_COUNTS
        .iter()
        .map(|(file, _)| *file)
        .chain(BROKEN.iter().copied())
        .collect();
    listed.sort();
    let mut present: Vec<String> = fs::read_dir(demo_news())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| !name.ends_with(".md") && !name.starts_with("LICENSE"))
        .collect();
    present.sort();
    assert_eq!(present, listed);
}

#[test]
fn well_formed_captures_give_every_item() {
    for (file, count) in ARTICLE_COUNTS {
        let feed = parsed(file);
        assert_eq!(feed.articles.len(), *count, "{file}");
        assert_eq!(feed.skipped, Skipped::default(), "{file}");
        for article in &feed.articles {
            assert!(!article.title.is_empty(), "{file}");
            assert!(article.url.starts_with("http"), "{file}: {}", article.url);
            assert!(
                !article.url.contains("utm_") && !article.url.contains("at_medium"),
                "{}",
                article.url
            );
            for text in [&article.title, &article.summary] {
                assert!(
                    !text.contains("</") && !text.contains("<p>") && !text.contains("&amp;"),
                    "{file}: {text}"
                );
                assert!(!text.contains("Continue reading"), "{file}: {text}");
                assert!(!text.contains("  ") && !text.contains('\t'), "{file}: {text:?}");
            }
            assert!(
                article.summary.chars().count() <= marketlens_domain::article::MAX_SUMMARY_CHARS,
                "{file}"
            );
            assert_eq!(article.publisher, feed.publisher);
        }
    }
}

#[test]
fn dates_are_read_or_left_empty() {
    // CNN's capture has three items without a pubDate: kept, undated, dated at the fetch.
    let cnn = parsed("cnn-international-2020-08.xml");
    let undated: Vec<_> = cnn
        .articles
        .iter()
        .filter(|article| article.published_at.is_none())
        .collect();
    assert_eq!(undated.len(), 3);
    assert!(undated.iter().all(|article| article.dated_at() == fetched_at()));
    for (file, _) in ARTICLE_COUNTS.iter().filter(|(file, _)| !file.starts_with("cnn")) {
        assert!(
            parsed(file)
                .articles
                .iter()
                .all(|article| article.published_at.is_some()),
            "{file}"
        );
    }
    // PDT (ESPN), no seconds (CNBC), Portuguese names (UOL).
    assert_eq!(
        iso(parsed("espn-nfl-2012-09.xml").articles[0].published_at).as_deref(),
        Some("2012-09-02T15:24:08.000Z")
    );
    assert_eq!(
        iso(parsed("cnbc-finance-fed-2019-07.xml").articles[0].published_at).as_deref(),
        Some("2019-07-29T13:55:00.000Z")
    );
    assert_eq!(
        iso(parsed("uol-noticias-eleicoes-2018-09.xml").articles[0].published_at).as_deref(),
        Some("2018-09-24T22:42:40.000Z")
    );
}

#[test]
fn spot_checks_of_real_values() {
    let bbc = parsed("bbc-news-home-2020-08.xml");
    assert_eq!(bbc.publisher, "BBC News - Home");
    assert_eq!(bbc.articles[0].url, "https://www.bbc.co.uk/news/uk-53871078");
    assert_eq!(
        bbc.articles[0].title,
        "Coronavirus: UK tourists dash home as quarantine rules kick in"
    );

    // Entities inside CDATA are decoded.
    let cnbc = parsed("cnbc-finance-fed-2019-07.xml");
    assert!(
        cnbc.articles[0]
            .summary
            .starts_with("Despite the S&P 500 closing at an all-time high on Friday, the index's")
    );

    // Atom with relative links, resolved against the feed's own site link.
    let tpm = parsed("tpm-politics-2017-11.atom");
    assert_eq!(
        tpm.articles[0].url,
        "http://talkingpointsmemo.com/livewire/hannity-announces-fox-hired-sebastian-gorka-national-security-strategist"
    );
    assert!(
        tpm.articles[0]
            .summary
            .starts_with("Fox News star host Sean Hannity on Wednesday announced")
    );

    // The ESPN tweetmeme widget leaves nothing behind.
    let espn = parsed("espn-nfl-2012-09.xml");
    assert!(
        espn.articles[0]
            .summary
            .starts_with("Running back Maurice Jones-Drew, who held out")
    );

    // Guardian: HTML paragraphs become lines; "Related:" links and calls to action go.
    let guardian = parsed("guardian-us-politics-2018-01.xml");
    let summary = &guardian.articles[0].summary;
    assert!(summary.starts_with("The president’s ‘new American moment’ speech stirred Republican applause"));
    assert!(!summary.contains("Related:"), "{summary}");

    // NPR: a one-line summary completed with the article's content.
    let npr = parsed("npr-news-fed-crypto-2025-03.xml");
    let first = &npr.articles[0].summary;
    assert!(first.starts_with("When Paul Cotter's father began to show signs of early-onset Alzheimer's disease"));
    assert!(first.lines().count() > 1, "{first}");
}

#[test]
fn latin_1_without_declaration_is_reencoded_not_lost() {
    let uol = parsed("uol-noticias-eleicoes-2018-09.xml");
    assert!(uol.reencoded_from_windows_1252);
    assert_eq!(
        uol.articles[0].title,
        "Ibope: Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno"
    );
    assert!(uol.articles[0].summary.starts_with("Líder na pesquisa Ibope"));
}

#[test]
fn truncated_download_is_an_error_that_keeps_the_complete_items() {
    let Err(error) = parse("foxnews-truncated-2020-05.xml") else {
        panic!("a truncated feed must be reported");
    };
    assert_eq!(
        error.to_string(),
        "the feed is cut off (a truncated download): 4 complete articles recovered"
    );
    let FeedError::Truncated { recovered } = error else {
        unreachable!()
    };
    assert_eq!(recovered.publisher, "FOX News");
    assert_eq!(recovered.articles.len(), 4);
    assert!(recovered.articles.iter().all(|article| article.published_at.is_some()));
}

#[test]
fn html_error_page_is_named() {
    let error = parse("latimes-cloudfront-403-2021-10.xml").unwrap_err();
    assert_eq!(
        error,
        FeedError::HtmlPage {
            title: Some("ERROR: The request could not be satisfied".to_owned())
        }
    );
    assert!(error.to_string().starts_with("the feed is an HTML page, not a feed"));
}

#[test]
fn own_feeds_cover_what_the_captures_lack() {
    // Items without a title or a link are skipped and counted; the rest are kept.
    let skips = parse_file(&own_feeds().join("items-without-title-or-link.xml")).unwrap();
    assert_eq!(skips.articles.len(), 2);
    assert_eq!(
        skips.skipped,
        Skipped {
            no_title: 1,
            no_link: 1
        }
    );
    // The guid stands in for a missing link when it is a web link.
    assert_eq!(skips.articles[1].url, "https://news.example/guid-is-the-link");

    // Atom without a feed title: the publisher is the feed URL's host; updated stands in for
    // published; an unreadable date leaves the article undated.
    let atom = parse_file(&own_feeds().join("atom-untitled.atom")).unwrap();
    assert_eq!(atom.publisher, "feeds.example");
    assert_eq!(
        iso(atom.articles[0].published_at).as_deref(),
        Some("2025-11-05T10:00:00.000Z")
    );
    assert_eq!(atom.articles[1].published_at, None);

    // A declared ISO-8859-1 encoding is honoured, not re-encoded.
    let latin = parse_file(&own_feeds().join("declared-latin-1.xml")).unwrap();
    assert!(!latin.reencoded_from_windows_1252);
    assert_eq!(latin.articles[0].title, "Eleição: São Paulo decide");

    assert_eq!(
        parse_file(&own_feeds().join("not-a-feed.xml")).unwrap_err(),
        FeedError::NotAFeed
    );
    assert!(matches!(
        parse_file(&own_feeds().join("malformed-but-complete.xml")).unwrap_err(),
        FeedError::Malformed { .. }
    ));
}

#[test]
fn small_broken_inputs_give_clear_errors() {
    let at = fetched_at();
    assert_eq!(parse_feed(b"", "u", at).unwrap_err(), FeedError::Empty);
    assert_eq!(parse_feed(b" \n\t", "u", at).unwrap_err(), FeedError::Empty);
    assert_eq!(parse_feed(b"502 Bad Gateway", "u", at).unwrap_err(), FeedError::NotXml);
    let Err(FeedError::Truncated { recovered }) = parse_feed(b"<rss version=\"2.0\"><channel><item><title>A", "u", at)
    else {
        panic!("a feed cut before its first item is still truncated");
    };
    assert!(recovered.articles.is_empty());
}

/// An operator's credentials in a feed's URL (userinfo, `?apikey=`) never reach the links of
/// its articles, which are served to clients: a feed naming no site of its own has its
/// relative links resolved against its URL without them. The feed is written for this test.
#[test]
fn credentials_in_a_feed_url_never_reach_article_links() {
    let feed = br#"<?xml version="1.0"?><rss version="2.0"><channel><title>Wire</title>
        <item><title>Rates held</title><link>/a/1</link><pubDate>Tue, 03 Mar 2026 10:00:00 GMT</pubDate></item>
        <item><title>Rates cut</title><link>http://user:hunter2@news.example/a/2</link><pubDate>Tue, 03 Mar 2026 11:00:00 GMT</pubDate></item>
        </channel></rss>"#;
    let parsed = parse_feed(
        feed,
        "http://reader:s3cret@news.example/feed.xml?apikey=s3cret2",
        fetched_at(),
    )
    .unwrap();
    assert_eq!(parsed.articles.len(), 2);
    for article in &parsed.articles {
        assert!(
            !article.url.contains("s3cret") && !article.url.contains("hunter2"),
            "{}",
            article.url
        );
    }
    assert_eq!(parsed.articles[0].url, "http://news.example/a/1");
}

/// A contact whose e-mail address sits next to a character that is not ASCII (an RSS
/// `managingEditor` or `author`, a JSON Feed author's name) is read, not a panic: feed-rs
/// 3.0.0 sliced such names at a byte inside that character (third_party/README.md). The first
/// feed is the shape `scripts/fuzz` found, cut from the ESPN capture; all are written here.
#[test]
fn contact_names_with_non_ascii_delimiters_are_read() {
    let at = fetched_at();
    let rss = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<rss version=\"2.0\"><channel>\
        <title>ESPN.com - NFL</title><link>http://espn.go.com/nfl/</link>\
        <managingEditor>we¶master@espn.go.com</managingEditor>\
        <webMaster>Jane Doe·jane@espn.go.com</webMaster>\
        <item><title>Week 1 opener</title><link>http://espn.go.com/nfl/story/1</link>\
        <author>“writer@espn.go.com”</author></item>\
        <item><title>Week 2</title><link>http://espn.go.com/nfl/story/2</link>\
        <author>&#8220;editor@espn.go.com&#8221; (Desk)</author></item>\
        </channel></rss>";
    let feed = parse_feed(rss.as_bytes(), "https://feeds.example/nfl.xml", at).unwrap();
    let titles: Vec<&str> = feed.articles.iter().map(|article| article.title.as_str()).collect();
    assert_eq!(titles, ["Week 1 opener", "Week 2"]);

    let json = r#"{"version": "https://jsonfeed.org/version/1.1", "title": "Desk",
        "items": [{"id": "1", "url": "https://news.example/1", "title": "Rates held",
                   "authors": [{"name": "Zoë·zoe@news.example"}]}]}"#;
    let feed = parse_feed(json.as_bytes(), "https://feeds.example/feed.json", at).unwrap();
    assert_eq!(feed.articles.len(), 1);
    assert_eq!(feed.articles[0].title, "Rates held");
}
