//! The operator's admin API under `/admin/v1`: accounts, tiers, suspension, credits, keys and
//! ledgers, the same store operations as the `marketlens accounts|keys|credits` commands, for
//! operators without a shell on the machine.
//!
//! It is off unless `MARKETLENS_ADMIN_TOKEN` is set; off, its paths do not exist (404). The
//! token is kept only as its SHA-256 digest and compared in constant time. Every action is
//! logged with what it changed, never with the token or a key. Errors have the API's one
//! shape.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use marketlens_domain::account::{Account, AccountStatus, ApiKeyRecord, LedgerEntry, LedgerKind};
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::time::to_iso8601;
use marketlens_storage::{NewAccount, StoreError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use uuid::Uuid;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ApiError;
use crate::params::{PathId, QueryParameters};
use crate::schemas::parameters::{integer, limit, query};
use crate::state::AppState;
use crate::views::DataEnvelope;
use crate::{auth, connections};
use utoipa::IntoParams;
use utoipa::openapi::path::{Parameter, ParameterIn};

/// The longest label or wallet address accepted.
const MAX_TEXT_LEN: usize = 128;
/// The most credits one call may add.
const MAX_CREDITS_ADDED: i64 = 1_000_000_000_000;
// utoipa's attributes take only literals: the request schemas below repeat these two bounds,
// and a test below holds the document to them.
pub(crate) const LEDGER_DEFAULT_LIMIT: u64 = 100;
pub(crate) const LEDGER_MAX_LIMIT: u64 = 1_000;
/// The largest `after` taken: the largest integer a JSON number holds exactly (2^53 - 1).
pub(crate) const LEDGER_MAX_AFTER: u64 = (1 << 53) - 1;

/// The admin routes, each registered with its documentation. `crate::app` serves them, behind
/// [`authorize`], only when an admin token is configured; off, their paths do not exist.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_account, list_accounts))
        .routes(routes!(get_account, update_account))
        .routes(routes!(add_credits))
        .routes(routes!(create_key, list_keys))
        .routes(routes!(revoke_key))
        .routes(routes!(ledger))
}

/// Lets a request with the admin token through.
pub(crate) async fn authorize(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(token) = &state.settings.admin_token else {
        return ApiError::not_found("No such path.").into_response();
    };
    let presented = match auth::bearer_token(request.headers()) {
        Ok(presented) => presented,
        Err(error) => return error.into_response(),
    };
    // The right token passes at once: comparing it costs no store read, and a client at a
    // throttled address (behind a proxy, everyone) must not lock the operator out.
    if let Some(presented) = presented
        && token.matches(presented)
    {
        return next.run(request).await;
    }
    tracing::warn!(path = %request.uri().path(), "admin call refused: missing or wrong token");
    if presented.is_some() {
        let peer = connections::peer_of(&request).map(|address| address.ip());
        // Dropped unredeemed: counted as a failure.
        if let Err(refusal) = state.failed_auth.attempt(peer) {
            return refusal.into_response();
        }
    }
    ApiError::InvalidAdminToken.into_response()
}

/// An account as the operator sees it.
// Also the shape of `marketlens accounts list --json`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminAccount {
    /// The account's id (a UUID).
    id: Uuid,
    /// The operator's note on the account; may be empty.
    label: String,
    /// The account's tier, which sets its requests per minute.
    tier: String,
    /// Whether the account's keys are served.
    #[schema(value_type = AccountStatusName)]
    status: &'static str,
    /// The owner's wallet address; an empty string when there is none.
    wallet_address: String,
    /// The account's credits.
    credits: AdminCredits,
    /// When the account was made (ISO 8601, UTC).
    #[schema(format = DateTime)]
    created_at: String,
}

/// An account's credits.
#[derive(Serialize, ToSchema)]
pub struct AdminCredits {
    /// Credits left to spend.
    remaining: i64,
    /// Credits added to the account in all.
    purchased: i64,
    /// Credits charged in all.
    used: i64,
}

impl From<Account> for AdminAccount {
    fn from(account: Account) -> Self {
        AdminAccount {
            id: account.id,
            label: account.label,
            tier: account.tier,
            status: account.status.as_str(),
            wallet_address: account.wallet_address,
            credits: AdminCredits {
                remaining: account.credits_remaining,
                purchased: account.credits_purchased,
                used: account.credits_used,
            },
            created_at: to_iso8601(account.created_at),
        }
    }
}

/// An API key as the operator sees it: never the key itself.
// Also the shape of `marketlens keys list --json`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminKey {
    /// The key's id (a UUID), which revoking names.
    id: Uuid,
    /// The id of the account the key charges.
    account_id: Uuid,
    /// The truncated form; the key itself is shown only when it is made.
    display: String,
    /// When the key was made (ISO 8601, UTC).
    #[schema(format = DateTime)]
    created_at: String,
    /// `null` while the key is live.
    #[schema(format = DateTime)]
    revoked_at: Option<String>,
}

impl From<ApiKeyRecord> for AdminKey {
    fn from(key: ApiKeyRecord) -> Self {
        AdminKey {
            id: key.id,
            account_id: key.account_id,
            display: key.display,
            created_at: to_iso8601(key.created_at),
            revoked_at: key.revoked_at.map(to_iso8601),
        }
    }
}

/// A key just made: the only time the key itself is shown.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NewKey {
    /// The key's id (a UUID), which revoking names.
    id: Uuid,
    /// The key itself, to send as `Authorization: Bearer <key>`. Shown only now: the server keeps
    /// only its hash.
    api_key: String,
    /// The key's truncated form, as the account and key lists show it.
    display: String,
}

/// A line of an account's ledger: credits added, or a call's charge.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LedgerLine {
    /// The line's number, increasing in the order lines were written; `after` pages by it.
    id: i64,
    /// The key that made the charged call; `null` for credits added.
    api_key_id: Option<Uuid>,
    /// `credit` (credits added) or `charge` (a call).
    #[schema(value_type = LedgerKindName)]
    kind: &'static str,
    /// The operation charged (`listMarkets`, `explain`, ...); `null` for credits added.
    operation: Option<String>,
    /// Always positive; the kind says which way it moved the balance.
    credits: i64,
    /// The server's id of the charged request (`X-Server-Request-Id`), which the logs know it by;
    /// `null` for credits added.
    request_id: Option<String>,
    /// When the line was written (ISO 8601, UTC).
    #[schema(format = DateTime)]
    created_at: String,
}

/// A page of a ledger.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LedgerPage {
    /// The page's lines, oldest first.
    data: Vec<LedgerLine>,
    /// The `after` of the next page; `null` on the last.
    next_after: Option<i64>,
}

/// A new account and its first key.
#[derive(Serialize, ToSchema)]
pub(crate) struct CreatedAccount {
    /// The new account.
    account: AdminAccount,
    /// Its first key, shown this once.
    key: NewKey,
}

crate::schemas::string_set! {
    /// Whether an account's keys are served (`active`) or refused with 403 (`suspended`).
    AccountStatusName, named "AccountStatus", = [AccountStatus::Active.as_str(), AccountStatus::Suspended.as_str()]
}

crate::schemas::string_set! {
    /// A ledger line's kind: `credit` (credits added) or `charge` (a call's cost).
    LedgerKindName, named "LedgerKind", = [LedgerKind::Credit.as_str(), LedgerKind::Charge.as_str(), LedgerKind::Refund.as_str()]
}

impl From<LedgerEntry> for LedgerLine {
    fn from(entry: LedgerEntry) -> Self {
        LedgerLine {
            id: entry.id,
            api_key_id: entry.api_key_id,
            kind: entry.kind.as_str(),
            operation: entry.operation,
            credits: entry.credits,
            request_id: entry.request_id,
            created_at: to_iso8601(entry.created_at),
        }
    }
}

/// A store error as an admin caller should see it: an unknown id is a 404.
fn store_error(error: StoreError) -> ApiError {
    match error {
        StoreError::NotFound(what) => ApiError::not_found(format!("No {what} has this id.")),
        other => other.into(),
    }
}

fn parse_id(id: &str, what: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(id).map_err(|_| ApiError::not_found(format!("No {what} has id {id:?}.")))
}

/// A JSON object of type `T` (unknown fields refused), sent as `application/json`.
fn json_body<T: DeserializeOwned>(headers: &HeaderMap, body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let body = crate::params::json_body_bytes(headers, body)?;
    let value: serde_json::Value = serde_json::from_slice(&body).map_err(|error| ApiError::InvalidJson {
        message: format!("The body is not valid JSON: {error}."),
    })?;
    // serde would take a list for a struct, field by field: only an object is a request.
    if !value.is_object() {
        return Err(ApiError::InvalidJson {
            message: "The body must be a JSON object.".to_owned(),
        });
    }
    T::deserialize(value).map_err(|error| ApiError::InvalidJson {
        message: format!("The body does not fit this call: {error}."),
    })
}

fn known_tier(state: &AppState, tier: &str) -> Result<(), ApiError> {
    if state.settings.tiers.requests_per_minute(tier).is_some() {
        return Ok(());
    }
    let tiers: Vec<&str> = state.settings.tiers.names().collect();
    Err(ApiError::invalid_parameter(
        "tier",
        format!("Unknown tier {tier:?}: expected one of {}.", tiers.join(", ")),
        json!({ "allowed": tiers }),
    ))
}

fn bounded_text(name: &str, text: &str) -> Result<(), ApiError> {
    if text.chars().count() > MAX_TEXT_LEN {
        return Err(ApiError::invalid_parameter(
            name,
            format!("{name} is longer than {MAX_TEXT_LEN} characters."),
            json!({ "maximumLength": MAX_TEXT_LEN }),
        ));
    }
    Ok(())
}

async fn make_key(state: &AppState, account_id: Uuid) -> Result<NewKey, ApiError> {
    let key = ApiKey::generate(&mut rand::rng());
    let record = state
        .store
        .create_key(account_id, key.hash(), &key.truncated(), Utc::now())
        .await
        .map_err(store_error)?;
    Ok(NewKey {
        id: record.id,
        api_key: key.as_str().to_owned(),
        display: record.display,
    })
}

/// A new account: its tier, and optionally its starting credits, wallet address and label.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateAccount {
    /// One of the tiers the server is configured with.
    tier: String,
    /// Credits to start with.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1_000_000_000_000_i64)]
    credits: i64,
    /// The owner's wallet address, if any.
    #[serde(default)]
    #[schema(max_length = 128)]
    wallet_address: String,
    /// A note for the operator, e.g. who the account is for.
    #[serde(default)]
    #[schema(max_length = 128)]
    label: String,
}

/// Make an account and its first key.
#[utoipa::path(
    post,
    path = "/admin/v1/accounts",
    operation_id = "adminCreateAccount",
    tag = "admin",
    request_body(content = CreateAccount, content_type = "application/json"),
    responses((status = 201, description = "The account and its first key, shown this once.", body = DataEnvelope<CreatedAccount>)),
    security(("admin" = []))
)]
pub(crate) async fn create_account(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    QueryParameters::parse(query.as_deref(), &[])?;
    let request: CreateAccount = json_body(&headers, body)?;
    known_tier(&state, &request.tier)?;
    if !(0..=MAX_CREDITS_ADDED).contains(&request.credits) {
        return Err(ApiError::invalid_parameter(
            "credits",
            format!("credits must be from 0 to {MAX_CREDITS_ADDED}."),
            json!({ "minimum": 0, "maximum": MAX_CREDITS_ADDED }),
        ));
    }
    bounded_text("walletAddress", &request.wallet_address)?;
    bounded_text("label", &request.label)?;
    let account = state
        .store
        .create_account(
            NewAccount {
                label: request.label,
                tier: request.tier,
                wallet_address: request.wallet_address,
                initial_credits: request.credits,
            },
            Utc::now(),
        )
        .await
        .map_err(store_error)?;
    let key = make_key(&state, account.id).await?;
    tracing::info!(action = "create_account", account = %account.id, tier = %account.tier, credits = account.credits_remaining, key_id = %key.id, "admin action");
    let created = CreatedAccount {
        account: account.into(),
        key,
    };
    Ok((StatusCode::CREATED, Json(DataEnvelope { data: created })).into_response())
}

/// Every account, oldest first.
#[utoipa::path(
    get,
    path = "/admin/v1/accounts",
    operation_id = "adminListAccounts",
    tag = "admin",
    responses((status = 200, description = "Every account, oldest first.", body = DataEnvelope<Vec<AdminAccount>>)),
    security(("admin" = []))
)]
pub(crate) async fn list_accounts(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<DataEnvelope<Vec<AdminAccount>>>, ApiError> {
    QueryParameters::parse(query.as_deref(), &[])?;
    let accounts = state.store.list_accounts().await.map_err(store_error)?;
    Ok(Json(DataEnvelope {
        data: accounts.into_iter().map(AdminAccount::from).collect(),
    }))
}

async fn account(state: &AppState, id: &str) -> Result<Account, ApiError> {
    let account_id = parse_id(id, "account")?;
    state
        .store
        .get_account(account_id)
        .await
        .map_err(store_error)?
        .ok_or_else(|| ApiError::not_found(format!("No account has id {id:?}.")))
}

/// One account, with its credits.
#[utoipa::path(
    get,
    path = "/admin/v1/accounts/{id}",
    operation_id = "adminGetAccount",
    tag = "admin",
    params(("id" = uuid::Uuid, Path, description = "The account's id.")),
    responses((status = 200, description = "The account.", body = DataEnvelope<AdminAccount>)),
    security(("admin" = []))
)]
pub(crate) async fn get_account(
    State(state): State<AppState>,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
) -> Result<Json<DataEnvelope<AdminAccount>>, ApiError> {
    QueryParameters::parse(query.as_deref(), &[])?;
    Ok(Json(DataEnvelope {
        data: account(&state, &id).await?.into(),
    }))
}

/// What to change in an account: its tier, its status, or both; at least one.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct UpdateAccount {
    /// One of the tiers the server is configured with.
    tier: Option<String>,
    /// `suspended` to refuse the account's keys with 403, `active` to serve them again.
    #[schema(value_type = Option<AccountStatusName>, required = false)]
    status: Option<String>,
}

/// Change an account's tier, or suspend it or make it active again.
#[utoipa::path(
    patch,
    path = "/admin/v1/accounts/{id}",
    operation_id = "adminUpdateAccount",
    tag = "admin",
    params(("id" = uuid::Uuid, Path, description = "The account's id.")),
    request_body(content = UpdateAccount, content_type = "application/json"),
    responses((status = 200, description = "The account as changed.", body = DataEnvelope<AdminAccount>)),
    security(("admin" = []))
)]
pub(crate) async fn update_account(
    State(state): State<AppState>,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<DataEnvelope<AdminAccount>>, ApiError> {
    QueryParameters::parse(query.as_deref(), &[])?;
    let request: UpdateAccount = json_body(&headers, body)?;
    let status = match request.status.as_deref() {
        None => None,
        Some(text) => Some(text.parse::<AccountStatus>().map_err(|_| {
            ApiError::invalid_parameter(
                "status",
                format!("status must be active or suspended; got {text:?}."),
                json!({ "allowed": ["active", "suspended"] }),
            )
        })?),
    };
    if let Some(tier) = &request.tier {
        known_tier(&state, tier)?;
    }
    if status.is_none() && request.tier.is_none() {
        return Err(ApiError::InvalidJson {
            message: "Give tier, status or both.".to_owned(),
        });
    }
    let mut updated = account(&state, &id).await?;
    if let Some(tier) = &request.tier {
        updated = state
            .store
            .set_account_tier(updated.id, tier)
            .await
            .map_err(store_error)?;
    }
    if let Some(status) = status {
        updated = state
            .store
            .set_account_status(updated.id, status)
            .await
            .map_err(store_error)?;
    }
    // This node applies it at once; other nodes within the key cache's few seconds.
    state.keys.forget_all();
    tracing::info!(action = "update_account", account = %updated.id, tier = %updated.tier, status = updated.status.as_str(), "admin action");
    Ok(Json(DataEnvelope { data: updated.into() }))
}

/// Credits to add to an account.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct AddCredits {
    /// How many credits to add; raises both purchased and remaining.
    #[schema(minimum = 1, maximum = 1_000_000_000_000_i64)]
    credits: i64,
}

/// Add credits to an account: raises purchased and remaining, with a ledger line.
#[utoipa::path(
    post,
    path = "/admin/v1/accounts/{id}/credits",
    operation_id = "adminAddCredits",
    tag = "admin",
    params(("id" = uuid::Uuid, Path, description = "The account's id.")),
    request_body(content = AddCredits, content_type = "application/json"),
    responses((status = 200, description = "The account with its new balance.", body = DataEnvelope<AdminAccount>)),
    security(("admin" = []))
)]
pub(crate) async fn add_credits(
    State(state): State<AppState>,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<DataEnvelope<AdminAccount>>, ApiError> {
    QueryParameters::parse(query.as_deref(), &[])?;
    let request: AddCredits = json_body(&headers, body)?;
    if !(1..=MAX_CREDITS_ADDED).contains(&request.credits) {
        return Err(ApiError::invalid_parameter(
            "credits",
            format!("credits must be from 1 to {MAX_CREDITS_ADDED}."),
            json!({ "minimum": 1, "maximum": MAX_CREDITS_ADDED }),
        ));
    }
    let account_id = account(&state, &id).await?.id;
    let updated = state
        .store
        .add_credits(account_id, request.credits, Utc::now())
        .await
        .map_err(store_error)?;
    tracing::info!(action = "add_credits", account = %updated.id, credits = request.credits, remaining = updated.credits_remaining, "admin action");
    Ok(Json(DataEnvelope { data: updated.into() }))
}

/// Make a new key for an account, shown this once.
#[utoipa::path(
    post,
    path = "/admin/v1/accounts/{id}/keys",
    operation_id = "adminCreateKey",
    tag = "admin",
    params(("id" = uuid::Uuid, Path, description = "The account's id.")),
    responses((status = 201, description = "The key, shown this once.", body = DataEnvelope<NewKey>)),
    security(("admin" = []))
)]
pub(crate) async fn create_key(
    State(state): State<AppState>,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    QueryParameters::parse(query.as_deref(), &[])?;
    let account_id = account(&state, &id).await?.id;
    let key = make_key(&state, account_id).await?;
    tracing::info!(action = "create_key", account = %account_id, key_id = %key.id, "admin action");
    Ok((StatusCode::CREATED, Json(DataEnvelope { data: key })).into_response())
}

/// An account's keys, revoked ones included, never the keys themselves.
#[utoipa::path(
    get,
    path = "/admin/v1/accounts/{id}/keys",
    operation_id = "adminListKeys",
    tag = "admin",
    params(("id" = uuid::Uuid, Path, description = "The account's id.")),
    responses((status = 200, description = "Its keys, revoked ones included, truncated.", body = DataEnvelope<Vec<AdminKey>>)),
    security(("admin" = []))
)]
pub(crate) async fn list_keys(
    State(state): State<AppState>,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
) -> Result<Json<DataEnvelope<Vec<AdminKey>>>, ApiError> {
    QueryParameters::parse(query.as_deref(), &[])?;
    let account_id = account(&state, &id).await?.id;
    let keys = state.store.list_keys(account_id).await.map_err(store_error)?;
    Ok(Json(DataEnvelope {
        data: keys.into_iter().map(AdminKey::from).collect(),
    }))
}

/// Revoke a key: refused from its next request on; revoking again changes nothing.
#[utoipa::path(
    delete,
    path = "/admin/v1/keys/{id}",
    operation_id = "adminRevokeKey",
    tag = "admin",
    params(("id" = uuid::Uuid, Path, description = "The key's id.")),
    responses((status = 200, description = "The key, revoked.", body = DataEnvelope<AdminKey>)),
    security(("admin" = []))
)]
pub(crate) async fn revoke_key(
    State(state): State<AppState>,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
) -> Result<Json<DataEnvelope<AdminKey>>, ApiError> {
    QueryParameters::parse(query.as_deref(), &[])?;
    let key_id = parse_id(&id, "key")?;
    let record = state.store.revoke_key(key_id, Utc::now()).await.map_err(store_error)?;
    state.keys.forget_all();
    tracing::info!(action = "revoke_key", account = %record.account_id, key_id = %record.id, "admin action");
    Ok(Json(DataEnvelope { data: record.into() }))
}

/// An account's ledger: its lines after line `after`, oldest first; `nextAfter` continues
/// the listing.
#[utoipa::path(
    get,
    path = "/admin/v1/accounts/{id}/ledger",
    operation_id = "adminGetLedger",
    tag = "admin",
    params(("id" = uuid::Uuid, Path, description = "The account's id."), LedgerParameters),
    responses((status = 200, description = "A page of its ledger, oldest first.", body = LedgerPage)),
    security(("admin" = []))
)]
pub(crate) async fn ledger(
    State(state): State<AppState>,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
) -> Result<Json<LedgerPage>, ApiError> {
    let parameters = QueryParameters::parse(query.as_deref(), &["after", "limit"])?;
    let limit = parameters.integer("limit", LEDGER_DEFAULT_LIMIT, 1, LEDGER_MAX_LIMIT)?;
    let after = match parameters.text("after") {
        None => None,
        Some(_) => Some(parameters.integer("after", 0, 0, LEDGER_MAX_AFTER)? as i64),
    };
    let account_id = account(&state, &id).await?.id;
    let lines = state
        .store
        .ledger(account_id, after, limit as u32)
        .await
        .map_err(store_error)?;
    let next_after = (lines.len() as u64 == limit)
        .then(|| lines.last().map(|line| line.id))
        .flatten();
    Ok(Json(LedgerPage {
        data: lines.into_iter().map(LedgerLine::from).collect(),
        next_after,
    }))
}

/// `GET /admin/v1/accounts/{id}/ledger`.
pub struct LedgerParameters;

impl IntoParams for LedgerParameters {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            query(
                "after",
                "The id of the last line already read (the previous page's `nextAfter`).",
                false,
                integer(0, 0, LEDGER_MAX_AFTER).default(None),
            ),
            limit(LEDGER_DEFAULT_LIMIT, LEDGER_MAX_LIMIT),
        ]
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::{MAX_CREDITS_ADDED, MAX_TEXT_LEN};

    /// The request schemas repeat the bounds as literals; they must be the enforced ones.
    #[test]
    fn the_documented_body_bounds_are_the_enforced_ones() {
        let document: Value = serde_json::from_str(crate::openapi::document_json()).unwrap();
        let schemas = &document["components"]["schemas"];
        let create = &schemas["CreateAccount"]["properties"];
        assert_eq!(create["credits"]["maximum"].as_i64(), Some(MAX_CREDITS_ADDED));
        assert_eq!(create["credits"]["minimum"].as_i64(), Some(0));
        for field in ["label", "walletAddress"] {
            assert_eq!(
                create[field]["maxLength"].as_u64(),
                Some(MAX_TEXT_LEN as u64),
                "{field}"
            );
        }
        let add = &schemas["AddCredits"]["properties"]["credits"];
        assert_eq!(add["maximum"].as_i64(), Some(MAX_CREDITS_ADDED));
        assert_eq!(add["minimum"].as_i64(), Some(1));
    }
}
