//! `GET /api/v1/stream`: the upgrade to a live stream ([`crate::stream`]).
//!
//! The key is checked as every keyed call's is (`auth::admit`: the key, the account, the rate
//! limit, which counts the upgrade as one request), from the `Authorization` header before
//! the upgrade, so that a refused key is an HTTP answer in the one error shape. A browser
//! cannot set that header on a WebSocket, so a connection opened without it is upgraded and
//! must send its key as its first message (`{"type": "auth", "key": "..."}`). Never in the
//! query string: URLs end up in proxies' logs and browser histories.

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::StatusCode;
use axum::response::Response;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth;
use crate::error::{ApiError, ErrorBody};
use crate::params;
use crate::request_id::RequestId;
use crate::state::AppState;
use crate::stream::connection::{self, Admitted, Opening};

/// A connection's read buffer: a client sends only small messages (at most 16 KiB), and the
/// 128 KiB tungstenite sets aside by default, for every connection, would be most of what a
/// connection costs the server.
const READ_BUFFER_BYTES: usize = 4 * 1024;

/// Live market data over a WebSocket.
///
/// Upgrade with a WebSocket client, sending the key as `Authorization: Bearer <API_KEY>`, or,
/// from a browser, as the first message: `{"type":"auth","key":"<API_KEY>"}` (within 10 s).
/// Then send `{"type":"subscribe","markets":["<market id>",...]}` (and `unsubscribe` alike).
/// Each market costs 1 credit per started minute: the first when it is subscribed (refused
/// with an `error` `INSUFFICIENT_CREDITS` when the balance cannot pay it), then one as each
/// further minute starts (a minute that cannot be paid ends that subscription with an
/// `error`). Each tier bounds the stream connections an account holds open and the markets
/// one connection follows (`RATE_LIMITED`).
///
/// The server sends JSON text frames, each with a `type` (`StreamControlMessage`,
/// `StreamMarketMessage`): `subscribed`, then the market's whole `book` (per outcome, as
/// `getOrderBook` shows it), then `levels` (the size now at a price; 0: gone), `price`,
/// `trade` and `state` (`live` or `interrupted`). Every market message carries `seq`, 1, 2, 3…
/// per subscription: a number skipped means messages were lost, and the next `book` is whole
/// again. A `heartbeat` comes every 5 s; an `error` carries the error shape's `code` and
/// `message` (with `market`: that market is not, or no longer, subscribed). Close codes:
/// 4001 the key was refused or is no longer good, 4008 the client did not read as fast as
/// messages came (its queue filled), 4029 the account has its tier's stream connections open,
/// 1001 the server is shutting down (reconnect).
#[utoipa::path(
    get,
    path = "/api/v1/stream",
    operation_id = "stream",
    tag = "depth",
    responses(
        (status = 101, description = "Switching to the WebSocket protocol: the stream begins. Not charged; each subscribed market's minutes are."),
        (status = 401, description = "No key: neither an `Authorization` header nor, the request not being a WebSocket upgrade, a first message to send one in (`MISSING_API_KEY`); or the key is not valid (`INVALID_API_KEY`).", body = ErrorBody),
        (status = 426, description = "Not a WebSocket upgrade request (`INVALID_REQUEST`).", body = ErrorBody),
        (status = 429, description = "Over the account's requests-per-minute limit, too many failed authentications from the client's address, or the account already has as many stream connections open as its tier allows (`RATE_LIMITED`; `details.streamConnections`).", body = ErrorBody),
        (status = 503, description = "The server has no live source (`DEPTH_UNAVAILABLE`), or the store is unavailable (`SERVICE_UNAVAILABLE`).", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn stream(State(state): State<AppState>, request: Request) -> Result<Response, ApiError> {
    let peer = auth::peer_ip(&request);
    let (mut parts, _body) = request.into_parts();
    let caller = match auth::bearer_token(&parts.headers)? {
        Some(token) => Some(
            auth::admit(&state, Some(token), peer)
                .await
                .map_err(|refusal| refusal.error)?,
        ),
        None => None,
    };
    params::none(parts.uri.query())?;
    // Only an upgrade can send its key in a first message: any other request without the
    // header is refused as every keyed call is.
    let upgrade = match WebSocketUpgrade::from_request_parts(&mut parts, &state).await {
        Ok(upgrade) => upgrade,
        Err(_) if caller.is_none() => return Err(ApiError::MissingApiKey),
        Err(_) => {
            return Err(ApiError::InvalidRequest {
                status: StatusCode::UPGRADE_REQUIRED,
                message: "GET /api/v1/stream is a WebSocket: open it with a WebSocket client.".to_owned(),
            });
        }
    };
    let hub = state.stream.clone().ok_or_else(|| ApiError::DepthUnavailable {
        message: "This server has no live source of market data: it was started without one.".to_owned(),
    })?;
    let admitted = match caller {
        Some(caller) => Some(Admitted {
            slot: connection::open_slot(&state, &hub, &caller)?,
            caller,
        }),
        None => None,
    };
    let request_id = parts.extensions.get::<RequestId>().cloned().ok_or_else(|| {
        tracing::error!("the stream route is missing the request id layer");
        ApiError::Internal
    })?;
    let opening = Opening {
        state,
        hub,
        admitted,
        request_id,
        peer,
    };
    Ok(upgrade
        .max_message_size(crate::MAX_BODY_BYTES)
        .read_buffer_size(READ_BUFFER_BYTES)
        .on_upgrade(move |socket| connection::serve(socket, opening)))
}

/// This module's route, registered with its documentation.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(stream))
}
