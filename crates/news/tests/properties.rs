//! Properties over open-ended input: arbitrary bytes to the feed parser, cut-off copies of
//! real feeds, arbitrary headlines to deduplication, arbitrary links to canonicalization and
//! arbitrary questions and articles to queries and key factors. None may panic, and each
//! keeps its promise.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use marketlens_domain::article::{Article, title_key};
use marketlens_domain::time::from_epoch_millis;
use marketlens_news::canonical_url::canonical_url;
use marketlens_news::plain_text::{html_to_plain_text, truncate_at_boundary};
use marketlens_news::{
    Deduplicator, FactorSource, FeedError, MAX_KEY_FACTORS, NewsQuery, Repeat, deduplicate, key_factors, parse_feed,
};
use proptest::prelude::*;

fn fixture(name: &str) -> Vec<u8> {
    fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../demo-data/news")
            .join(name),
    )
    .unwrap()
}

fn article(url: &str, title: &str) -> Article {
    Article {
        url: url.to_owned(),
        title: title.to_owned(),
        summary: String::new(),
        publisher: "P".to_owned(),
        published_at: None,
        fetched_at: from_epoch_millis(0),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic_the_parser(bytes in proptest::collection::vec(any::<u8>(), 0..2_000)) {
        let _ = parse_feed(&bytes, "https://feeds.example/", from_epoch_millis(0));
    }

    #[test]
    fn feed_like_text_never_panics_the_parser(text in "(<rss version=\"2.0\"><channel>)?(<item><title>[a-zA-Z &;<>]{0,20}</title>(<link>https://x.example/[a-z]{0,5}</link>)?</item>){0,4}(</channel></rss>)?") {
        let _ = parse_feed(text.as_bytes(), "https://feeds.example/", from_epoch_millis(0));
    }

    #[test]
    fn a_cut_off_feed_keeps_a_prefix_of_its_articles(cut in 0usize..30_096) {
        let bytes = fixture("bbc-news-home-2020-08.xml");
        let full = parse_feed(&bytes, "https://feeds.example/", from_epoch_millis(0)).unwrap();
        let cut = cut.min(bytes.len());
        if let Err(FeedError::Truncated { recovered }) = parse_feed(&bytes[..cut], "https://feeds.example/", from_epoch_millis(0)) {
            prop_assert!(recovered.articles.len() <= full.articles.len());
            for (kept, original) in recovered.articles.iter().zip(&full.articles) {
                prop_assert_eq!(&kept.url, &original.url);
            }
        }
    }

    #[test]
    fn a_remembered_headline_always_repeats(title in "\\PC{0,80}", other in "\\PC{0,80}") {
        let mut deduplicator = Deduplicator::new();
        deduplicator.remember("https://x.example/1", &title);
        prop_assert_eq!(deduplicator.repeat_of("https://x.example/1", &other), Some(Repeat::SameUrl));
        prop_assert!(deduplicator.repeat_of("https://x.example/2", &title).is_some());
        prop_assert_eq!(title_key(&title), title_key(&format!("  {title}!")));
    }

    #[test]
    fn deduplicate_leaves_no_repeat(titles in proptest::collection::vec("[A-Za-z0-9 .:]{0,40}", 0..30)) {
        let articles: Vec<Article> = titles
            .iter()
            .enumerate()
            .map(|(position, title)| article(&format!("https://x.example/{}", position % 7), title))
            .collect();
        let (kept, repeats) = deduplicate(articles.clone());
        prop_assert_eq!(kept.len() + repeats, articles.len());
        let urls: HashSet<&str> = kept.iter().map(|article| article.url.as_str()).collect();
        prop_assert_eq!(urls.len(), kept.len());
        let keys: HashSet<String> = kept.iter().map(|article| title_key(&article.title)).collect();
        prop_assert_eq!(keys.len(), kept.len());
    }

    #[test]
    fn canonical_links_are_stable(link in "(https?://)?[A-Za-z0-9.-]{0,20}(/[A-Za-z0-9_%-]{0,10}){0,3}(\\?[a-z_]{1,8}=[a-z0-9]{0,5}(&[a-z_]{1,8}=[a-z0-9]{0,5}){0,3})?(#[a-z]{0,5})?") {
        if let Some(canonical) = canonical_url(&link) {
            prop_assert_eq!(canonical_url(&canonical), Some(canonical.clone()));
            prop_assert!(!canonical.contains('#') && !canonical.contains("utm_"));
        }
    }

    #[test]
    fn text_cleaning_is_bounded(html in "\\PC{0,400}", max in 1usize..300) {
        let text = html_to_plain_text(&html);
        prop_assert!(!text.contains("  "));
        prop_assert!(truncate_at_boundary(&text, max).chars().count() <= max.max(1));
    }

    #[test]
    fn key_factors_are_few_short_and_name_the_subject(
        question in "(Will )?[A-Z][a-z]{2,8}( [A-Za-z]{1,8}){0,6}\\?",
        texts in proptest::collection::vec(("\\PC{0,120}", "\\PC{0,300}"), 0..12),
    ) {
        let query = NewsQuery::for_market(&question, None);
        let sources: Vec<FactorSource> = texts
            .iter()
            .enumerate()
            .map(|(id, (title, summary))| FactorSource { id: id as i64, title, summary })
            .collect();
        let factors = key_factors(&query, &sources, 10);
        prop_assert!(factors.len() <= MAX_KEY_FACTORS);
        let ids: HashSet<i64> = factors.iter().map(|factor| factor.article_id).collect();
        prop_assert_eq!(ids.len(), factors.len());
        for factor in &factors {
            prop_assert!(factor.text.chars().count() <= 200);
            let source = &texts[factor.article_id as usize];
            let factor_words: Vec<String> = marketlens_domain::text::words(factor.text.trim_end_matches('…')).collect();
            let source_words: Vec<String> = marketlens_domain::text::words(&format!("{} {}", source.0, source.1)).collect();
            // Extractive: every word of the factor is a word of its article, but for the last
            // of a cut factor, which may be the start of one (a cut only falls at white space,
            // and a run without any is cut where the room ends).
            let cut = factor.text.ends_with('…');
            for (position, word) in factor_words.iter().enumerate() {
                let is_last_of_cut = cut && position + 1 == factor_words.len();
                prop_assert!(
                    source_words.contains(word)
                        || (is_last_of_cut && source_words.iter().any(|source| source.starts_with(word.as_str())))
                );
            }
        }
    }
}
