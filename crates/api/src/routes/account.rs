use axum::Json;
use axum::extract::{RawQuery, State};
use marketlens_domain::billing::Operation;
use marketlens_domain::time::to_iso8601;

use crate::auth::Caller;
use crate::billing::charged;
use crate::error::ApiError;
use crate::params;
use crate::request_id::RequestId;
use crate::state::AppState;
use crate::views::{AccountView, CreditsView, DataEnvelope, RateLimitView, UserView};

pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    axum::Extension(request_id): axum::Extension<RequestId>,
    RawQuery(query): RawQuery,
) -> Result<Json<DataEnvelope<AccountView>>, ApiError> {
    params::none(query.as_deref())?;
    charged(&state, &caller, Operation::GetAccount, &request_id, async {
        let account = &caller.account;
        Ok(Json(DataEnvelope {
            data: AccountView {
                api_key: caller.key.display.clone(),
                credits: CreditsView {
                    remaining: account.credits_remaining,
                    purchased: account.credits_purchased,
                    used: account.credits_used,
                },
                user: UserView {
                    id: account.id.to_string(),
                    wallet_address: account.wallet_address.clone(),
                },
                tier: account.tier.clone(),
                rate_limit: RateLimitView {
                    requests_per_minute: caller.usage.limit,
                    current_usage: caller.usage.used,
                    resets_at: to_iso8601(caller.usage.resets_at),
                },
            },
        }))
    })
    .await
}
