//! One stream connection, from its upgrade to its end.
//!
//! Two tasks: this one reads the client's messages (its key when it sent none in a header,
//! then subscriptions), charges each subscription's minutes as they start, and ends the
//! subscriptions when the connection ends, however it ends; the writer empties the client's
//! [`Outbox`] into the socket, adds a heartbeat, and closes the socket when asked or when the
//! client is too slow. So a client that stops reading holds up only its own writer.
//!
//! Close codes: 1001 the server is shutting down, 4001 the key was refused (missing, unknown, revoked, or its account
//! suspended), 4008 the client did not read fast enough, 4029 the account holds its tier's
//! stream connections already. An `error` message says why before each close but 4008's.

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures::stream::{SplitSink, SplitStream};
use futures::{SinkExt, StreamExt};
use marketlens_domain::depth::DepthError;
use marketlens_domain::rate_limit::StreamLimit;
use std::net::IpAddr;
use std::ops::ControlFlow;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, MissedTickBehavior};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::StreamHub;
use super::messages::{ClientMessage, ControlMessage};
use super::outbox::{Outbox, Outgoing};
use super::slots::StreamSlot;
use super::subscriptions::Subscriptions;
use crate::auth::{self, Caller};
use crate::billing;
use crate::error::ApiError;
use crate::request_id::RequestId;
use crate::state::AppState;

/// The server is shutting down (RFC 6455's "going away").
pub const CLOSE_GOING_AWAY: u16 = 1001;
/// The key was refused.
pub const CLOSE_UNAUTHORIZED: u16 = 4001;
/// The client fell a whole outbox behind.
pub const CLOSE_TOO_SLOW: u16 = 4008;
/// The account holds its tier's stream connections already.
pub const CLOSE_TOO_MANY_STREAMS: u16 = 4029;

/// A caller whose key was checked before the upgrade, with its connection's slot.
pub struct Admitted {
    pub caller: Caller,
    pub slot: StreamSlot,
}

/// Everything a connection needs from the upgrade request.
pub struct Opening {
    pub state: AppState,
    pub hub: StreamHub,
    /// `None` when the key is to come in the first message.
    pub admitted: Option<Admitted>,
    /// The upgrade request's id: the ledger line of every minute carries it.
    pub request_id: RequestId,
    pub peer: Option<IpAddr>,
}

/// Serves one upgraded connection until it ends.
pub async fn serve(socket: WebSocket, opening: Opening) {
    let Opening {
        state,
        hub,
        admitted,
        request_id,
        peer,
    } = opening;
    let settings = &state.settings.stream;
    let (sink, mut incoming) = socket.split();
    let (outbox, queued) = hub.outbox(settings.outbox_capacity);
    let mut writer = tokio::spawn(write(
        sink,
        queued,
        outbox.too_slow().clone(),
        settings.heartbeat_interval,
    ));
    let admitted = match admitted {
        Some(admitted) => Ok(admitted),
        None => admit_by_message(&state, &hub, &mut incoming, peer).await,
    };
    let (caller, _slot) = match admitted {
        Ok(Admitted { caller, slot }) => (caller, slot),
        Err((error, code)) => {
            outbox.push(Outgoing::Control(ControlMessage::error(None, &error).to_text()));
            outbox.push(close(code, "not admitted"));
            drop(outbox);
            finish(writer).await;
            return;
        }
    };
    let limit = stream_limit(&state, &caller);
    let mut connection = Connection {
        subscriptions: Subscriptions::new(settings.billing_period),
        state: state.clone(),
        hub,
        caller,
        request_id,
        outbox,
        limit,
    };
    let end = connection.run(&mut incoming, &mut writer).await;
    for market in connection.subscriptions.markets() {
        connection.hub.unsubscribe(connection.outbox.client, market);
    }
    if let Some(frame) = end {
        connection.outbox.push(frame);
    }
    drop(connection);
    finish(writer).await;
}

/// Waits for the writer to send what is queued (it ends once every sender of the outbox is
/// gone), unless it has ended already.
async fn finish(writer: tokio::task::JoinHandle<()>) {
    if !writer.is_finished() {
        let _ = writer.await;
    }
}

/// The caller of a connection opened without an `Authorization` header: its first message
/// must be `auth`, within the configured time.
async fn admit_by_message(
    state: &AppState,
    hub: &StreamHub,
    incoming: &mut SplitStream<WebSocket>,
    peer: Option<IpAddr>,
) -> Result<Admitted, (ApiError, u16)> {
    let refused = |error| (error, CLOSE_UNAUTHORIZED);
    let first = tokio::time::timeout(state.settings.stream.auth_timeout, incoming.next()).await;
    let key = match first {
        Ok(Some(Ok(Message::Text(text)))) => match serde_json::from_str::<ClientMessage>(&text) {
            Ok(ClientMessage::Auth { key }) => key,
            _ => return Err(refused(ApiError::MissingApiKey)),
        },
        _ => return Err(refused(ApiError::MissingApiKey)),
    };
    let caller = auth::admit(state, Some(&key), peer)
        .await
        .map_err(|refusal| refused(refusal.error))?;
    let slot = open_slot(state, hub, &caller).map_err(|error| (error, CLOSE_TOO_MANY_STREAMS))?;
    Ok(Admitted { caller, slot })
}

/// A slot for one more stream of the caller's account, or the error that refuses it.
pub fn open_slot(state: &AppState, hub: &StreamHub, caller: &Caller) -> Result<StreamSlot, ApiError> {
    let limit = stream_limit(state, caller);
    hub.open_streams()
        .open(caller.account.id, limit.connections)
        .ok_or_else(|| ApiError::StreamLimited {
            message: format!(
                "This account already has {} stream connections open, as many as its tier allows; close one first.",
                limit.connections
            ),
            details: serde_json::json!({ "streamConnections": limit.connections }),
        })
}

/// The caller's tier's stream limits (the free tier's when the tier has none configured).
fn stream_limit(state: &AppState, caller: &Caller) -> StreamLimit {
    let limits = &state.settings.stream.limits;
    limits
        .limit(&caller.account.tier)
        .or_else(|| limits.limit(auth::FALLBACK_TIER))
        .unwrap_or(StreamLimit {
            connections: 1,
            subscriptions: 1,
        })
}

fn close(code: u16, reason: &'static str) -> Outgoing {
    Outgoing::Close(CloseFrame {
        code,
        reason: reason.into(),
    })
}

/// An admitted connection.
struct Connection {
    state: AppState,
    hub: StreamHub,
    caller: Caller,
    request_id: RequestId,
    outbox: Outbox,
    subscriptions: Subscriptions,
    limit: StreamLimit,
}

impl Connection {
    /// Reads and answers the client's messages and charges minutes until the client leaves,
    /// the writer ends, or the key stops being good; returns the close frame to send, if any.
    async fn run(
        &mut self,
        incoming: &mut SplitStream<WebSocket>,
        writer: &mut tokio::task::JoinHandle<()>,
    ) -> Option<Outgoing> {
        loop {
            let next_minute = self.subscriptions.next_due();
            let flow = tokio::select! {
                message = incoming.next() => match message {
                    Some(Ok(Message::Text(text))) => self.answer(&text).await,
                    Some(Ok(Message::Binary(_))) => {
                        self.send_error(None, &ApiError::InvalidJson {
                            message: "Send messages as JSON text frames.".to_owned(),
                        });
                        ControlFlow::Continue(())
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => ControlFlow::Continue(()),
                    Some(Ok(Message::Close(_)) | Err(_)) | None => return None,
                },
                () = sleep_until(next_minute), if next_minute.is_some() => self.charge_started_minutes().await,
                _ = &mut *writer => return None,
                () = self.hub.closing() => return Some(close(CLOSE_GOING_AWAY, "the server is shutting down")),
            };
            if let ControlFlow::Break(frame) = flow {
                return Some(frame);
            }
        }
    }

    async fn answer(&mut self, text: &str) -> ControlFlow<Outgoing> {
        let message = match serde_json::from_str::<ClientMessage>(text) {
            Ok(message) => message,
            Err(error) => {
                self.send_error(None, &ApiError::InvalidJson {
                    message: format!(
                        "A message must be a JSON object of type subscribe or unsubscribe with a list of market ids: {error}."
                    ),
                });
                return ControlFlow::Continue(());
            }
        };
        match message {
            ClientMessage::Auth { .. } => {
                self.send_error(
                    None,
                    &ApiError::InvalidRequest {
                        status: axum::http::StatusCode::BAD_REQUEST,
                        message: "This connection is authenticated already.".to_owned(),
                    },
                );
            }
            ClientMessage::Subscribe { markets } => {
                for id in markets {
                    self.subscribe(&id).await?;
                }
            }
            ClientMessage::Unsubscribe { markets } => {
                for id in markets {
                    let market = Uuid::parse_str(&id)
                        .ok()
                        .filter(|market| self.subscriptions.ended(*market));
                    match market {
                        Some(market) => {
                            self.hub.unsubscribe(self.outbox.client, market);
                            self.send(ControlMessage::Unsubscribed { market });
                        }
                        None => self.send_error(
                            None,
                            &ApiError::not_found(format!("This connection is not subscribed to market {id:?}.")),
                        ),
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Subscribes to the market `id` names, its first minute paid, unless it is subscribed
    /// already; an error refuses it, and a key no longer good ends the connection.
    async fn subscribe(&mut self, id: &str) -> ControlFlow<Outgoing> {
        let stored = match crate::routes::depth::depth_market(&self.state, id).await {
            Ok(stored) => stored,
            Err(error) => {
                self.send_error(None, &error);
                return ControlFlow::Continue(());
            }
        };
        let market_id = stored.id;
        if self.subscriptions.contains(market_id) {
            return ControlFlow::Continue(());
        }
        if self.subscriptions.count() >= self.limit.subscriptions as usize {
            let error = ApiError::StreamLimited {
                message: format!(
                    "A connection of this account's tier may follow {} markets at once; unsubscribe from one first.",
                    self.limit.subscriptions
                ),
                details: serde_json::json!({ "subscriptionsPerConnection": self.limit.subscriptions }),
            };
            self.send_error(Some(market_id), &error);
            return ControlFlow::Continue(());
        }
        let market = match self.hub.markets().stream_market(&stored).await {
            Ok(market) => market,
            Err(error) => {
                let error = match error {
                    DepthError::NotAvailable => ApiError::not_found("This server cannot stream this market."),
                    other => ApiError::from(other),
                };
                self.send_error(Some(market_id), &error);
                return ControlFlow::Continue(());
            }
        };
        let receipt = match billing::charge_now(&self.state, &self.caller, STREAM_MINUTE, &self.request_id).await {
            Ok(receipt) => receipt,
            Err(error) => return self.refused(market_id, error),
        };
        self.subscriptions.started(market_id, Instant::now());
        let subscribed = ControlMessage::Subscribed {
            market: market_id,
            exchange: market.exchange.as_str(),
            outcomes: &market.outcomes,
            credits_remaining: receipt.credits_remaining,
        };
        self.hub.subscribe(&self.outbox, &market, subscribed.to_text());
        ControlFlow::Continue(())
    }

    /// Charges every subscription whose next minute has started, together (one store
    /// transaction when they can share one); a minute that cannot be paid ends its
    /// subscription.
    async fn charge_started_minutes(&mut self) -> ControlFlow<Outgoing> {
        let due = self.subscriptions.due(Instant::now());
        let charges = due
            .iter()
            .map(|_| billing::charge_now(&self.state, &self.caller, STREAM_MINUTE, &self.request_id));
        let outcomes = futures::future::join_all(charges).await;
        let mut flow = ControlFlow::Continue(());
        for (market, outcome) in due.into_iter().zip(outcomes) {
            match outcome {
                Ok(_) => self.subscriptions.paid(market),
                Err(error) => {
                    self.subscriptions.ended(market);
                    self.hub.unsubscribe(self.outbox.client, market);
                    if self.refused(market, error).is_break() {
                        flow = ControlFlow::Break(close(CLOSE_UNAUTHORIZED, "the key is no longer good"));
                    }
                }
            }
        }
        flow
    }

    /// Tells the client why `market` is not (or no longer) subscribed; a key or account no
    /// longer good ends the connection.
    fn refused(&self, market: Uuid, error: ApiError) -> ControlFlow<Outgoing> {
        self.send_error(Some(market), &error);
        match error {
            ApiError::InvalidApiKey | ApiError::AccountSuspended => {
                ControlFlow::Break(close(CLOSE_UNAUTHORIZED, "the key is no longer good"))
            }
            _ => ControlFlow::Continue(()),
        }
    }

    fn send(&self, message: ControlMessage) {
        self.outbox.push(Outgoing::Control(message.to_text()));
    }

    fn send_error(&self, market: Option<Uuid>, error: &ApiError) {
        self.send(ControlMessage::error(market, error));
    }
}

/// What each subscribed market costs per started minute.
const STREAM_MINUTE: marketlens_domain::billing::Operation = marketlens_domain::billing::Operation::StreamMinute;

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// How long the close frame of a client too slow may take to leave: such a client is not
/// reading, so it may never.
const TOO_SLOW_CLOSE_GRACE: Duration = Duration::from_secs(1);

/// Messages written to the socket before it is flushed, at most: a client with several
/// queued costs one write for them, not one each.
const WRITE_BATCH: usize = 64;

/// Sends the outbox's messages and a heartbeat every `heartbeat`, those queued together in one
/// write; closes the socket at a [`Outgoing::Close`], or at once when the client is too slow,
/// even in the middle of a write the client does not read. Ends when every sender of the
/// outbox is gone or the socket fails.
async fn write(
    mut sink: SplitSink<WebSocket, Message>,
    mut queued: mpsc::Receiver<Outgoing>,
    too_slow: CancellationToken,
    heartbeat: Duration,
) {
    let mut beats = tokio::time::interval_at(Instant::now() + heartbeat, heartbeat);
    beats.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        let first = tokio::select! {
            biased;
            () = too_slow.cancelled() => break,
            queued = queued.recv() => match queued {
                Some(outgoing) => frame(outgoing),
                None => return,
            },
            _ = beats.tick() => Message::Text(ControlMessage::heartbeat(chrono::Utc::now()).to_text().into()),
        };
        let mut batch = vec![first];
        while batch.len() < WRITE_BATCH && !matches!(batch.last(), Some(Message::Close(_))) {
            match queued.try_recv() {
                Ok(outgoing) => batch.push(frame(outgoing)),
                Err(_) => break,
            }
        }
        let closing = matches!(batch.last(), Some(Message::Close(_)));
        let sent = tokio::select! {
            biased;
            () = too_slow.cancelled() => break,
            sent = send_all(&mut sink, batch) => sent,
        };
        if sent.is_err() || closing {
            return;
        }
    }
    let frame = CloseFrame {
        code: CLOSE_TOO_SLOW,
        reason: "too slow: the client did not read its messages as fast as they came".into(),
    };
    let _ = tokio::time::timeout(TOO_SLOW_CLOSE_GRACE, sink.send(Message::Close(Some(frame)))).await;
}

/// The frame that sends `outgoing`.
fn frame(outgoing: Outgoing) -> Message {
    match outgoing {
        Outgoing::Market { seq, message } => Message::Text(message.with_seq(seq).into()),
        Outgoing::Control(text) => Message::Text(text.into()),
        Outgoing::Close(frame) => Message::Close(Some(frame)),
    }
}

/// Writes `batch` and flushes once.
async fn send_all(sink: &mut SplitSink<WebSocket, Message>, batch: Vec<Message>) -> Result<(), axum::Error> {
    for message in batch {
        sink.feed(message).await?;
    }
    sink.flush().await
}
