//! `marketlens keys create|list|revoke`; `list --json` prints what the admin API's
//! `GET /admin/v1/accounts/{id}/keys` holds.

use chrono::Utc;
use marketlens_api::AdminKey;
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::time::to_iso8601;
use marketlens_storage::Store;
use std::process::ExitCode;
use uuid::Uuid;

use crate::cli::KeysCommand;

/// Makes a key for the account and stores only its hash. The key is returned to be shown
/// once.
pub async fn issue(store: &dyn Store, account_id: Uuid) -> anyhow::Result<(Uuid, ApiKey)> {
    let key = ApiKey::generate(&mut rand::rng());
    let record = store
        .create_key(account_id, key.hash(), &key.truncated(), Utc::now())
        .await?;
    Ok((record.id, key))
}

pub async fn run(store: &dyn Store, command: KeysCommand) -> anyhow::Result<ExitCode> {
    match command {
        KeysCommand::Create { account } => {
            let (key_id, key) = issue(store, account).await?;
            println!("key id   {key_id}");
            println!("api key  {}", key.as_str());
            println!("Store the key now: it is shown only this once (only its hash is kept).");
        }
        KeysCommand::List { account, format } => {
            let keys = store.list_keys(account).await?;
            if format.json {
                let keys: Vec<AdminKey> = keys.into_iter().map(AdminKey::from).collect();
                println!("{}", serde_json::to_string_pretty(&keys)?);
                return Ok(ExitCode::SUCCESS);
            }
            println!("{:<36}  {:<20}  {:<24}  revoked", "key id", "key", "created");
            for key in keys {
                let revoked = key.revoked_at.map(to_iso8601).unwrap_or_else(|| "-".to_owned());
                println!(
                    "{:<36}  {:<20}  {:<24}  {revoked}",
                    key.id,
                    key.display,
                    to_iso8601(key.created_at)
                );
            }
        }
        KeysCommand::Revoke { key } => {
            let record = store.revoke_key(key, Utc::now()).await?;
            println!(
                "Revoked {} ({}); it fails from its next request on.",
                record.id, record.display
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
