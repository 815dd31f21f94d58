//! Every request is stamped with its arrival time and an id the server makes (a fresh UUID):
//! [`RequestId`], in the request's extensions for logs, the ledger and error bodies, so that
//! an id in the ledger names one call of one account, whatever clients send. A client's own
//! `X-Request-Id`, when sane, is echoed on the response (`docs/contract/decisions.md#d2-request-id`) and logged
//! beside the server's ([`ClientRequestId`]), but never becomes the ledger's; without one, the
//! response carries the server's id there. `X-Server-Request-Id` always carries the server's.
//!
//! Written here rather than with tower-http's request-id layers because those keep any
//! client value as it is; we must refuse ids that are long or carry characters unsafe in
//! logs, and replace them.

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use std::time::Instant;
use uuid::Uuid;

pub static REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");
/// The server's id, on every response: the one the ledger and the logs know the call by,
/// whatever `X-Request-Id` echoes.
pub static SERVER_REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-server-request-id");
const MAX_CLIENT_ID_LEN: usize = 128;

/// The id the server made for the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestId(pub String);

/// The client's own `X-Request-Id`, when it sent a sane one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientRequestId(pub String);

/// When the request reached the server (before authentication), for honest timings.
#[derive(Debug, Clone, Copy)]
pub struct ReceivedAt(pub Instant);

fn is_sane(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_CLIENT_ID_LEN
        && id
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b':'))
}

pub async fn assign_request_id(mut request: Request, next: Next) -> Response {
    request.extensions_mut().insert(ReceivedAt(Instant::now()));
    let id = Uuid::new_v4().to_string();
    let client_id = request
        .headers()
        .get(&REQUEST_ID_HEADER)
        .and_then(|value| value.to_str().ok())
        .filter(|value| is_sane(value))
        .map(str::to_owned);
    request.extensions_mut().insert(RequestId(id.clone()));
    if let Some(client_id) = &client_id {
        request.extensions_mut().insert(ClientRequestId(client_id.clone()));
    }
    let mut response = next.run(request).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(SERVER_REQUEST_ID_HEADER.clone(), value);
    }
    let echoed = client_id.unwrap_or(id);
    if let Ok(value) = HeaderValue::from_str(&echoed) {
        response.headers_mut().insert(REQUEST_ID_HEADER.clone(), value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_only_short_plain_ids() {
        assert!(is_sane("3f2c-abc_1.2:x"));
        assert!(!is_sane(""));
        assert!(!is_sane("has space"));
        assert!(!is_sane("line\nbreak"));
        assert!(!is_sane(&"a".repeat(129)));
    }
}
