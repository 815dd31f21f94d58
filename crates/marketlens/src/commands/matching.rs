//! `marketlens match --evaluate FILE` and `marketlens match --why ID_A ID_B`.
//!
//! Both print what the domain's matcher computes; this module only reads the file or the
//! two markets from the store. Output piped into a reader that stops early (`| head`) ends
//! the command quietly rather than in a panic.

use anyhow::{Context, bail};
use marketlens_domain::matching::evaluation::{parse, report};
use marketlens_domain::matching::{MatchInput, explain};
use marketlens_storage::{Store, StoredMarket};
use std::io::Write;
use std::process::ExitCode;
use uuid::Uuid;

use crate::cli::MatchArgs;

pub async fn run(store: &dyn Store, args: &MatchArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.evaluate {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let pairs = parse(&text).with_context(|| format!("{} is not a labelled set", path.display()))?;
        return print(&report(&pairs).to_string());
    }
    let Some([left, right]) = args.why.as_deref() else {
        bail!("give --evaluate FILE or --why ID_A ID_B");
    };
    let left = match_input(store, *left).await?;
    let right = match_input(store, *right).await?;
    let mut text = format!(
        "A: [{}] {}\nB: [{}] {}\n",
        left.exchange, left.question, right.exchange, right.question
    );
    if left.exchange == right.exchange {
        text += &format!("Both markets are on {}: the matcher never pairs them.\n", left.exchange);
    }
    let comparison = explain(&left, &right);
    text += &format!("{comparison}\nreason: {}", comparison.reason());
    print(&text)
}

/// Writes `text` and a newline to standard output; a reader that closed the pipe is not an
/// error.
fn print(text: &str) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
        _ => Ok(ExitCode::SUCCESS),
    }
}

async fn match_input(store: &dyn Store, id: Uuid) -> anyhow::Result<MatchInput> {
    let Some(StoredMarket { market, .. }) = store.get_market(id).await? else {
        bail!("no market with id {id}");
    };
    let event_title = match market.event_id() {
        Some(event_id) => store.get_event(event_id).await?.map(|stored| stored.event.title),
        None => None,
    };
    Ok(MatchInput::from_market(id, &market, event_title.as_deref()))
}
