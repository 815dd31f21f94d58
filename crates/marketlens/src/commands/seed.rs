//! `marketlens seed --synthetic N`: fills the store with N synthetic markets (and their
//! events) drawn from the recorded ones, for benchmarks at sizes the recordings do not reach.
//! Writes go through the same upsert as `import` and `sync`, so the time it reports is the
//! store's import speed. `--articles N` stores N news articles drawn from the recorded feeds
//! (see `synthetic_news`), for explain at the size the news window holds. `--history N` gives
//! N markets a year of price history (see `synthetic_history`).

use anyhow::{Context, bail};
use chrono::Utc;
use indicatif::{ProgressBar, ProgressStyle};
use marketlens_domain::article::Article;
use marketlens_domain::history::HistoryBar;
use marketlens_domain::{Event, Market};
use marketlens_exchanges::normalize;
use marketlens_news::parse_feed;
use marketlens_storage::Store;
use std::time::Instant;

use crate::fixtures::synthetic::{Generator, Templates};
use crate::fixtures::synthetic_history::SyntheticHistory;
use crate::fixtures::synthetic_news::SyntheticNews;
use marketlens_sync::matching;

use crate::fixtures::demo;

/// Markets written per upsert (one transaction each). Into an empty store, larger
/// transactions write each B-tree page they change once for more markets (WAL frames and
/// checkpoints were a third of a million-market seed's time at 5,000).
const BATCH_MARKETS: usize = 25_000;

pub async fn run(store: &dyn Store, markets: u64, seed: u64) -> anyhow::Result<()> {
    if markets == 0 {
        bail!("--synthetic must be at least 1");
    }
    let templates = templates()?;
    // Batches are generated on a thread of their own while the store writes the previous one.
    let (batches, mut generated) = tokio::sync::mpsc::channel::<(Vec<Market>, Vec<Event>)>(2);
    let generating = tokio::task::spawn_blocking(move || {
        let mut generator = Generator::new(&templates, seed);
        let mut planned = 0u64;
        while planned < markets {
            let mut batch_markets: Vec<Market> = Vec::with_capacity(BATCH_MARKETS + 64);
            let mut batch_events: Vec<Event> = Vec::new();
            while batch_markets.len() < BATCH_MARKETS && planned + (batch_markets.len() as u64) < markets {
                let left = markets - planned - batch_markets.len() as u64;
                let synthetic = generator.next_event(usize::try_from(left).unwrap_or(usize::MAX));
                batch_events.push(synthetic.event);
                batch_markets.extend(synthetic.markets);
            }
            planned += batch_markets.len() as u64;
            if batches.blocking_send((batch_markets, batch_events)).is_err() {
                return;
            }
        }
    });
    let progress = ProgressBar::new(markets);
    progress.set_style(
        ProgressStyle::with_template("seeding [{bar:30}] {pos}/{len} markets ({per_sec}, {eta} left)")
            .context("progress template")?
            .progress_chars("=> "),
    );
    let started = Instant::now();
    // Into an empty store, a bulk load: the same upserts, indexes built once at the end.
    let bulk = store.begin_bulk_load().await?;
    let (mut written, mut events_written) = (0u64, 0u64);
    let loaded: anyhow::Result<()> = async {
        while let Some((batch_markets, batch_events)) = generated.recv().await {
            store.upsert(&batch_markets, &batch_events, Utc::now()).await?;
            written += batch_markets.len() as u64;
            events_written += batch_events.len() as u64;
            progress.set_position(written);
        }
        Ok(())
    }
    .await;
    progress.finish_and_clear();
    if bulk {
        // Even after a failed load: a server open on the same store would otherwise go on
        // without the indexes until it is next opened.
        let indexing = Instant::now();
        store.finish_bulk_load().await?;
        tracing::info!(seconds = indexing.elapsed().as_secs_f64(), "bulk load indexed");
    }
    loaded?;
    generating.await.context("the generator stopped")?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "Seeded {written} synthetic markets and {events_written} events (seed {seed}) in {seconds:.1} s: {:.0} markets per second.",
        written as f64 / seconds
    );
    let matching = Instant::now();
    let pairs = matching::rematch(store).await?;
    println!(
        "Cross-exchange matched pairs: {pairs} ({:.1} s).",
        matching.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Articles written per insert (one transaction each).
const BATCH_ARTICLES: usize = 5_000;

pub async fn articles(store: &dyn Store, count: u64, seed: u64) -> anyhow::Result<()> {
    let mut recorded = Vec::new();
    for feed in demo::feeds() {
        match parse_feed(feed.bytes, feed.name, Utc::now()) {
            Ok(parsed) => recorded.extend(parsed.articles),
            Err(error) => bail!("the demo feed {}: {error}", feed.name),
        }
    }
    let mut generator = SyntheticNews::new(&recorded, seed, Utc::now());
    let progress = ProgressBar::new(count);
    progress.set_style(
        ProgressStyle::with_template("seeding [{bar:30}] {pos}/{len} articles ({per_sec}, {eta} left)")
            .context("progress template")?
            .progress_chars("=> "),
    );
    let started = Instant::now();
    let mut added = 0u64;
    let mut left = count;
    while left > 0 {
        let size = left.min(BATCH_ARTICLES as u64);
        let batch: Vec<Article> = (0..size).map(|_| generator.next_article()).collect();
        added += store.insert_articles(&batch).await?;
        left -= size;
        progress.inc(size);
    }
    progress.finish_and_clear();
    println!(
        "Seeded {added} synthetic articles (seed {seed}) in {:.1} s.",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Gives the first `count` stored markets (by id) a year of price history: the most a market
/// holds under the default retention (see `synthetic_history`).
pub async fn history(store: &dyn Store, count: u64, seed: u64) -> anyhow::Result<()> {
    let mut generator = SyntheticHistory::new(seed, Utc::now());
    let progress = ProgressBar::new(count);
    progress.set_style(
        ProgressStyle::with_template("seeding [{bar:30}] {pos}/{len} markets' history ({per_sec}, {eta} left)")
            .context("progress template")?
            .progress_chars("=> "),
    );
    let started = Instant::now();
    let (mut markets, mut bars, mut after) = (0u64, 0u64, None);
    while markets < count {
        let page = store
            .market_summaries(
                after,
                u32::try_from((count - markets).min(BATCH_HISTORY_MARKETS)).unwrap_or(1),
            )
            .await?;
        let Some(last) = page.last() else { break };
        after = Some(last.id);
        let batch: Vec<(uuid::Uuid, HistoryBar)> = page
            .iter()
            .flat_map(|market| generator.bars(market).into_iter().map(move |bar| (market.id, bar)))
            .collect();
        store.replace_history(&batch).await?;
        markets += page.len() as u64;
        bars += batch.len() as u64;
        progress.set_position(markets);
    }
    progress.finish_and_clear();
    println!(
        "Seeded a year of price history for {markets} markets ({bars} bars, seed {seed}) in {:.1} s.",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Markets whose history one transaction writes (about 4,300 bars each).
const BATCH_HISTORY_MARKETS: u64 = 50;

/// The recorded markets and events the synthetic ones are drawn from.
fn templates() -> anyhow::Result<Templates> {
    let (mut markets, mut events) = (Vec::new(), Vec::new());
    for file in demo::files() {
        let (_, normalized) =
            normalize(file.exchange, file.bytes).with_context(|| format!("the demo file {}", file.name))?;
        markets.extend(normalized.markets);
        events.extend(normalized.events);
    }
    Ok(Templates::new(markets, &events))
}
