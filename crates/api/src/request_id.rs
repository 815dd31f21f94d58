//! Every request is stamped with its arrival time, and every response carries `X-Request-Id`: the client's own when it sent a sane one, else a
//! fresh UUID. The id goes into the request's extensions (for logs, the ledger and error
//! bodies) and onto the response.
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
const MAX_CLIENT_ID_LEN: usize = 128;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestId(pub String);

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
    let id = request
        .headers()
        .get(&REQUEST_ID_HEADER)
        .and_then(|value| value.to_str().ok())
        .filter(|value| is_sane(value))
        .map_or_else(|| Uuid::new_v4().to_string(), str::to_owned);
    request.extensions_mut().insert(RequestId(id.clone()));
    let mut response = next.run(request).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
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
