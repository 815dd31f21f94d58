//! `GET /api/v1/openapi.json`: this server's OpenAPI document. The document lists this route
//! too, so the handler does not build it: [`crate::app`] hands it over as an extension, built
//! once by [`crate::openapi`].

use axum::Extension;
use axum::http::header;
use axum::response::IntoResponse;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::state::AppState;

/// The OpenAPI document as JSON.
#[derive(Debug, Clone, Copy)]
pub struct Document(pub &'static str);

/// This OpenAPI document. Free, and needs no key.
#[utoipa::path(
    get,
    path = "/api/v1/openapi.json",
    operation_id = "getOpenApiDocument",
    tag = "operations",
    responses((status = 200, description = "The OpenAPI 3.1 document of this server.", content_type = "application/json", body = Object))
)]
pub async fn openapi_json(Extension(Document(json)): Extension<Document>) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], json)
}

pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(openapi_json))
}
