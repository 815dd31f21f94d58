//! News ingestion as the operator runs it: `marketlens sync --news` against feeds served by the
//! replay server (with faults), `marketlens import --news` of saved files, and `serve` polling
//! the feeds in the background so that explain cites them.

use marketlens_replay::{Fault, ReplayData, ReplayServer};
use marketlens_storage::Store;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{demo_file, free_port, open, output_text, readyz_once, run};

/// The recorded feeds are years old: count them all as recent.
const ANY_AGE: &str = "36525";

fn demo_news(file: &str) -> PathBuf {
    demo_file(&format!("news/{file}"))
}

/// `marketlens ARGUMENTS`, retrying a failed feed a few times only.
fn marketlens(database_url: &str, arguments: &[&str]) -> Command {
    let mut command = crate::marketlens(database_url, arguments);
    command.env("MARKETLENS_SYNC_ATTEMPTS", "3");
    command
}

/// `marketlens serve` on `port`, counting every recorded article as recent.
fn serve(database_url: &str, port: u16) -> Command {
    marketlens(
        database_url,
        &[
            "serve",
            "--bind",
            &format!("127.0.0.1:{port}"),
            "--news-window-days",
            ANY_AGE,
        ],
    )
}

async fn article_count(store: &dyn Store) -> usize {
    store.recent_articles(chrono::DateTime::UNIX_EPOCH).await.unwrap().len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_news_polls_every_feed_survives_faults_and_stores_each_article_once() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", directory.path().join("news.db").display());
    let feeds = [
        replay.news_url("bbc-news-home-2020-08.xml"),
        replay.news_url("tpm-politics-2017-11.atom"),
        replay.news_url("latimes-cloudfront-403-2021-10.xml"),
    ]
    .join(",");
    // The BBC feed fails once with a 500 and is fetched again.
    replay.inject_on("/news/bbc-news-home-2020-08.xml", Fault::ServerError);
    let sync = |url: &str| {
        let mut command = marketlens(url, &["sync", "--news", "--news-window-days", ANY_AGE]);
        command.env("MARKETLENS_NEWS_FEEDS", &feeds);
        command
    };
    let first = run(sync(&url)).await;
    let report = output_text(&first);
    assert!(!first.status.success(), "one feed is an HTML block page: {report}");
    assert!(report.contains("3 feeds polled, 1 failed"), "{report}");
    assert!(
        report.contains("latimes-cloudfront-403"),
        "the failed feed is named: {report}"
    );
    assert!(report.contains("HTML page"), "and why: {report}");
    let store = open(&url).await;
    let stored = article_count(store.as_ref()).await;
    // 57 BBC items and 20 TPM entries, less repeats within the BBC feed.
    assert!((70..=77).contains(&stored), "{stored} articles: {report}");
    let statuses = store.feed_statuses().await.unwrap();
    assert_eq!(statuses.len(), 3);
    let latimes = statuses.iter().find(|feed| feed.url.contains("latimes")).unwrap();
    assert!(
        latimes
            .last_error
            .as_deref()
            .is_some_and(|error| error.contains("HTML"))
    );
    assert_eq!(latimes.last_success_at, None);
    let bbc = statuses.iter().find(|feed| feed.url.contains("bbc")).unwrap();
    assert_eq!(bbc.last_error, None);
    assert!(bbc.articles_added > 50);

    // A second poll finds nothing new.
    let second = run(sync(&url)).await;
    assert!(output_text(&second).contains("0 new"), "{}", output_text(&second));
    assert_eq!(article_count(store.as_ref()).await, stored);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_news_ages_out_what_the_window_excludes() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", directory.path().join("news.db").display());
    let mut command = marketlens(&url, &["sync", "--news", "--news-window-days", "14"]);
    command.env("MARKETLENS_NEWS_FEEDS", replay.news_url("bbc-news-home-2020-08.xml"));
    let output = run(command).await;
    assert!(output.status.success(), "{}", output_text(&output));
    assert!(
        output_text(&output).contains("0 new"),
        "2020 articles are not news today: {}",
        output_text(&output)
    );
    assert_eq!(article_count(open(&url).await.as_ref()).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn import_news_loads_saved_feeds_keeps_what_a_truncated_file_holds_and_reports_bad_files() {
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", directory.path().join("news.db").display());
    let import = |files: &[&str]| {
        let mut arguments = vec!["import", "--news", "--news-window-days", ANY_AGE];
        let paths: Vec<String> = files.iter().map(|file| demo_news(file).display().to_string()).collect();
        arguments.extend(paths.iter().map(String::as_str));
        marketlens(&url, &arguments)
    };
    let good = run(import(&[
        "npr-news-fed-crypto-2025-03.xml",
        "vox-politics-2016-06.atom",
    ]))
    .await;
    assert!(good.status.success(), "{}", output_text(&good));
    let store = open(&url).await;
    let after_good = article_count(store.as_ref()).await;
    assert!(after_good >= 35, "{after_good}: {}", output_text(&good));

    let bad = run(import(&[
        "foxnews-truncated-2020-05.xml",
        "latimes-cloudfront-403-2021-10.xml",
        "npr-news-fed-crypto-2025-03.xml",
    ]))
    .await;
    let report = output_text(&bad);
    assert!(!bad.status.success(), "{report}");
    assert!(report.contains("cut off"), "{report}");
    assert!(report.contains("not imported"), "{report}");
    assert!(report.contains("2 of 3 files"), "{report}");
    // The truncated capture's four complete items are kept; the NPR file again adds nothing.
    assert_eq!(article_count(store.as_ref()).await, after_good + 4, "{report}");

    let missing = run(import(&["no-such-feed.xml"])).await;
    assert!(!missing.status.success());
    assert!(
        output_text(&missing).contains("cannot read"),
        "{}",
        output_text(&missing)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_polls_the_feeds_and_explain_cites_them() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", directory.path().join("serve.db").display());
    let imported = run(marketlens(
        &url,
        &[
            "import",
            "--exchange",
            "polymarket",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../demo-data/polymarket/gamma-events-1.json"
            ),
        ],
    ))
    .await;
    assert!(imported.status.success(), "{}", output_text(&imported));
    let port = free_port();
    let mut child = serve(&url, port)
        .env("MARKETLENS_POLYMARKET_URL", replay.polymarket_url())
        .env("MARKETLENS_KALSHI_URL", replay.kalshi_url())
        // February 2025: within the life of "Israel withdraws from Gaza in 2025?" (explain counts
        // only news of the market's own time).
        .env(
            "MARKETLENS_NEWS_FEEDS",
            replay.news_url("npr-news-superbowl-2025-02.xml"),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let ready = readyz_once(port, |body| {
        body["news"]["articlesInMemory"].as_u64().is_some_and(|count| count > 0)
    })
    .await;
    let Some(ready) = ready else {
        child.kill().unwrap();
        panic!("the news never reached the server");
    };
    let client = reqwest::Client::new();
    let feed = &ready["news"]["feeds"][0];
    assert_eq!(feed["lastError"], serde_json::Value::Null, "{ready}");
    assert!(feed["lastSuccessAt"].is_string(), "{ready}");

    let store = open(&url).await;
    let account = store
        .create_account(
            marketlens_storage::NewAccount {
                label: "news".into(),
                tier: "pro".into(),
                wallet_address: String::new(),
                initial_credits: 100,
            },
            chrono::Utc::now(),
        )
        .await
        .unwrap();
    let key = marketlens_domain::api_key::ApiKey::generate(&mut rand::rng());
    store
        .create_key(account.id, key.hash(), &key.truncated(), chrono::Utc::now())
        .await
        .unwrap();
    let body: serde_json::Value = client
        .get(format!(
            "http://127.0.0.1:{port}/api/v1/explain?query=Israel%20withdraws%20from%20Gaza"
        ))
        .bearer_auth(key.as_str())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let data = &body["data"];
    assert!(data["market"]["question"].as_str().unwrap().contains("Gaza"), "{body}");
    let factors = data["keyFactors"].as_array().unwrap();
    assert!(!factors.is_empty(), "{body}");
    let news_sources: Vec<&serde_json::Value> = data["sources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|source| source["type"] == "news-feed")
        .collect();
    assert!(!news_sources.is_empty(), "{body}");
    assert!(
        news_sources
            .iter()
            .all(|source| source["url"].as_str().unwrap().contains("npr.org")),
        "{body}"
    );
}

/// Operators put credentials in the URLs they configure; errors repeat those URLs. None of it
/// may show on `/readyz`, `/metrics` or in the logs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_shows_no_credential_of_a_configured_url() {
    const SECRET: &str = "s3cretTOKEN42";
    let replay = ReplayServer::start(ReplayData::recorded());
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", directory.path().join("serve.db").display());
    let port = free_port();
    // A feed that answers (its query string carries a key), one that cannot be reached, and an
    // exchange that cannot be reached, each with a credential in its URL.
    let good_feed = format!("{}?apikey={SECRET}", replay.news_url("coindesk-crypto-2023-03.xml"));
    let dead_feed = format!("http://reader:{SECRET}@127.0.0.1:9/feed.xml?apikey={SECRET}");
    let child = serve(&url, port)
        .env("MARKETLENS_POLYMARKET_URL", replay.polymarket_url())
        .env("MARKETLENS_KALSHI_URL", format!("http://operator:{SECRET}@127.0.0.1:9"))
        .env("MARKETLENS_NEWS_FEEDS", format!("{good_feed},{dead_feed}"))
        .env("MARKETLENS_SYNC_ATTEMPTS", "2")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let client = reqwest::Client::new();
    let started = Instant::now();
    let readiness = loop {
        if let Ok(response) = client.get(format!("http://127.0.0.1:{port}/readyz")).send().await {
            let text = response.text().await.unwrap();
            let body: serde_json::Value = serde_json::from_str(&text).unwrap();
            let feeds_polled = body["news"]["feeds"].as_array().is_some_and(|feeds| feeds.len() == 2);
            let kalshi_failed = body["sync"]["KALSHI"]["lastRunSucceeded"] == false;
            if feeds_polled && kalshi_failed {
                break text;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "the feeds and the Kalshi sync were never reported"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    let metrics = client
        .get(format!("http://127.0.0.1:{port}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let mut child = child;
    child.kill().unwrap();
    let logs = String::from_utf8_lossy(&child.wait_with_output().unwrap().stderr).into_owned();
    assert!(!readiness.contains(SECRET), "{readiness}");
    assert!(readiness.contains("127.0.0.1:9/feed.xml?***"), "{readiness}");
    assert!(!metrics.contains(SECRET));
    assert!(!logs.contains(SECRET), "{logs}");
    assert!(logs.contains("***"), "the failures were not logged at all: {logs}");
}
