//! List events and get one with its markets, from the in-memory catalogue.

use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::response::{IntoResponse, Response};
use marketlens_catalog::CatalogReader;
use marketlens_domain::billing::Operation;
use uuid::Uuid;

use crate::auth::Caller;
use crate::billing::{Charged, charged};
use crate::error::ApiError;
use crate::params;
use crate::request_id::RequestId;
use crate::state::AppState;
use crate::views::{
    BYTES_PER_LIST_ITEM, DataEnvelope, EventDetail, EventListItem, ListEnvelope, Pagination, json_response,
};

pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    axum::Extension(request_id): axum::Extension<RequestId>,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    let event_query = params::list_events(query.as_deref())?;
    charged(&state, &caller, Operation::ListEvents, &request_id, async {
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

pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    axum::Extension(request_id): axum::Extension<RequestId>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    params::none(query.as_deref())?;
    charged(&state, &caller, Operation::GetEvent, &request_id, async {
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
