//! `Cache-Control` of every keyed and admin answer: a paid answer or an account is the
//! caller's alone, so no shared cache (a CDN set to cache everything) may keep it.

use axum::http::{HeaderValue, header};
use tower_http::set_header::SetResponseHeaderLayer;

pub(crate) fn no_store() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"))
}
