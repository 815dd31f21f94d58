//! The account call: free, and always read afresh from the store (not from the key cache), so
//! that the balance it reports is the stored one and a key revoked a moment ago fails here
//! too.

use axum::Json;
use axum::extract::{RawQuery, State};
use marketlens_domain::account::AccountStatus;
use marketlens_domain::time::to_iso8601;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::params;

use crate::state::AppState;
use crate::views::{AccountView, CreditsView, DataEnvelope, RateLimitView, UserView};

/// The calling key's account: credits, tier and rate-limit window. Free.
#[utoipa::path(
    get,
    path = "/api/v1/account",
    operation_id = "getAccount",
    tag = "account",
    responses((status = 200, description = "The account (free).", body = DataEnvelope<AccountView>)),
    security(("bearer" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    RawQuery(query): RawQuery,
) -> Result<Json<DataEnvelope<AccountView>>, ApiError> {
    params::none(query.as_deref())?;
    let Some((key, account)) = state.store.authenticate(&caller.key_hash).await? else {
        state.keys.forget(&caller.key_hash);
        return Err(ApiError::InvalidApiKey);
    };
    if account.status == AccountStatus::Suspended {
        state.keys.forget(&caller.key_hash);
        return Err(ApiError::AccountSuspended);
    }
    Ok(Json(DataEnvelope {
        data: AccountView {
            api_key: key.display,
            credits: CreditsView {
                remaining: account.credits_remaining,
                purchased: account.credits_purchased,
                used: account.credits_used,
            },
            user: UserView {
                id: account.id.to_string(),
                wallet_address: account.wallet_address,
            },
            tier: account.tier,
            rate_limit: RateLimitView {
                requests_per_minute: caller.usage.limit,
                current_usage: caller.usage.used,
                resets_at: to_iso8601(caller.usage.resets_at),
            },
        },
    }))
}

/// This module's routes, each registered with its documentation.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get))
}
