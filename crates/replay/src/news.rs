//! `GET /news/{file}`: the recorded news feeds of `demo-data/news/`, byte for byte, as a
//! publisher would serve them, so that feed polling meets real documents (and, through the
//! fault queue, real failures).

use axum::Router;
use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::sync::Arc;

use crate::error::ReplayError;
use crate::server::Shared;

/// The folder of recorded feeds, read at run time.
const NEWS_DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../demo-data/news");

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new().route("/{file}", get(feed))
}

async fn feed(Path(file): Path<String>) -> Response {
    // One path segment of a recorded file's name: nothing can climb out of the folder.
    let recorded = file.ends_with(".xml") || file.ends_with(".atom");
    let plain_name = !file.starts_with('.') && file.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    let bytes = if recorded && plain_name {
        std::fs::read(std::path::Path::new(NEWS_DATA).join(&file)).ok()
    } else {
        None
    };
    match bytes {
        Some(bytes) => ([(header::CONTENT_TYPE, "application/xml; charset=utf-8")], bytes).into_response(),
        None => ReplayError::NotFound {
            path: format!("/news/{file}"),
        }
        .into_response(),
    }
}
