//! The replay server's one error type and the one place that knows its status codes.
//!
//! Every error body has the same shape, `{"error": {"code": "...", "message": "..."}}`. The
//! real exchanges word their errors differently; a client under test should only rely on the
//! status, so one shape keeps this server simple.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ReplayError {
    /// A query parameter the real API would reject.
    BadParameter { parameter: &'static str, message: String },
    /// A cursor this server did not hand out for this listing.
    BadCursor { parameter: &'static str },
    /// No endpoint at this path.
    NotFound { path: String },
}

impl IntoResponse for ReplayError {
    fn into_response(self) -> Response {
        let (status, code, message) = match self {
            ReplayError::BadParameter { parameter, message } => (
                StatusCode::BAD_REQUEST,
                "bad_request",
                format!("{parameter}: {message}"),
            ),
            ReplayError::BadCursor { parameter } => (
                StatusCode::BAD_REQUEST,
                "bad_request",
                format!("{parameter}: not a cursor of this listing"),
            ),
            ReplayError::NotFound { path } => (StatusCode::NOT_FOUND, "not_found", format!("no endpoint at {path}")),
        };
        (status, Json(json!({"error": {"code": code, "message": message}}))).into_response()
    }
}
