//! Authentication and the rate limit, the first two checks of every API call
//! (`docs/contract/decisions.md#d4-order`: authentication, then rate limit, then parameters, then
//! credits, then work).
//!
//! On success the request gains a [`Caller`] extension and the response gains the
//! `X-RateLimit-*` headers.

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use marketlens_domain::account::{Account, AccountStatus, ApiKeyRecord};
use marketlens_domain::api_key::{ApiKey, KeyHash};
use marketlens_domain::time::to_iso8601;
use marketlens_storage::StoreError;
use std::net::IpAddr;

use crate::connections;
use crate::error::ApiError;
use crate::rate_limit::WindowUsage;
use crate::state::AppState;

/// The tier whose limit applies when an account's tier is missing from the configured table
/// (an operator removed it): the most conservative default.
pub(crate) const FALLBACK_TIER: &str = "free";

/// Who is calling: their key, their account as looked up for this request (at most
/// [`key_cache::TIME_TO_LIVE`](crate::key_cache::TIME_TO_LIVE) old), their window.
#[derive(Debug, Clone)]
pub struct Caller {
    pub key: ApiKeyRecord,
    pub key_hash: KeyHash,
    pub account: Account,
    pub usage: WindowUsage,
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts.extensions.get::<Caller>().cloned().ok_or_else(|| {
            tracing::error!("a route that needs a caller is missing the authentication layer");
            ApiError::Internal
        })
    }
}

/// The token of an `Authorization: Bearer <token>` header (scheme case-insensitive); `None`
/// without one. Two `Authorization` headers are refused: which one counts is ambiguous, and
/// proxies disagree on it.
pub(crate) fn bearer_token(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(ApiError::InvalidRequest {
            status: StatusCode::BAD_REQUEST,
            message: "Send one Authorization header, not several.".to_owned(),
        });
    }
    let token = value.to_str().ok().and_then(|value| {
        let (scheme, token) = value.trim().split_once(' ')?;
        let token = token.trim();
        (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
    });
    Ok(token)
}

pub async fn authenticate(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let admitted = match bearer_token(request.headers()) {
        Ok(token) => admit(&state, token, peer_ip(&request)).await,
        Err(refusal) => return refusal.into_response(),
    };
    let caller = match admitted {
        Ok(caller) => caller,
        Err(Refused { error, usage }) => {
            let mut response = error.into_response();
            if let Some(usage) = usage {
                add_rate_limit_headers(response.headers_mut(), &usage);
            }
            return response;
        }
    };
    let usage = caller.usage;
    request.extensions_mut().insert(caller);
    let mut response = next.run(request).await;
    add_rate_limit_headers(response.headers_mut(), &usage);
    response
}

/// Why a call was not admitted, and the window it was counted in when the rate limit refused it.
pub(crate) struct Refused {
    pub error: ApiError,
    pub usage: Option<WindowUsage>,
}

impl From<ApiError> for Refused {
    fn from(error: ApiError) -> Self {
        Refused { error, usage: None }
    }
}

/// The caller of `token` (`None`: no key was sent), identified and counted against its
/// account's rate limit: what every keyed call passes, whether its key came in a header or, on a
/// stream, in its first message.
pub(crate) async fn admit(state: &AppState, token: Option<&str>, peer: Option<IpAddr>) -> Result<Caller, Refused> {
    let Identified { key, key_hash, account } = identify(state, token, peer).await?;
    let tiers = &state.settings.tiers;
    let limit = tiers.requests_per_minute(&account.tier).unwrap_or_else(|| {
        tracing::warn!(tier = %account.tier, "account tier has no configured limit; using the free tier's");
        tiers.requests_per_minute(FALLBACK_TIER).unwrap_or(1)
    });
    let usage = match state.rate_limiter.acquire(account.id, limit, Utc::now()).await {
        Ok(usage) => usage,
        Err(refusal) => {
            metrics::counter!("marketlens_rate_limit_refusals_total", "tier" => account.tier.clone()).increment(1);
            let error = ApiError::RateLimited {
                limit: refusal.limit,
                retry_after_seconds: refusal.retry_after_seconds,
                resets_at: to_iso8601(refusal.resets_at),
            };
            let usage = WindowUsage {
                limit: refusal.limit,
                used: refusal.limit,
                resets_at: refusal.resets_at,
            };
            return Err(Refused {
                error,
                usage: Some(usage),
            });
        }
    };
    Ok(Caller {
        key,
        key_hash,
        account,
        usage,
    })
}

/// Authentication alone, for `/mcp`: a request without a live key of an active account is
/// refused as any API call is, but nothing is counted against the rate limit, since the
/// exchange itself (initialize, the tool list) does no paid work; each tool call is an API
/// call of its own, which [`authenticate`] counts and its handler charges.
pub async fn require_key(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let token = match bearer_token(request.headers()) {
        Ok(token) => token,
        Err(refusal) => return refusal.into_response(),
    };
    match identify(&state, token, peer_ip(&request)).await {
        Ok(_) => next.run(request).await,
        Err(refusal) => refusal.into_response(),
    }
}

/// The address the request came from, which failed authentications count against.
pub(crate) fn peer_ip(request: &Request) -> Option<IpAddr> {
    connections::peer_of(request).map(|address| address.ip())
}

/// A live key and its active account.
struct Identified {
    key: ApiKeyRecord,
    key_hash: KeyHash,
    account: Account,
}

/// The key and account of `token`, or why it is refused: no key, a store known to be away (every keyed call needs it, to charge or to read
/// the account: refused at once, even with the key cached), an unknown or revoked key, a
/// suspended account, an address over its limit of failed authentications, or a store that
/// cannot answer.
async fn identify(state: &AppState, token: Option<&str>, peer: Option<IpAddr>) -> Result<Identified, ApiError> {
    let token = token.ok_or(ApiError::MissingApiKey)?;
    state.store_health.check()?;
    let parsed = ApiKey::parse(token).map(|key| key.hash());
    // A key the cache holds passes without a store read, even from an address over its limit
    // of failures (a suspended account is read afresh, by `known_key`).
    let cached_live = |key_hash: &KeyHash| {
        state
            .keys
            .cached(key_hash)
            .filter(|(_, account)| account.status != AccountStatus::Suspended)
    };
    let mut cached = parsed.as_ref().and_then(cached_live);
    // Requests with one key not cached take turns to look it up, so that a burst of them (a
    // client's first concurrent calls) costs one store read and one counted attempt: the ones
    // after the first find the key cached. Held until the lookup is done.
    let _turn = match (&cached, &parsed) {
        (None, Some(key_hash)) => {
            let turn = state.keys.lookup_turn(key_hash).await;
            cached = cached_live(key_hash);
            Some(turn)
        }
        _ => None,
    };
    // A key not cached costs a lookup: it counts against the address until it proves right.
    let attempt = match cached {
        Some(_) => None,
        None => match state.failed_auth.attempt(peer) {
            Ok(attempt) => Some(attempt),
            Err(refusal) => return Err(refusal),
        },
    };
    let Some(key_hash) = parsed else {
        return Err(ApiError::InvalidApiKey);
    };
    let found = match cached {
        Some(found) => Ok(Some(found)),
        None => known_key(state, &key_hash).await,
    };
    let (key, account) = match found {
        Ok(Some(found)) => found,
        Ok(None) => return Err(ApiError::InvalidApiKey),
        Err(error) => {
            // The store failed, not the client.
            state.store_health.observe(&error);
            if let Some(attempt) = attempt {
                attempt.succeeded();
            }
            return Err(ApiError::from(error));
        }
    };
    if let Some(attempt) = attempt {
        attempt.succeeded();
    }
    if account.status == AccountStatus::Suspended {
        return Err(ApiError::AccountSuspended);
    }
    Ok(Identified { key, key_hash, account })
}

/// The key and its account, from the cache; a suspended account is read afresh before it is
/// refused, since it may have been activated since it was cached.
async fn known_key(state: &AppState, key_hash: &KeyHash) -> Result<Option<(ApiKeyRecord, Account)>, StoreError> {
    let found = state.keys.lookup(state.store.as_ref(), key_hash).await?;
    if found
        .as_ref()
        .is_some_and(|(_, account)| account.status == AccountStatus::Suspended)
    {
        state.keys.forget(key_hash);
        return state.keys.lookup(state.store.as_ref(), key_hash).await;
    }
    Ok(found)
}

fn add_rate_limit_headers(headers: &mut HeaderMap, usage: &WindowUsage) {
    headers.insert("x-ratelimit-limit", HeaderValue::from(usage.limit));
    headers.insert("x-ratelimit-remaining", HeaderValue::from(usage.remaining()));
    headers.insert("x-ratelimit-reset", HeaderValue::from(usage.resets_at.timestamp()));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn reads_bearer_tokens_only() {
        let token = |headers: &HeaderMap| bearer_token(headers).unwrap().map(str::to_owned);
        assert_eq!(token(&headers("Bearer abc")).as_deref(), Some("abc"));
        assert_eq!(token(&headers("bearer   abc ")).as_deref(), Some("abc"));
        assert_eq!(token(&headers("Basic abc")), None);
        assert_eq!(token(&headers("Bearer ")), None);
        assert_eq!(token(&headers("abc")), None);
        assert_eq!(token(&HeaderMap::new()), None);
    }

    #[test]
    fn two_authorization_headers_are_refused() {
        let mut both = headers("Bearer abc");
        both.append(header::AUTHORIZATION, HeaderValue::from_static("Bearer def"));
        assert!(matches!(
            bearer_token(&both),
            Err(ApiError::InvalidRequest {
                status: StatusCode::BAD_REQUEST,
                ..
            })
        ));
    }
}
