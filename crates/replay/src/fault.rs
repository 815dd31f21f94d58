//! Faults: the ways a real exchange API misbehaves, queued by a test and each spent on the
//! one request it applies to.

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::collections::VecDeque;
use std::time::Duration;

/// One misbehaviour, applied to one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// `429 Too Many Requests`, with a `Retry-After` header (seconds) only when given: Gamma
    /// may send one, Kalshi sends none.
    TooManyRequests { retry_after_secs: Option<u64> },
    /// `500 Internal Server Error`.
    ServerError,
    /// Waits this long, then answers normally (for client timeouts).
    Slow(Duration),
    /// The normal answer with its body cut to half its length: JSON that ends mid-way. The
    /// status stays the normal one (200 for a valid request).
    Truncated,
    /// Status 200 with a body that starts as JSON and turns into an HTML error page.
    Malformed,
}

/// The body of [`Fault::Malformed`].
pub const MALFORMED_BODY: &str = r#"{"events": [<html>oops"#;

impl Fault {
    /// Answers `request` as this fault dictates; `next` is the normal handler.
    pub(crate) async fn answer(self, request: Request, next: Next) -> Response {
        match self {
            Fault::TooManyRequests { retry_after_secs } => {
                let body = json!({"error": {"code": "too_many_requests", "message": "too many requests"}});
                let mut response = (StatusCode::TOO_MANY_REQUESTS, axum::Json(body)).into_response();
                if let Some(seconds) = retry_after_secs {
                    response
                        .headers_mut()
                        .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
                }
                response
            }
            Fault::ServerError => {
                let body = json!({"error": {"code": "internal_server_error", "message": "internal server error"}});
                (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(body)).into_response()
            }
            Fault::Slow(delay) => {
                tokio::time::sleep(delay).await;
                next.run(request).await
            }
            Fault::Truncated => {
                let (mut parts, body) = next.run(request).await.into_parts();
                // The handlers' bodies are small enough to hold; this cannot fail on them.
                let bytes = to_bytes(body, usize::MAX).await.unwrap_or_default();
                parts.headers.remove(header::CONTENT_LENGTH);
                Response::from_parts(parts, Body::from(bytes.slice(..bytes.len() / 2)))
            }
            Fault::Malformed => (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/json")],
                MALFORMED_BODY,
            )
                .into_response(),
        }
    }
}

/// Faults waiting for their request, oldest first. Each applies to any request, or only to
/// requests whose path ends with its suffix.
#[derive(Debug, Default)]
pub(crate) struct FaultQueue {
    pending: VecDeque<(Option<String>, Fault)>,
}

impl FaultQueue {
    pub(crate) fn push(&mut self, path_suffix: Option<String>, fault: Fault) {
        self.pending.push_back((path_suffix, fault));
    }

    /// Removes and returns the oldest fault that applies to a request for `path`.
    pub(crate) fn take_for(&mut self, path: &str) -> Option<Fault> {
        let index = self
            .pending
            .iter()
            .position(|(suffix, _)| suffix.as_deref().is_none_or(|suffix| path.ends_with(suffix)))?;
        self.pending.remove(index).map(|(_, fault)| fault)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_takes_the_oldest_fault_that_applies_to_it() {
        let mut queue = FaultQueue::default();
        queue.push(Some("/events/keyset".into()), Fault::ServerError);
        queue.push(None, Fault::Truncated);
        queue.push(None, Fault::Malformed);
        assert_eq!(queue.take_for("/polymarket/markets/keyset"), Some(Fault::Truncated));
        assert_eq!(queue.take_for("/polymarket/events/keyset"), Some(Fault::ServerError));
        assert_eq!(queue.take_for("/polymarket/events/keyset"), Some(Fault::Malformed));
        assert_eq!(queue.take_for("/polymarket/events/keyset"), None);
    }
}
