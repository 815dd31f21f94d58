//! List events and get one with its markets, from the in-memory catalogue.

use axum::Json;
use axum::extract::{RawQuery, State};
use axum::response::{IntoResponse, Response};
use marketlens_catalog::CatalogReader;
use marketlens_domain::billing::Operation;
use uuid::Uuid;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::billing::{Call, Charged, charged};
use crate::error::{ApiError, ErrorBody};
use crate::params::{self, PathId};
use crate::params::{EVENTS_DEFAULT_LIMIT, EVENTS_MAX_LIMIT};
use crate::schemas::parameters::{category, exchange, limit, offset};
use crate::state::AppState;
use crate::views::{
    BYTES_PER_LIST_ITEM, DataEnvelope, EventDetail, EventListItem, ListEnvelope, Pagination, json_response,
};
use utoipa::IntoParams;
use utoipa::openapi::path::{Parameter, ParameterIn};

/// Events of both exchanges, filtered and paged.
#[utoipa::path(
    get,
    path = "/api/v1/events",
    operation_id = "listEvents",
    tag = "events",
    params(ListEventsParameters),
    responses((status = 200, description = "A page of events (1 credit).", body = ListEnvelope<EventListItem>, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call.")))),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    call: Call,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    let event_query = params::list_events(query.as_deref())?;
    charged(&state, &call, Operation::ListEvents, async {
        let page = state.catalog.list_events(&event_query).await?;
        let envelope = ListEnvelope {
            pagination: Pagination::of(&page, event_query.limit, event_query.offset),
            data: page.items.iter().map(|stored| EventListItem::from(&**stored)).collect(),
        };
        Ok(json_response(
            &envelope,
            (envelope.data.len() + 1) * BYTES_PER_LIST_ITEM,
        ))
    })
    .await
}

/// One event with its markets.
#[utoipa::path(
    get,
    path = "/api/v1/events/{id}",
    operation_id = "getEvent",
    tag = "events",
    params(("id" = uuid::Uuid, Path, description = "The event's id (a UUID).")),
    responses(
        (status = 200, description = "The event (1 credit).", body = DataEnvelope<EventDetail>, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call."))),
        (status = 404, description = "No event has this id (`NOT_FOUND`); not charged.", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    call: Call,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    params::none(query.as_deref())?;
    charged(&state, &call, Operation::GetEvent, async {
        let unknown = || ApiError::not_found(format!("No event has id {id:?}."));
        let event_id = Uuid::parse_str(&id).map_err(|_| unknown())?;
        let stored = state.catalog.get_event(event_id).await?.ok_or_else(unknown)?;
        let markets = state.catalog.event_markets(event_id).await?;
        Ok(Json(&DataEnvelope {
            data: EventDetail::new(&stored, &markets),
        })
        .into_response())
    })
    .await
}

/// `GET /api/v1/events`.
pub struct ListEventsParameters;

impl IntoParams for ListEventsParameters {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            limit(EVENTS_DEFAULT_LIMIT, EVENTS_MAX_LIMIT),
            offset(),
            exchange(),
            category(),
        ]
    }
}

/// This module's routes, each registered with its documentation.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(get))
}
