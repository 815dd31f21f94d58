//! `GET /benchmark/ceiling?bytes=N`: a constant JSON body of N bytes, straight from memory, with
//! no authentication, no work and no charge. Mounted only by `serve --benchmark`: it is what
//! the HTTP stack alone does on this machine, the ceiling the benchmark (`bench/run.sh`)
//! compares every call with.

use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

pub(crate) mod bodies;

use crate::error::ApiError;
use crate::state::AppState;

/// The largest body served.
const MAX_BYTES: usize = 1 << 20;

#[derive(Deserialize)]
pub struct CeilingQuery {
    bytes: usize,
}

pub async fn ceiling(
    State(state): State<AppState>,
    query: Result<Query<CeilingQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let bytes = match query {
        Ok(Query(CeilingQuery { bytes })) if (2..=MAX_BYTES).contains(&bytes) => bytes,
        _ => {
            return Err(ApiError::invalid_parameter(
                "bytes",
                format!("bytes must be a whole number from 2 to {MAX_BYTES}."),
                json!({ "minimum": 2, "maximum": MAX_BYTES }),
            ));
        }
    };
    let body = state.benchmark_bodies.body_of(bytes);
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}
