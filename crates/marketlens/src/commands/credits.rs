//! `marketlens credits add ACCOUNT N`

use chrono::Utc;
use marketlens_storage::Store;
use std::process::ExitCode;

use crate::cli::CreditsCommand;

pub async fn run(store: &dyn Store, command: CreditsCommand) -> anyhow::Result<ExitCode> {
    match command {
        CreditsCommand::Add { account, credits } => {
            let account = store.add_credits(account, credits, Utc::now()).await?;
            println!(
                "Added {credits} credits to {}: {} remaining, {} purchased, {} used.",
                account.id, account.credits_remaining, account.credits_purchased, account.credits_used
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
