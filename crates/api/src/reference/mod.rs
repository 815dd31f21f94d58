//! The API's reference for people and for language models, rendered on the server from the
//! OpenAPI document ([`crate::openapi`]) so that it is as exact as the document: `/docs` (and
//! `/docs/`; `/` leads there), the page ([`page`]) with its one script (`/docs/try.js`), and
//! `/llms.txt`, a plain-text index ([`llms`]). The page asks no other host for anything: its
//! Content-Security-Policy lets it load only its own script and style and send requests only
//! to this origin.

mod llms;
mod page;

use crate::openapi::document_value;
use axum::Router;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;

/// The page's policy: its inline style, its own script, requests to this origin only.
const PAGE_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; \
connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The routes: `/`, `/docs`, `/docs/`, `/docs/try.js` and `/llms.txt`.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(|| async { Redirect::temporary("/docs") }))
        .route("/docs", get(page))
        .route("/docs/", get(page))
        .route("/docs/try.js", get(script))
        .route("/llms.txt", get(llms_txt))
}

async fn page() -> Response {
    let mut response = (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )],
        page::html(document_value()),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(PAGE_POLICY));
    response
}

async fn script() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/javascript; charset=utf-8"),
        )],
        include_str!("try.js"),
    )
        .into_response()
}

async fn llms_txt() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        )],
        llms::plain(document_value()),
    )
        .into_response()
}
