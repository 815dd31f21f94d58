//! `marketlens accounts create|list|suspend|activate`; `list --json` prints what the admin
//! API's `GET /admin/v1/accounts` holds.

use anyhow::bail;
use chrono::Utc;
use marketlens_api::AdminAccount;
use marketlens_domain::account::{Account, AccountStatus};
use marketlens_domain::rate_limit::TierTable;
use marketlens_storage::NewAccount;
use std::process::ExitCode;

use crate::cli::AccountsCommand;
use crate::commands::{keys, open_store};

/// The longest wallet address or label accepted.
const MAX_TEXT_LEN: usize = 128;

/// Runs an accounts command on the store at `database_url`, opened only once a new account's
/// fields are known good.
pub async fn run(database_url: &str, tiers: &TierTable, command: AccountsCommand) -> anyhow::Result<ExitCode> {
    match command {
        AccountsCommand::Create {
            tier,
            credits,
            wallet,
            label,
        } => {
            let new_account = new_account(tiers, tier, credits, wallet, label)?;
            let store = open_store(database_url).await?;
            let account = store.create_account(new_account, Utc::now()).await?;
            let (key_id, key) = keys::issue(store.as_ref(), account.id).await?;
            println!("account  {}", account.id);
            println!("key id   {key_id}");
            println!("api key  {}", key.as_str());
            println!("Store the key now: it is shown only this once (only its hash is kept).");
        }
        AccountsCommand::List { format } => {
            let store = open_store(database_url).await?;
            let accounts = store.list_accounts().await?;
            if format.json {
                let accounts: Vec<AdminAccount> = accounts.into_iter().map(AdminAccount::from).collect();
                println!("{}", serde_json::to_string_pretty(&accounts)?);
                return Ok(ExitCode::SUCCESS);
            }
            println!(
                "{:<36}  {:<12}  {:<10}  {:<9}  {:>10}  {:>10}  {:>10}  wallet",
                "account", "label", "tier", "status", "remaining", "purchased", "used"
            );
            for account in accounts {
                print_account(&account);
            }
        }
        AccountsCommand::Suspend { account } => {
            let store = open_store(database_url).await?;
            let account = store.set_account_status(account, AccountStatus::Suspended).await?;
            println!(
                "Suspended {}: every call is refused with 403 until it is activated.",
                account.id
            );
        }
        AccountsCommand::Activate { account } => {
            let store = open_store(database_url).await?;
            let account = store.set_account_status(account, AccountStatus::Active).await?;
            println!("Activated {}.", account.id);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A new account's fields, checked: a known tier, credits not negative, short texts.
fn new_account(
    tiers: &TierTable,
    tier: String,
    credits: i64,
    wallet: String,
    label: String,
) -> anyhow::Result<NewAccount> {
    if tiers.requests_per_minute(&tier).is_none() {
        bail!(
            "unknown tier {tier:?}: expected one of {}",
            tiers.names().collect::<Vec<_>>().join(", ")
        );
    }
    if credits < 0 {
        bail!("--credits cannot be negative");
    }
    if wallet.len() > MAX_TEXT_LEN || label.len() > MAX_TEXT_LEN {
        bail!("--wallet and --label are at most {MAX_TEXT_LEN} characters");
    }
    Ok(NewAccount {
        label,
        tier,
        wallet_address: wallet,
        initial_credits: credits,
    })
}

fn print_account(account: &Account) {
    println!(
        "{:<36}  {:<12}  {:<10}  {:<9}  {:>10}  {:>10}  {:>10}  {}",
        account.id,
        account.label,
        account.tier,
        account.status.as_str(),
        account.credits_remaining,
        account.credits_purchased,
        account.credits_used,
        account.wallet_address
    );
}
