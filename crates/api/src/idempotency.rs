//! Idempotency keys (`docs/API.md#retries-and-idempotency-keys`): a charged call sent with an
//! `Idempotency-Key` header runs, and is charged, once; a repeat of it gets the kept answer,
//! uncharged, marked `Idempotent-Replayed: true`.
//!
//! [`layer`] sits on the charged routes, inside authentication and the rate limit (so a key
//! belongs to an account, and a repeat counts as a request). For a request with a key it:
//!
//! 1. checks the key (1 to [`MAX_KEY_LEN`] printable ASCII characters, one header);
//! 2. takes the request's fingerprint: method, path, query (pairs sorted) and body (JSON with
//!    its keys sorted), hashed;
//! 3. claims the key in the store, one claim per account and key however many nodes try
//!    (`marketlens_storage::idempotency`). Having it, the request runs; the key's holder
//!    being another request of another fingerprint, the answer is 422
//!    `IDEMPOTENCY_KEY_REUSED`; of the same fingerprint, it replays the kept answer, or, while
//!    that request still runs, waits for it: woken at once by a holder on this node ([`Waiters`]),
//!    and reading the store with a growing pause for one on another node, for at most the
//!    request timeout, then answers 409 `IDEMPOTENCY_KEY_IN_PROGRESS`.
//!
//! The answer is kept by the charge itself ([`crate::billing::charged`] hands it to the store
//! with the charge, which completes the claim in the same transaction), so a call is never
//! charged without its answer kept, nor kept without being charged. A request that ends any
//! other way (an error, which is never charged, a timeout, a dropped connection) releases its
//! claim, so a retry runs afresh: only charged answers are kept. A claim whose node died lapses
//! after the longest a call can take ([`lease`]) and a repeat takes it over.
//!
//! Uncharged routes (the account, health, documents, admin) are not behind this layer, and
//! ignore the header.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use marketlens_storage::{ClaimOutcome, IdempotencyClaim, IdempotencyState, KeptAnswer, NewClaim, Store};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Notify;
use uuid::Uuid;

use crate::auth::Caller;
use crate::deadline::Deadline;
use crate::error::ApiError;
use crate::request_id::RequestId;
use crate::state::{AppState, REQUEST_TIMEOUT_MARGIN};

/// The request header.
pub const HEADER: &str = "idempotency-key";
/// The response header of a replayed answer.
pub const REPLAYED_HEADER: &str = "idempotent-replayed";
/// The longest key.
pub const MAX_KEY_LEN: usize = 255;
/// The headers of a charged answer kept with it, besides the credit headers (which the charge
/// records itself). Rate-limit headers, request ids and the like are the repeat's own.
pub const KEPT_HEADERS: [&str; 2] = ["content-type", "x-data-age"];

/// The first pause of a repeat waiting for the request that holds its key on another node;
/// each pause doubles, up to [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(10);
const MAX_PAUSE: Duration = Duration::from_millis(250);
/// How much longer than the longest call a claim is held before another request may take it.
const LEASE_SLACK: Duration = Duration::from_secs(5);

/// How long a claim holds its key: longer than any call can run (the work's timeout, then the
/// whole request's margin, within which the charge is taken or dropped), so that a claim lapses
/// only when its node stopped.
pub fn lease(request_timeout: Duration) -> Duration {
    request_timeout + REQUEST_TIMEOUT_MARGIN + LEASE_SLACK
}

/// The claim a request holds, for [`crate::billing::charged`] to complete with its charge; set
/// in the request's extensions by [`layer`].
#[derive(Debug, Clone)]
pub struct Held(pub IdempotencyClaim);

/// Marks a response whose answer the charge kept under its key.
#[derive(Debug, Clone, Copy)]
pub struct AnswerKept;

/// The request's key, if it sends one: 1 to [`MAX_KEY_LEN`] printable ASCII characters
/// (space to tilde), in one header.
pub fn key_of(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let mut values = headers.get_all(HEADER).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    let invalid = |message: &str| {
        ApiError::invalid_parameter(
            "Idempotency-Key",
            message,
            json!({ "maximumLength": MAX_KEY_LEN, "format": "1 to 255 printable ASCII characters" }),
        )
    };
    if values.next().is_some() {
        return Err(invalid("Send one Idempotency-Key header, not several."));
    }
    let bytes = value.as_bytes();
    if bytes.is_empty() || bytes.len() > MAX_KEY_LEN || !bytes.iter().all(|byte| (b' '..=b'~').contains(byte)) {
        return Err(invalid(
            "Idempotency-Key must be 1 to 255 printable ASCII characters (space to tilde).",
        ));
    }
    Ok(Some(String::from_utf8_lossy(bytes).into_owned()))
}

/// What makes two requests the same request: method, path, query pairs (decoded, sorted) and
/// body (a JSON body with its object keys sorted, any other body as it is), hashed (SHA-256,
/// hex). Each part is length-prefixed, so no two different requests run together.
pub fn fingerprint(method: &Method, path: &str, query: Option<&str>, body: &[u8]) -> String {
    let mut hasher = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_be_bytes());
        hasher.update(bytes);
    };
    part(method.as_str().as_bytes());
    part(path.as_bytes());
    let mut pairs: Vec<(String, String)> = url::form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .into_owned()
        .collect();
    pairs.sort();
    for (name, value) in &pairs {
        part(name.as_bytes());
        part(value.as_bytes());
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(value) => part(canonical_json(value).to_string().as_bytes()),
        Err(_) => part(body),
    }
    hasher.finalize().iter().map(|byte| format!("{byte:02x}")).collect()
}

/// `value` with every object's keys in order.
fn canonical_json(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|left, right| left.0.cmp(&right.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(name, value)| (name, canonical_json(value)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(canonical_json).collect()),
        other => other,
    }
}

/// Wakes the repeats waiting on this node for a key's holder to finish. Keys share a few
/// [`Notify`]s by hash: a repeat woken for another key reads the store and waits again.
pub struct Waiters {
    shards: Vec<Notify>,
}

impl Default for Waiters {
    fn default() -> Self {
        Waiters {
            shards: (0..64).map(|_| Notify::new()).collect(),
        }
    }
}

impl Waiters {
    fn shard(&self, account_id: Uuid, key: &str) -> &Notify {
        let mut hasher = DefaultHasher::new();
        (account_id, key).hash(&mut hasher);
        &self.shards[(hasher.finish() % self.shards.len() as u64) as usize]
    }

    fn wake(&self, claim: &IdempotencyClaim) {
        self.shard(claim.account_id, &claim.key).notify_waiters();
    }
}

/// The middleware of the charged routes (see the module's documentation).
pub async fn layer(State(state): State<AppState>, request: Request, next: Next) -> Response {
    match run_once(&state, request, next).await {
        Ok(response) => response,
        Err(error) => error.into_response(),
    }
}

async fn run_once(state: &AppState, request: Request, next: Next) -> Result<Response, ApiError> {
    let Some(key) = key_of(request.headers())? else {
        return Ok(next.run(request).await);
    };
    let (Some(caller), Some(request_id)) = (
        request.extensions().get::<Caller>().cloned(),
        request.extensions().get::<RequestId>().cloned(),
    ) else {
        tracing::error!("the idempotency layer runs without the authentication or request id layer");
        return Err(ApiError::Internal);
    };
    let parts_deadline = request.extensions().get::<Deadline>().cloned();
    let (parts, body) = request.into_parts();
    let body = Bytes::from_request(Request::new(body), &())
        .await
        .map_err(|rejection| match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge,
            status => ApiError::InvalidRequest {
                status: if status.is_client_error() {
                    status
                } else {
                    StatusCode::BAD_REQUEST
                },
                message: "The request body could not be read.".to_owned(),
            },
        })?;
    let fingerprint = fingerprint(&parts.method, parts.uri.path(), parts.uri.query(), &body);
    let request = Request::from_parts(parts, Body::from(body));
    let account_id = caller.account.id;
    let lease_time =
        chrono::TimeDelta::from_std(lease(state.settings.request_timeout)).unwrap_or(chrono::TimeDelta::MAX);
    let deadline = match parts_deadline {
        Some(deadline) => deadline.at().into_std(),
        None => Instant::now() + state.settings.request_timeout,
    };
    let mut pause = FIRST_PAUSE;
    let mut claim_next = true;
    loop {
        // Listening before looking: a holder on this node that finishes in between still wakes us.
        let woken = state.idempotency_waiters.shard(account_id, &key).notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        let record = if claim_next {
            let claim = IdempotencyClaim {
                account_id,
                key: key.clone(),
                owner: Uuid::new_v4(),
            };
            let now = Utc::now();
            let new_claim = NewClaim {
                claim: claim.clone(),
                fingerprint: fingerprint.clone(),
                request_id: request_id.0.clone(),
                now,
                lease_until: now + lease_time,
            };
            // The claim runs in a task of its own, holding the guard that releases it: a
            // request dropped mid-claim (its client gave up) must not leave a claim that
            // nothing releases, which would hold the key, and make its retries wait and be
            // 409, until the lease ends.
            let mut release = Release {
                store: state.store.clone(),
                waiters: state.idempotency_waiters.clone(),
                claim: Some(claim.clone()),
            };
            let claiming = tokio::spawn(async move {
                let outcome = release.store.claim_idempotency_key(&new_claim).await;
                if let Ok(ClaimOutcome::Taken(_)) = outcome {
                    release.claim = None;
                }
                (outcome, release)
            });
            let (outcome, release) = claiming.await.map_err(|error| {
                tracing::error!(%error, "an idempotency key's claim failed");
                ApiError::Internal
            })?;
            match outcome.inspect_err(|error| state.store_health.observe(error))? {
                ClaimOutcome::Claimed => return Ok(run_claimed(claim, release, request, next).await),
                ClaimOutcome::Taken(record) => record,
            }
        } else {
            let record = state.store.idempotency_record(account_id, &key, Utc::now()).await;
            match record.inspect_err(|error| state.store_health.observe(error))? {
                Some(record) => record,
                // Released or lapsed: claim it.
                None => {
                    claim_next = true;
                    continue;
                }
            }
        };
        claim_next = false;
        if record.fingerprint != fingerprint {
            return Err(ApiError::IdempotencyKeyReused);
        }
        if let IdempotencyState::Completed(answer) = record.state {
            metrics::counter!("marketlens_idempotent_replays_total").increment(1);
            return Ok(replay(answer));
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ApiError::IdempotencyKeyInProgress);
        }
        tokio::select! {
            _ = woken => {}
            _ = tokio::time::sleep(pause.min(left)) => {}
        }
        pause = (pause * 2).min(MAX_PAUSE);
    }
}

/// Runs the request that holds the key, `release` holding its claim. Unless its charge kept
/// the answer, the claim is released, also when the request is dropped mid-way (the client
/// went away), so that a retry runs afresh.
async fn run_claimed(claim: IdempotencyClaim, mut release: Release, mut request: Request, next: Next) -> Response {
    request.extensions_mut().insert(Held(claim));
    let response = next.run(request).await;
    if response.extensions().get::<AnswerKept>().is_some() {
        if let Some(claim) = release.claim.take() {
            release.waiters.wake(&claim);
        }
    } else {
        release.now().await;
    }
    response
}

/// Releases a claim that was not completed, now or, when dropped, in the background.
struct Release {
    store: Arc<dyn Store>,
    waiters: Arc<Waiters>,
    claim: Option<IdempotencyClaim>,
}

impl Release {
    async fn now(&mut self) {
        // The claim stays in the guard until the release is done: a request dropped while it
        // runs leaves `drop` to release it again in the background (releasing twice is harmless).
        if let Some(claim) = &self.claim {
            release(self.store.as_ref(), &self.waiters, claim).await;
            self.claim = None;
        }
    }
}

impl Drop for Release {
    fn drop(&mut self) {
        let Some(claim) = self.claim.take() else { return };
        let (store, waiters) = (self.store.clone(), self.waiters.clone());
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { release(store.as_ref(), &waiters, &claim).await });
        }
    }
}

/// Gives the claim up (if the charge did not complete it meanwhile) and wakes its waiters. A
/// claim the store could not release lapses with its lease.
async fn release(store: &dyn Store, waiters: &Waiters, claim: &IdempotencyClaim) {
    if let Err(error) = store.release_idempotency_key(claim).await {
        tracing::warn!(%error, "an idempotency key could not be released; it frees when its lease ends");
    }
    waiters.wake(claim);
}

/// The kept answer, as it was, marked replayed.
fn replay(answer: KeptAnswer) -> Response {
    let mut response = Response::new(Body::from(answer.body));
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::OK);
    let headers = response.headers_mut();
    for (name, value) in &answer.headers {
        if let (Ok(name), Ok(value)) = (HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_str(value)) {
            headers.insert(name, value);
        }
    }
    headers.insert("x-credits-used", HeaderValue::from(answer.credits_used));
    headers.insert("x-credits-remaining", HeaderValue::from(answer.credits_remaining));
    headers.insert(REPLAYED_HEADER, HeaderValue::from_static("true"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn headers_with(values: &[&[u8]]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(HEADER, HeaderValue::from_bytes(value).unwrap());
        }
        headers
    }

    #[test]
    fn a_missing_key_is_none_and_several_are_refused() {
        assert_eq!(key_of(&HeaderMap::new()).unwrap(), None);
        let error = key_of(&headers_with(&[b"a", b"b"])).unwrap_err();
        assert_eq!(error.code(), "INVALID_PARAMETER");
    }

    proptest! {
        #[test]
        fn keys_of_printable_ascii_up_to_255_are_taken_as_they_are(key in "[ -~]{1,255}") {
            // An HTTP header value cannot start or end with whitespace on the wire.
            let key = key.trim().to_owned();
            prop_assume!(!key.is_empty());
            prop_assert_eq!(key_of(&headers_with(&[key.as_bytes()])).unwrap(), Some(key));
        }

        #[test]
        fn anything_else_is_invalid_parameter(
            key in prop_oneof![
                "[ -~]{256,300}",
                "[ -~]{0,10}[\u{80}-\u{ff}\t][ -~]{0,10}",
            ]
        ) {
            let bytes: Vec<u8> = key.chars().map(|character| character as u32 as u8).collect();
            let Ok(value) = HeaderValue::from_bytes(&bytes) else { return Ok(()) };
            let mut headers = HeaderMap::new();
            headers.insert(HEADER, value);
            let error = key_of(&headers).unwrap_err();
            prop_assert_eq!(error.code(), "INVALID_PARAMETER");
        }
    }

    #[test]
    fn an_empty_key_is_invalid() {
        assert!(key_of(&headers_with(&[b""])).is_err());
    }

    #[test]
    fn the_fingerprint_ignores_query_order_and_json_layout_only() {
        let get = |query: &str| fingerprint(&Method::GET, "/api/v1/markets", Some(query), b"");
        assert_eq!(get("limit=1&offset=2"), get("offset=2&limit=1"));
        assert_eq!(get("search=a%20b"), get("search=a+b"));
        assert_ne!(get("limit=1"), get("limit=2"));
        assert_ne!(get("limit=1"), get("limit=1&limit=1"));
        assert_ne!(
            fingerprint(&Method::GET, "/api/v1/markets", None, b""),
            fingerprint(&Method::GET, "/api/v1/events", None, b"")
        );
        let post = |body: &[u8]| fingerprint(&Method::POST, "/api/v1/explain", None, body);
        assert_eq!(post(br#"{"query":"x","b":1}"#), post(br#"{ "b": 1, "query": "x" }"#));
        assert_ne!(post(br#"{"query":"x"}"#), post(br#"{"query":"y"}"#));
        assert_ne!(post(b"not json"), post(b"not json "));
        assert_ne!(
            post(br#"{"query":"x"}"#),
            fingerprint(&Method::GET, "/api/v1/explain", Some("query=x"), b"")
        );
    }
}
