//! List markets and get one with its matches, from the in-memory catalogue.

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
    BYTES_PER_LIST_ITEM, DataEnvelope, ListEnvelope, MarketDetail, MarketListItem, Pagination, json_response,
};

pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    axum::Extension(request_id): axum::Extension<RequestId>,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    let (market_query, include_outcomes) = params::list_markets(query.as_deref())?;
    charged(&state, &caller, Operation::ListMarkets, &request_id, async {
        let page = state.catalog.list_markets(&market_query).await?;
        let envelope = ListEnvelope {
            pagination: Pagination::of(&page, market_query.limit, market_query.offset),
            data: page
                .items
                .iter()
                .map(|summary| MarketListItem::new(summary, include_outcomes))
                .collect(),
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
    charged(&state, &caller, Operation::GetMarket, &request_id, async {
        let unknown = || ApiError::not_found(format!("No market has id {id:?}."));
        let market_id = Uuid::parse_str(&id).map_err(|_| unknown())?;
        let stored = state.catalog.get_market(market_id).await?.ok_or_else(unknown)?;
        let matched = state.catalog.matched_markets(market_id).await?;
        Ok(Json(&DataEnvelope {
            data: MarketDetail::new(&stored, &matched),
        })
        .into_response())
    })
    .await
}
