//! `marketlens demo`: a working API over real recorded exchange data, at once, its live
//! stream included (recorded streams, played on loopback).

use anyhow::Context;
use chrono::Utc;
use marketlens_domain::depth::DepthSource;
use marketlens_domain::{Exchange, ids};
use marketlens_storage::{NewAccount, Store};
use std::process::ExitCode;
use std::sync::Arc;
use tokio::net::TcpListener;

use crate::commands::{keys, serve};
use crate::config::{self, LiveStream, ServerConfig};
use marketlens_api::stream::FeedOrigin;
use marketlens_connectors::KalshiCredentials;
use marketlens_replay::{ReplayData, ReplayServer};
use marketlens_sync::depth::RecordedDepth;
use marketlens_sync::{import, matching};
use tokio::sync::{mpsc, watch};

use crate::fixtures::demo;

const DEMO_LABEL: &str = "demo";
const DEMO_TIER: &str = "pro";
const DEMO_CREDITS: i64 = 10_000;

pub async fn run(
    store: Arc<dyn Store>,
    mut config: ServerConfig,
    listener: TcpListener,
    news_window_set: bool,
) -> anyhow::Result<ExitCode> {
    // The recorded feeds are years old: the demo counts news of any age unless told otherwise.
    if !news_window_set {
        config.api.news_window = config::news_window(Some(config::MAX_NEWS_WINDOW_DAYS))?;
    }
    load_demo_data(store.as_ref()).await?;
    load_demo_news(store.as_ref(), config.api.news_window).await?;
    let account = match store.find_account_by_label(DEMO_LABEL).await? {
        Some(account) => account,
        None => {
            let new_account = NewAccount {
                label: DEMO_LABEL.to_owned(),
                tier: DEMO_TIER.to_owned(),
                wallet_address: String::new(),
                initial_credits: DEMO_CREDITS,
            };
            store.create_account(new_account, Utc::now()).await?
        }
    };
    let (_, key) = keys::issue(store.as_ref(), account.id).await?;
    let depth = RecordedDepth::new(demo::DEPTH_MANIFEST, demo::depth_file).context("the demo's depth recordings")?;
    let depth = Arc::new(depth);
    let base = format!("http://{}", listener.local_addr()?);
    let counts = store.catalog_counts().await?;
    println!();
    println!(
        "Marketlens demo: {} Polymarket and {} Kalshi markets, {} events, {} matched pairs.",
        counts.polymarket_markets, counts.kalshi_markets, counts.events, counts.match_pairs
    );
    println!(
        "Demo account {} ({} tier, {} credits left).",
        account.id, account.tier, account.credits_remaining
    );
    println!();
    println!("API key (new for this run): {}", key.as_str());
    println!();
    println!("Try (paste the export first; the curl lines read the key from $KEY):");
    println!("  export KEY={}", key.as_str());
    for (what, path) in tour() {
        println!("  # {what}");
        println!("  curl -s -H \"Authorization: Bearer $KEY\" '{base}{path}'");
    }
    println!("The reference, with a \"try it\" form for every call: {base}/docs");
    let mut streamed = Vec::new();
    for stream in depth.streams() {
        let id = ids::market_id(stream.exchange, &stream.market);
        tracing::info!(market = %id, recorded_from = stream.recorded_from, "the demo plays a recorded stream for this market");
        streamed.push(format!("{id} ({})", stream.market));
    }
    println!(
        "The live stream, a WebSocket at {}/api/v1/stream (docs/API.md, \"Live stream\"), plays recordings for {}.",
        base.replace("http://", "ws://"),
        streamed.join(" and ")
    );
    println!();
    println!("Another port: marketlens demo --bind 127.0.0.1:PORT (or MARKETLENS_BIND). Stop with Ctrl-C.");
    println!();
    // The demo serves the recorded data as it is: no background sync, the recorded books and
    // trades of the markets `demo-data/depth/recordings.json` names, and their recorded streams.
    let replay = ReplayServer::start(ReplayData::default());
    replay.loop_streams();
    // Its records of what clients send are for tests; the demo may run for days.
    replay.stop_recording_clients();
    let stream = recorded_stream(&replay, depth.clone()).await?;
    serve::serve(
        store,
        config,
        None,
        Some(depth as Arc<dyn DepthSource>),
        Some(stream),
        listener,
    )
    .await?;
    drop(replay);
    Ok(ExitCode::SUCCESS)
}

/// The demo's live stream: the exchanges' connectors, as `serve` runs them, against `replay`'s
/// recorded streams on loopback, which play each recording again and again with the time
/// they are sent (`demo-data/depth/recordings.json` names the recording of each market). A
/// key made for the occasion signs the Kalshi handshakes: the replay wants them signed, as
/// Kalshi does, but checks no key. The prices played are not written to the history: they
/// are a recording, not the markets' own.
async fn recorded_stream(replay: &ReplayServer, depth: Arc<RecordedDepth>) -> anyhow::Result<LiveStream> {
    // Making an RSA key takes long enough to hold up a runtime thread: not on one.
    let credentials = tokio::task::spawn_blocking(|| KalshiCredentials::throwaway("marketlens-demo"))
        .await
        .context("making the demo's Kalshi key")?;
    let (updates, received) = mpsc::channel(config::STREAM_UPDATES_CAPACITY);
    let feed = config::exchange_feeds(
        &replay.polymarket_ws_url(),
        &replay.kalshi_ws_url(),
        Some(credentials),
        updates,
    );
    Ok(LiveStream {
        feed,
        origin: FeedOrigin::Recording,
        updates: received,
        markets: depth,
        lease: watch::channel(None).0,
        prices: None,
    })
}

/// The calls the banner suggests, each with what it shows on the demo data: one market of
/// each kind the demo is good at (a question on both exchanges, one recorded three times),
/// and a query whose market has news of its own time in the demo feeds.
fn tour() -> [(&'static str, String); 7] {
    let matched = ids::market_id(Exchange::Polymarket, demo::MATCHED_MARKET);
    let recorded_thrice = ids::market_id(Exchange::Polymarket, demo::HISTORY_MARKET);
    let recorded_book = ids::market_id(Exchange::Kalshi, demo::DEPTH_MARKET);
    [
        (
            "markets of both exchanges, most traded first",
            "/api/v1/markets?limit=3&sortBy=volume".to_owned(),
        ),
        (
            "one market, with the market of the other exchange that asks the same question",
            format!("/api/v1/markets/{matched}"),
        ),
        (
            "the pairs the matcher is surest of, with both exchanges' prices, widest spread first",
            "/api/v1/spreads?minSimilarity=0.9&limit=5".to_owned(),
        ),
        (
            "explain: the market the words name, and key factors from news of its own time",
            format!("/api/v1/explain?query={}", demo::EXPLAIN_QUERY.replace(' ', "%20")),
        ),
        (
            "a market's price history (three recordings)",
            format!("/api/v1/markets/{recorded_thrice}/history"),
        ),
        (
            "an order book, as recorded (demo-data/depth/SOURCES.md): bids and asks of each outcome",
            format!("/api/v1/markets/{recorded_book}/orderbook"),
        ),
        ("your account: credits, tier, rate limit", "/api/v1/account".to_owned()),
    ]
}

/// Imports the built-in payloads when the store holds no market yet.
async fn load_demo_data(store: &dyn Store) -> anyhow::Result<()> {
    let counts = store.catalog_counts().await?;
    if counts.polymarket_markets + counts.kalshi_markets > 0 {
        tracing::info!("the store already holds markets; not loading the demo data");
        return Ok(());
    }
    println!("Loading the recorded Polymarket and Kalshi payloads into the store...");
    for file in demo::files() {
        let report = import::import_payload(store, file.exchange, file.bytes, file.recorded_at(), |_, _| {})
            .await
            .with_context(|| format!("importing the demo file {}", file.name))?;
        tracing::info!(
            file = file.name,
            new = report.stored.counts.markets_inserted,
            skipped = report.stored.skipped_total(),
            "demo file loaded"
        );
    }
    matching::rematch(store).await?;
    Ok(())
}

/// Imports the built-in news feeds when the store holds no article dated within `window`.
async fn load_demo_news(store: &dyn Store, window: chrono::TimeDelta) -> anyhow::Result<()> {
    let since = Utc::now() - window;
    if !store.articles_after(0, since, 1).await?.is_empty() {
        tracing::info!("the store already holds news; not loading the demo feeds");
        return Ok(());
    }
    let mut seen = marketlens_news::Deduplicator::new();
    for feed in demo::feeds() {
        let report = import::import_feed(store, feed.name, feed.bytes, &mut seen, since)
            .await
            .with_context(|| format!("importing the demo feed {}", feed.name))?;
        tracing::info!(feed = feed.name, new = report.stored.added, "demo feed loaded");
    }
    Ok(())
}
