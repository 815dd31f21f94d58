//! How long keeping matches current takes at scale: a full start of the incremental matcher
//! over a store, then an update after a sync-like change of K markets.
//!
//! ```sh
//! cargo run --release -p marketlens --example incremental_match -- sqlite://COPY_OF_STORE.db 1000
//! ```
//!
//! It changes the store: K markets of the second exchange are restated with the question, end
//! date and outcome names of K markets of the first (as a sync that brings new listings
//! would), so run it on a copy.

use chrono::{TimeDelta, Utc};
use marketlens_domain::Exchange;
use marketlens_sync::matching::IncrementalMatcher;
use std::time::Instant;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut arguments = std::env::args().skip(1);
    let url = arguments.next().expect("a store URL");
    let changed: usize = arguments.next().map_or(Ok(1_000), |count| count.parse())?;
    let store = marketlens_storage::open(&url).await?;

    let started = Instant::now();
    let (mut matcher, pairs) = IncrementalMatcher::start(store.as_ref()).await?;
    println!("full start: {pairs} pairs in {:.1} s", started.elapsed().as_secs_f64());

    let mut models = Vec::new();
    let mut targets = Vec::new();
    let mut after = None;
    while models.len() < changed || targets.len() < changed {
        let page = store.market_summaries(after, 5_000).await?;
        let Some(last) = page.last() else { break };
        after = Some(last.id);
        for summary in page {
            match summary.exchange {
                Exchange::Polymarket if models.len() < changed => models.push(summary.id),
                Exchange::Kalshi if targets.len() < changed => targets.push(summary.id),
                _ => {}
            }
        }
    }
    let mut restated = Vec::new();
    for (target, model) in targets.iter().zip(&models) {
        let model = store.get_market(*model).await?.expect("a stored market").market;
        let mut market = store.get_market(*target).await?.expect("a stored market").market;
        market.question = model.question.clone();
        market.end_date = model.end_date;
        for (outcome, named) in market.outcomes.iter_mut().zip(&model.outcomes) {
            outcome.name = named.name.clone();
        }
        market.source_updated_at = Some(Utc::now() + TimeDelta::days(1));
        restated.push(market);
    }
    store.upsert(&restated, &[], Utc::now()).await?;

    let update = matcher.update(store.as_ref()).await?;
    println!(
        "update after {} changed markets: {} read, {} rescored, {} markets' matches rewritten, in {:.2} s",
        restated.len(),
        update.read,
        update.rescored,
        update.markets_rewritten,
        update.took.as_secs_f64()
    );
    let idle = matcher.update(store.as_ref()).await?;
    println!("update with nothing changed: {:.2} s", idle.took.as_secs_f64());
    Ok(())
}
