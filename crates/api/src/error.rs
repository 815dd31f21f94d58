//! The one error type of the HTTP API and the one place that knows status codes.
//!
//! Handlers and middleware return [`ApiError`]. Its `IntoResponse` only sets the status and
//! stashes the error in the response's extensions; [`render_errors`], the outermost
//! middleware, turns it into the error JSON of `docs/contract/decisions.md#d2-shape` with the request's
//! id. Error responses made by the framework itself (an unknown method, a body over the
//! limit, a timeout, a panic, a path parameter that does not decode) carry no `ApiError`;
//! `render_errors` maps their status onto one, a 4xx staying a 4xx, so every error on every
//! path has the same shape; only `/mcp`'s JSON-RPC errors, which its MCP clients read, keep
//! their own ([`ProtocolErrorBody`]).

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use marketlens_storage::StoreError;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::request_id::RequestId;

#[derive(Debug, Clone)]
pub enum ApiError {
    MissingApiKey,
    InvalidApiKey,
    /// An admin call without the admin token, or with another.
    InvalidAdminToken,
    AccountSuspended,
    InvalidParameter {
        parameter: String,
        message: String,
        details: Value,
    },
    NotFound {
        message: String,
    },
    MissingQuery,
    UnsupportedMediaType,
    InvalidJson {
        message: String,
    },
    /// Explain found no market about the query; `candidates` are the closest markets, as the
    /// JSON array `details.candidates` shows them.
    NoMatch {
        query: String,
        candidates: Value,
    },
    PayloadTooLarge,
    InsufficientCredits {
        required: i64,
        remaining: i64,
    },
    RateLimited {
        limit: u32,
        retry_after_seconds: i64,
        resets_at: String,
    },
    /// The client's address failed authentication too often (see [`crate::failed_auth`]).
    TooManyFailedAuthentications {
        limit: u32,
        retry_after_seconds: i64,
    },
    /// Over the account's tier's bound on live streams (see [`crate::stream`]): stream
    /// connections open at once, or markets subscribed on one connection. Waiting does not
    /// help; closing a stream or a subscription does, so no `Retry-After`.
    StreamLimited {
        message: String,
        details: Value,
    },
    MethodNotAllowed,
    /// A request refused before it reached a handler that could name what was wrong: a
    /// framework rejection with no mapping of its own, or a request that is ambiguous (two
    /// `Authorization` headers). Keeps the framework's 4xx status.
    InvalidRequest {
        status: StatusCode,
        message: String,
    },
    ServiceUnavailable {
        message: String,
    },
    /// The server has no source of order books and trades (`serve --no-depth`).
    DepthUnavailable {
        message: String,
    },
    /// The exchange did not answer a depth request usably (down, slow, or a body we cannot
    /// read).
    ExchangeUnavailable,
    /// The `Idempotency-Key` was used with another request (see [`crate::idempotency`]).
    IdempotencyKeyReused,
    /// The request holding the `Idempotency-Key` still ran when the repeat stopped waiting.
    IdempotencyKeyInProgress,
    Internal,
}

impl ApiError {
    /// Every error code, as the OpenAPI document lists them.
    pub const CODES: [&'static str; 21] = [
        "MISSING_API_KEY",
        "INVALID_API_KEY",
        "INVALID_ADMIN_TOKEN",
        "ACCOUNT_SUSPENDED",
        "INVALID_PARAMETER",
        "NOT_FOUND",
        "MISSING_QUERY",
        "UNSUPPORTED_MEDIA_TYPE",
        "INVALID_JSON",
        "NO_MATCH",
        "PAYLOAD_TOO_LARGE",
        "INSUFFICIENT_CREDITS",
        "RATE_LIMITED",
        "METHOD_NOT_ALLOWED",
        "INVALID_REQUEST",
        "SERVICE_UNAVAILABLE",
        "DEPTH_UNAVAILABLE",
        "EXCHANGE_UNAVAILABLE",
        "IDEMPOTENCY_KEY_REUSED",
        "IDEMPOTENCY_KEY_IN_PROGRESS",
        "INTERNAL_ERROR",
    ];

    pub fn invalid_parameter(parameter: &str, message: impl Into<String>, details: Value) -> ApiError {
        let mut details = details;
        if let Value::Object(map) = &mut details {
            map.insert("parameter".to_owned(), Value::String(parameter.to_owned()));
        }
        ApiError::InvalidParameter {
            parameter: parameter.to_owned(),
            message: message.into(),
            details,
        }
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::NotFound {
            message: message.into(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::MissingApiKey | ApiError::InvalidApiKey | ApiError::InvalidAdminToken => StatusCode::UNAUTHORIZED,
            ApiError::AccountSuspended => StatusCode::FORBIDDEN,
            ApiError::InvalidParameter { .. } | ApiError::MissingQuery | ApiError::InvalidJson { .. } => {
                StatusCode::BAD_REQUEST
            }
            ApiError::NotFound { .. } | ApiError::NoMatch { .. } => StatusCode::NOT_FOUND,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::InsufficientCredits { .. } => StatusCode::PAYMENT_REQUIRED,
            ApiError::RateLimited { .. }
            | ApiError::TooManyFailedAuthentications { .. }
            | ApiError::StreamLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::InvalidRequest { status, .. } => *status,
            ApiError::ServiceUnavailable { .. } | ApiError::DepthUnavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::ExchangeUnavailable => StatusCode::BAD_GATEWAY,
            ApiError::IdempotencyKeyReused => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::IdempotencyKeyInProgress => StatusCode::CONFLICT,
            ApiError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::MissingApiKey => "MISSING_API_KEY",
            ApiError::InvalidApiKey => "INVALID_API_KEY",
            ApiError::InvalidAdminToken => "INVALID_ADMIN_TOKEN",
            ApiError::AccountSuspended => "ACCOUNT_SUSPENDED",
            ApiError::InvalidParameter { .. } => "INVALID_PARAMETER",
            ApiError::NotFound { .. } => "NOT_FOUND",
            ApiError::MissingQuery => "MISSING_QUERY",
            ApiError::UnsupportedMediaType => "UNSUPPORTED_MEDIA_TYPE",
            ApiError::InvalidJson { .. } => "INVALID_JSON",
            ApiError::NoMatch { .. } => "NO_MATCH",
            ApiError::PayloadTooLarge => "PAYLOAD_TOO_LARGE",
            ApiError::InsufficientCredits { .. } => "INSUFFICIENT_CREDITS",
            ApiError::RateLimited { .. }
            | ApiError::TooManyFailedAuthentications { .. }
            | ApiError::StreamLimited { .. } => "RATE_LIMITED",
            ApiError::MethodNotAllowed => "METHOD_NOT_ALLOWED",
            ApiError::InvalidRequest { .. } => "INVALID_REQUEST",
            ApiError::ServiceUnavailable { .. } => "SERVICE_UNAVAILABLE",
            ApiError::DepthUnavailable { .. } => "DEPTH_UNAVAILABLE",
            ApiError::ExchangeUnavailable => "EXCHANGE_UNAVAILABLE",
            ApiError::IdempotencyKeyReused => "IDEMPOTENCY_KEY_REUSED",
            ApiError::IdempotencyKeyInProgress => "IDEMPOTENCY_KEY_IN_PROGRESS",
            ApiError::Internal => "INTERNAL_ERROR",
        }
    }

    pub fn message(&self) -> String {
        match self {
            ApiError::MissingApiKey => {
                "Send your API key in the Authorization header: 'Authorization: Bearer <API_KEY>'.".to_owned()
            }
            ApiError::InvalidApiKey => "The API key is unknown, malformed or revoked.".to_owned(),
            ApiError::InvalidAdminToken => {
                "Send the admin token in the Authorization header: 'Authorization: Bearer <ADMIN_TOKEN>'.".to_owned()
            }
            ApiError::AccountSuspended => "This account is suspended; contact the operator.".to_owned(),
            ApiError::InvalidParameter { message, .. }
            | ApiError::NotFound { message }
            | ApiError::InvalidJson { message }
            | ApiError::InvalidRequest { message, .. }
            | ApiError::ServiceUnavailable { message }
            | ApiError::DepthUnavailable { message }
            | ApiError::StreamLimited { message, .. } => message.clone(),
            ApiError::ExchangeUnavailable => {
                "The exchange did not answer usably; try again shortly. Not charged.".to_owned()
            }
            ApiError::MissingQuery => "The 'query' parameter is required and must not be empty.".to_owned(),
            ApiError::UnsupportedMediaType => "Send the body as JSON with 'Content-Type: application/json'.".to_owned(),
            ApiError::NoMatch { query, .. } => format!(
                "No market is about {query:?}: none covers enough of its words. details.candidates names the closest, if any; refine the query, or give a market URL or exchange id."
            ),
            ApiError::PayloadTooLarge => "The request body is larger than 16 KiB.".to_owned(),
            ApiError::InsufficientCredits { required, remaining } => {
                format!("This call costs {required} credits; {remaining} remain.")
            }
            ApiError::RateLimited {
                limit,
                retry_after_seconds,
                ..
            } => format!("Rate limit of {limit} requests per minute exceeded; retry in {retry_after_seconds} seconds."),
            ApiError::TooManyFailedAuthentications {
                limit,
                retry_after_seconds,
            } => format!(
                "More than {limit} failed authentications from your address within a minute; retry in {retry_after_seconds} seconds."
            ),
            ApiError::MethodNotAllowed => "This path does not support this method.".to_owned(),
            ApiError::IdempotencyKeyReused => "This Idempotency-Key was used with another request (method, path, \
                query or body); send a new key for a new request."
                .to_owned(),
            ApiError::IdempotencyKeyInProgress => "The request first sent with this Idempotency-Key is still \
                running; retry shortly to get its answer."
                .to_owned(),
            ApiError::Internal => {
                "Something went wrong on our side. The request id identifies it in our logs.".to_owned()
            }
        }
    }

    fn details(&self) -> Option<Value> {
        match self {
            ApiError::InvalidParameter { details, .. } | ApiError::StreamLimited { details, .. } => {
                Some(details.clone())
            }
            ApiError::InsufficientCredits { required, remaining } => {
                Some(json!({ "required": required, "remaining": remaining }))
            }
            ApiError::NoMatch { candidates, .. } => Some(json!({ "candidates": candidates })),
            ApiError::RateLimited {
                limit,
                retry_after_seconds,
                resets_at,
            } => Some(json!({
                "requestsPerMinute": limit, "retryAfterSeconds": retry_after_seconds, "resetsAt": resets_at
            })),
            ApiError::TooManyFailedAuthentications {
                limit,
                retry_after_seconds,
            } => Some(json!({
                "failedAuthenticationsPerMinute": limit, "retryAfterSeconds": retry_after_seconds
            })),
            _ => None,
        }
    }

    fn headers(&self) -> Vec<(HeaderName, HeaderValue)> {
        match self {
            ApiError::MissingApiKey => {
                vec![(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer realm=\"marketlens\""),
                )]
            }
            ApiError::InvalidApiKey => vec![(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"marketlens\", error=\"invalid_token\""),
            )],
            ApiError::InvalidAdminToken => vec![(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"marketlens-admin\""),
            )],
            ApiError::RateLimited {
                retry_after_seconds, ..
            }
            | ApiError::TooManyFailedAuthentications {
                retry_after_seconds, ..
            } => {
                vec![(header::RETRY_AFTER, HeaderValue::from(*retry_after_seconds))]
            }
            ApiError::IdempotencyKeyInProgress => vec![(header::RETRY_AFTER, HeaderValue::from(1))],
            _ => Vec::new(),
        }
    }

    /// The error a bare framework response stands for.
    fn from_status(status: StatusCode) -> ApiError {
        match status {
            StatusCode::NOT_FOUND => ApiError::not_found("No such path."),
            StatusCode::METHOD_NOT_ALLOWED => ApiError::MethodNotAllowed,
            StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::UnsupportedMediaType,
            StatusCode::REQUEST_TIMEOUT | StatusCode::SERVICE_UNAVAILABLE | StatusCode::GATEWAY_TIMEOUT => {
                ApiError::ServiceUnavailable {
                    message: "The request took too long; try again.".to_owned(),
                }
            }
            status if status.is_client_error() => ApiError::InvalidRequest {
                status,
                message: "The request is malformed and was refused before it was read.".to_owned(),
            },
            _ => ApiError::Internal,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = self.status().into_response();
        for (name, value) in self.headers() {
            response.headers_mut().insert(name, value);
        }
        response.extensions_mut().insert(self);
        response
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Unavailable(reason) => {
                tracing::warn!(%reason, "storage unavailable");
                ApiError::ServiceUnavailable {
                    message: "The data store is unavailable; try again shortly.".to_owned(),
                }
            }
            StoreError::ReadOnly(reason) => {
                tracing::error!(%reason, "the store refuses writes");
                ApiError::ServiceUnavailable {
                    message: "The data store is read-only; try again later.".to_owned(),
                }
            }
            other => {
                tracing::error!(error = %other, "storage error");
                ApiError::Internal
            }
        }
    }
}

impl From<marketlens_domain::depth::DepthError> for ApiError {
    fn from(error: marketlens_domain::depth::DepthError) -> Self {
        use marketlens_domain::depth::DepthError;
        match error {
            DepthError::NotAvailable => ApiError::not_found("This server has no order book or trades for this market."),
            DepthError::Upstream(reason) => {
                tracing::warn!(%reason, "an exchange's depth request failed");
                ApiError::ExchangeUnavailable
            }
            DepthError::BadCursor => {
                ApiError::invalid_parameter("cursor", "cursor must be a nextCursor this server returned.", json!({}))
            }
        }
    }
}

/// Marks an error response whose body is another protocol's error, meant for that
/// protocol's client (a JSON-RPC error of `/mcp`): [`render_errors`] passes it as it is.
#[derive(Debug, Clone, Copy)]
pub struct ProtocolErrorBody;

/// Renders every error response as the error JSON, with the request's id, but for those
/// marked [`ProtocolErrorBody`].
pub async fn render_errors(request: Request, next: Next) -> Response {
    let request_id = request.extensions().get::<RequestId>().cloned();
    let response = next.run(request).await;
    let error = match response.extensions().get::<ApiError>() {
        Some(error) => error.clone(),
        None if response.extensions().get::<ProtocolErrorBody>().is_some() => return response,
        None if response.status().is_client_error() || response.status().is_server_error() => {
            ApiError::from_status(response.status())
        }
        None => return response,
    };
    let body = ErrorBody {
        success: false,
        error: ErrorObject::of(&error),
        request_id: request_id.map(|id| id.0),
    };
    let body = serde_json::to_string(&body).expect("the error body serializes");
    let (mut parts, _) = response.into_parts();
    parts.status = error.status();
    parts.headers.remove(header::CONTENT_LENGTH);
    for (name, value) in error.headers() {
        parts.headers.insert(name, value);
    }
    parts
        .headers
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Response::from_parts(parts, axum::body::Body::from(body))
}

/// The error JSON, fields in the contract's order.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// Always `false`.
    success: bool,
    /// What went wrong.
    error: ErrorObject,
    /// The server's id of the request, as in the `X-Server-Request-Id` header: the one the
    /// ledger and the logs know the call by (`X-Request-Id` echoes a client's own id).
    request_id: Option<String>,
}

/// What went wrong: a stable code, a message for people, and details for programs.
#[derive(Serialize, ToSchema)]
pub struct ErrorObject {
    /// The error's code, to branch on.
    #[schema(value_type = ErrorCode)]
    code: &'static str,
    /// What went wrong, in words for people; may change between versions.
    message: String,
    /// What the mistake was: the parameter and what it allows, the credits required and
    /// remaining, the rate limit and when it resets, the markets closest to a query explain
    /// found no market for (`candidates`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    details: Option<Value>,
}

impl ErrorObject {
    /// The error object of `error`, as every error body and a stream's `error` message carry it.
    pub fn of(error: &ApiError) -> ErrorObject {
        ErrorObject {
            code: error.code(),
            message: error.message(),
            details: error.details(),
        }
    }
}

crate::schemas::string_set! {
    /// What went wrong, as a stable code to branch on (`docs/contract/decisions.md#d2-codes`).
    ErrorCode = ApiError::CODES.iter().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_has_its_code_listed_once() {
        let every_error = [
            ApiError::MissingApiKey,
            ApiError::InvalidApiKey,
            ApiError::InvalidAdminToken,
            ApiError::AccountSuspended,
            ApiError::invalid_parameter("limit", "", json!({})),
            ApiError::not_found(""),
            ApiError::MissingQuery,
            ApiError::UnsupportedMediaType,
            ApiError::InvalidJson { message: String::new() },
            ApiError::NoMatch {
                query: String::new(),
                candidates: json!([]),
            },
            ApiError::PayloadTooLarge,
            ApiError::InsufficientCredits {
                required: 1,
                remaining: 0,
            },
            ApiError::RateLimited {
                limit: 1,
                retry_after_seconds: 1,
                resets_at: String::new(),
            },
            ApiError::TooManyFailedAuthentications {
                limit: 1,
                retry_after_seconds: 1,
            },
            ApiError::StreamLimited {
                message: String::new(),
                details: json!({}),
            },
            ApiError::MethodNotAllowed,
            ApiError::InvalidRequest {
                status: StatusCode::BAD_REQUEST,
                message: String::new(),
            },
            ApiError::ServiceUnavailable { message: String::new() },
            ApiError::DepthUnavailable { message: String::new() },
            ApiError::ExchangeUnavailable,
            ApiError::IdempotencyKeyReused,
            ApiError::IdempotencyKeyInProgress,
            ApiError::Internal,
        ];
        let mut codes: Vec<&str> = every_error.iter().map(ApiError::code).collect();
        // Three errors share RATE_LIMITED: the account's limit, the address's failures and the
        // account's streams.
        codes.dedup();
        assert_eq!(codes, ApiError::CODES);
    }
}
