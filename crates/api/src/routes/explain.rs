use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use chrono::Utc;
use marketlens_catalog::{CatalogReader, MarketLife};
use marketlens_domain::billing::{EXPLAIN_DATA_FETCH_CREDITS, Operation};
use marketlens_domain::time::to_iso8601;
use serde_json::{Value, json};

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::billing::{Call, Charged, charged};
use crate::error::{ApiError, ErrorBody};
use crate::params;
use crate::params::MAX_EXPLAIN_QUERY_LEN;
use crate::request_id::ReceivedAt;
use crate::schemas::parameters::{query, text};
use crate::state::AppState;
use crate::views::{
    ExplainData, ExplainEnvelope, ExplainMarket, ExplainMeta, ExplainSource, explain_outcomes, optional_time,
};
use marketlens_catalog::explain::{Candidate, Pick, find_market, summary};
use utoipa::IntoParams;
use utoipa::openapi::path::{Parameter, ParameterIn};

/// A market's summary and key factors from recent news, for a market URL or free words.
#[utoipa::path(
    get,
    path = "/api/v1/explain",
    operation_id = "explainMarket",
    tag = "explain",
    params(ExplainParameters),
    responses(
        (status = 200, description = "The explanation (5 credits).", body = ExplainEnvelope, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call."))),
        (status = 404, description = "No market is about the query (`NO_MATCH`): none covers enough of its distinctive words; `error.details.candidates` names the three closest (`id`, `exchange`, `question`, `coverage`), best first. Not charged.", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    call: Call,
    axum::Extension(received_at): axum::Extension<ReceivedAt>,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    let query = params::explain(query.as_deref())?;
    explain(&state, &call, query, received_at).await
}

/// As `GET /api/v1/explain`, with the query in a JSON body.
#[utoipa::path(
    post,
    path = "/api/v1/explain",
    operation_id = "explainMarketByBody",
    tag = "explain",
    request_body(content = ExplainRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The explanation (5 credits).", body = ExplainEnvelope, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call."))),
        (status = 404, description = "No market is about the query (`NO_MATCH`): none covers enough of its distinctive words; `error.details.candidates` names the three closest (`id`, `exchange`, `question`, `coverage`), best first. Not charged.", body = ErrorBody),
        (status = 413, description = "The body is larger than 16 KiB (`PAYLOAD_TOO_LARGE`).", body = ErrorBody),
        (status = 415, description = "The body is not sent as `application/json` (`UNSUPPORTED_MEDIA_TYPE`).", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn post(
    State(state): State<AppState>,
    call: Call,
    axum::Extension(received_at): axum::Extension<ReceivedAt>,
    RawQuery(query_string): RawQuery,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Charged<Response>, ApiError> {
    params::none(query_string.as_deref())?;
    let body = params::json_body_bytes(&headers, body)?;
    let query = query_from_body(&body)?;
    explain(&state, &call, query, received_at).await
}

/// `{ "query": "..." }`: anything else is refused with the error that names the mistake.
fn query_from_body(body: &[u8]) -> Result<String, ApiError> {
    let value: Value = serde_json::from_slice(body).map_err(|error| ApiError::InvalidJson {
        message: format!("The body is not valid JSON: {error}."),
    })?;
    let Value::Object(fields) = value else {
        return Err(ApiError::InvalidJson {
            message: "The body must be a JSON object: {\"query\": \"...\"}.".to_owned(),
        });
    };
    if let Some(unknown) = fields.keys().find(|name| name.as_str() != "query") {
        return Err(ApiError::invalid_parameter(
            unknown,
            format!("Unknown field {unknown:?}."),
            json!({ "accepted": ["query"] }),
        ));
    }
    match fields.get("query") {
        None | Some(Value::Null) => Err(ApiError::MissingQuery),
        Some(Value::String(text)) => params::explain_query(Some(text)),
        Some(_) => Err(ApiError::invalid_parameter(
            "query",
            "query must be a string.",
            json!({}),
        )),
    }
}

async fn explain(
    state: &AppState,
    call: &Call,
    query: String,
    received_at: ReceivedAt,
) -> Result<Charged<Response>, ApiError> {
    charged(state, call, Operation::Explain, async {
        let stored = match find_market(
            state.store.as_ref(),
            state.catalog.as_ref(),
            &query,
            Utc::now().date_naive(),
        )
        .await?
        {
            Pick::Market(stored) => stored,
            Pick::NoMatch(candidates) => {
                return Err(ApiError::NoMatch {
                    query: query.clone(),
                    candidates: candidates_json(&candidates),
                });
            }
        };
        let event = match stored.market.event_id() {
            Some(event_id) => state.catalog.get_event(event_id).await?,
            None => None,
        };
        let market = &stored.market;
        let now = Utc::now();
        let event_title = event.as_ref().map(|event| event.event.title.as_str());
        let news = state
            .news
            .about(&market.question, event_title, MarketLife::of(market), now);
        let mut sources = vec![ExplainSource::MarketDb {
            name: format!("{} market data", market.exchange.display_name()),
            url: market.url.clone(),
        }];
        let mut cited = Vec::new();
        for factor in &news.key_factors {
            if let Some(article) = news.sources.get(&factor.article_id)
                && !cited.contains(&factor.article_id)
            {
                cited.push(factor.article_id);
                sources.push(ExplainSource::NewsFeed {
                    title: article.title.clone(),
                    url: article.url.clone(),
                    publisher: article.publisher.clone(),
                    published_at: article.published_at.map(to_iso8601),
                });
            }
        }
        let image = if market.image_url.is_empty() {
            event
                .as_ref()
                .map(|event| event.event.image_url.clone())
                .unwrap_or_default()
        } else {
            market.image_url.clone()
        };
        let data = ExplainData {
            meta: ExplainMeta {
                query: query.clone(),
                market_id: stored.id.to_string(),
                platform: market.exchange.platform(),
                timestamp: to_iso8601(now),
                credits_used: EXPLAIN_DATA_FETCH_CREDITS,
            },
            market: ExplainMarket {
                title: event
                    .as_ref()
                    .map_or_else(|| market.question.clone(), |event| event.event.title.clone()),
                question: market.question.clone(),
                platform: market.exchange.platform(),
                provider: market.exchange.display_name(),
                volume: market.volume,
                volume_24h: market.volume_24h,
                liquidity: market.liquidity,
                created_at: to_iso8601(stored.created_at),
                end_date: optional_time(market.end_date),
                status: market.status.explain_status(),
                outcomes: explain_outcomes(&stored),
                url: market.url.clone(),
                image,
            },
            summary: summary(&stored, now, news.articles_found),
            key_factors: news.key_factors.into_iter().map(|factor| factor.text).collect(),
            sources,
        };
        let elapsed = received_at.0.elapsed().as_secs_f64() * 1000.0;
        Ok(Json(ExplainEnvelope {
            success: true,
            data,
            credits_used: Operation::Explain.cost(),
            processing_time_ms: (elapsed * 1000.0).round() / 1000.0,
        }))
    })
    .await
}

/// `details.candidates` of a `NO_MATCH`: the closest markets, best first, each with the share
/// of the query's word weight its question covers (rounded to three decimals).
fn candidates_json(candidates: &[Candidate]) -> Value {
    candidates
        .iter()
        .map(|candidate| {
            json!({
                "id": candidate.id.to_string(),
                "exchange": candidate.exchange.as_str(),
                "question": candidate.question,
                "coverage": (candidate.coverage * 1000.0).round() / 1000.0,
            })
        })
        .collect()
}

/// The body of `POST /api/v1/explain`: `{"query": "..."}`, bounded as the query parameter is.
pub struct ExplainRequest;

impl utoipa::PartialSchema for ExplainRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
        ObjectBuilder::new()
            .property(
                "query",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .min_length(Some(1))
                    .max_length(Some(crate::params::MAX_EXPLAIN_QUERY_LEN))
                    .description(Some(
                        "A Polymarket or Kalshi market URL (parsed, never fetched), a market's id on its exchange (a Polymarket id or slug, a Kalshi ticker, any case), or free words.",
                    )),
            )
            .required("query")
            .additional_properties(Some(AdditionalProperties::FreeForm(false)))
            .description(Some("What to explain: the body of `POST /api/v1/explain`."))
            .into()
    }
}

impl utoipa::ToSchema for ExplainRequest {}

/// `GET /api/v1/explain`.
pub struct ExplainParameters;

impl IntoParams for ExplainParameters {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![query(
            "query",
            "A Polymarket or Kalshi market URL (parsed, never fetched), a market's id on its exchange (a Polymarket id or slug, a Kalshi ticker, any case), or free words.",
            true,
            text(MAX_EXPLAIN_QUERY_LEN, true),
        )]
    }
}

/// This module's routes, each registered with its documentation.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get, post))
}
