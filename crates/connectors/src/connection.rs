//! One exchange connection kept open for as long as markets are followed: connect, let the
//! session subscribe, read frames, send heartbeats, and on a drop, a close or a stall tell
//! the session and reconnect after a backoff. After the last unfollow the socket is closed
//! and the task waits, idle, for the next follow. The session ([`StreamSession`]) decides
//! everything about the protocol; this module only does the I/O and keeps the time.
//!
//! Architecture invariant: the socket loop never waits for the reader of the updates. The
//! channel is bounded and shared by every connection of the process, so one slow reader
//! blocking one connection would stop its reads, its heartbeats and, through the shared
//! channel, every other connection. When the channel is full, an update is dropped and its
//! market marked lagging: its later updates are dropped too until half the channel is free
//! again, then the market is reported interrupted and its whole book asked for afresh
//! ([`StreamSession::resync`]), which is all a reader needs to be right again.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use marketlens_domain::stream::{MarketChange, MarketUpdate};
use marketlens_exchanges::stream::{Reaction, StreamSession};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio::time::{Instant, sleep_until, timeout};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::client::Request;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use uuid::Uuid;

use crate::backoff::Backoff;
use crate::feed::{Command, ConnectorStats};
use crate::malformed::MalformedFrames;
use crate::settings::ConnectionSettings;

/// How often the session is asked what is due (overdue books, retries).
const TICK_EVERY: Duration = Duration::from_millis(250);

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Makes the handshake request of each connection (Kalshi signs each one afresh).
pub(crate) type Handshake = Box<dyn Fn(Request) -> Result<Request, String> + Send + Sync>;

/// Why a connection ended.
enum Ended {
    /// The connector was dropped or its updates' receiver closed: stop for good.
    Shutdown,
    /// Nothing is followed any more: the socket is closed until the next follow.
    Idle,
    /// The connection dropped, closed or stalled: reconnect.
    Dropped(String),
}

pub(crate) struct Connection<S> {
    pub(crate) session: S,
    pub(crate) url: String,
    pub(crate) handshake: Handshake,
    pub(crate) commands: mpsc::UnboundedReceiver<Command>,
    pub(crate) updates: mpsc::Sender<MarketUpdate>,
    pub(crate) settings: ConnectionSettings,
    pub(crate) stats: Arc<ConnectorStats>,
    /// Markets whose updates were dropped because the channel was full, and are dropped until
    /// it has room again (see the module documentation).
    pub(crate) lagging: BTreeSet<Uuid>,
}

impl<S: StreamSession> Connection<S> {
    /// Runs until the connector is dropped or nobody reads the updates.
    pub(crate) async fn run(mut self) {
        let exchange = self.session.exchange().as_str();
        let mut malformed = MalformedFrames::new(self.session.exchange(), self.stats.clone());
        let mut backoff = Backoff::new(&self.settings);
        loop {
            // Connect only while something is followed.
            while !self.session.is_following() {
                let Some(command) = self.commands.recv().await else {
                    return;
                };
                if self.apply_disconnected(command).is_err() {
                    return;
                }
            }
            let ended = match self.connect().await {
                Ok(socket) => {
                    self.stats.connections.fetch_add(1, Ordering::Relaxed);
                    metrics::counter!("marketlens_stream_connections_total", "exchange" => exchange).increment(1);
                    tracing::info!(exchange, "stream connected");
                    self.serve(socket, &mut malformed, &mut backoff).await
                }
                Err(reason) => Ended::Dropped(format!("cannot connect: {reason}")),
            };
            let reason = match ended {
                Ended::Shutdown => return,
                Ended::Idle => {
                    tracing::info!(exchange, "nothing followed; stream closed");
                    self.session.disconnected(chrono::Utc::now());
                    continue;
                }
                Ended::Dropped(reason) => reason,
            };
            metrics::counter!("marketlens_stream_disconnects_total", "exchange" => exchange).increment(1);
            let wait = backoff.next_wait();
            tracing::warn!(exchange, %reason, wait_ms = wait.as_millis() as u64, "stream interrupted; reconnecting");
            let reaction = self.session.disconnected(chrono::Utc::now());
            if self.deliver(reaction.updates).is_err() || self.wait(wait).await.is_err() {
                return;
            }
        }
    }

    async fn connect(&mut self) -> Result<Socket, String> {
        let request = self
            .url
            .as_str()
            .into_client_request()
            .map_err(|error| error.to_string())?;
        let request = (self.handshake)(request)?;
        match timeout(self.settings.connect_timeout, tokio_tungstenite::connect_async(request)).await {
            Ok(Ok((socket, _response))) => Ok(socket),
            Ok(Err(error)) => Err(error.to_string()),
            Err(_) => Err(format!("no answer within {:?}", self.settings.connect_timeout)),
        }
    }

    /// Follows a connection until it ends.
    async fn serve(&mut self, socket: Socket, malformed: &mut MalformedFrames, backoff: &mut Backoff) -> Ended {
        let (mut sink, mut source) = socket.split();
        let opened = self.session.connected(chrono::Utc::now());
        if let Err(ended) = self.react(&mut sink, opened).await {
            return ended;
        }
        let heartbeat = self.session.heartbeat();
        let opened_at = Instant::now();
        // Whether this connection has worked (see `proves_itself`): the backoff starts over.
        let mut proven = false;
        let mut last_frame = Instant::now();
        let mut next_heartbeat = Instant::now() + self.settings.heartbeat_every;
        let mut next_tick = Instant::now() + TICK_EVERY;
        loop {
            tokio::select! {
                command = self.commands.recv() => {
                    let Some(command) = command else {
                        return Ended::Shutdown;
                    };
                    self.session_apply(command);
                    // Everything queued meanwhile goes in the same batch.
                    while let Ok(command) = self.commands.try_recv() {
                        self.session_apply(command);
                    }
                    let flushed = self.session.flush(chrono::Utc::now());
                    if let Err(ended) = self.react(&mut sink, flushed).await {
                        return ended;
                    }
                    if !self.session.is_following() {
                        // Nobody would read what the exchange sends; heartbeats would only
                        // keep an empty connection open.
                        sink.send(Message::Close(None)).await.ok();
                        return Ended::Idle;
                    }
                }
                frame = source.next() => {
                    last_frame = Instant::now();
                    let text = match frame {
                        None => return Ended::Dropped("the exchange closed the connection".into()),
                        Some(Err(error)) => return Ended::Dropped(error.to_string()),
                        Some(Ok(Message::Close(close))) => {
                            return Ended::Dropped(format!("the exchange closed the connection: {close:?}"));
                        }
                        Some(Ok(Message::Text(text))) => text,
                        // Pings are answered by tungstenite; they only show the stream is alive.
                        Some(Ok(_)) => continue,
                    };
                    match self.session.frame(text.as_str(), chrono::Utc::now()) {
                        Ok(reaction) => {
                            if !proven && self.proves_itself(opened_at, &reaction) {
                                proven = true;
                                backoff.reset();
                            }
                            if let Err(ended) = self.react(&mut sink, reaction).await {
                                return ended;
                            }
                        }
                        Err(error) => malformed.skip(&error),
                    }
                }
                () = sleep_until(last_frame + self.settings.stall_after) => {
                    return Ended::Dropped(format!("no frame for {:?}", self.settings.stall_after));
                }
                () = sleep_until(next_heartbeat), if heartbeat.is_some() => {
                    next_heartbeat = Instant::now() + self.settings.heartbeat_every;
                    let ping = heartbeat.unwrap_or_default();
                    if let Err(error) = sink.send(Message::text(ping)).await {
                        return Ended::Dropped(error.to_string());
                    }
                }
                () = sleep_until(next_tick) => {
                    next_tick = Instant::now() + TICK_EVERY;
                    let mut due = self.session.tick(chrono::Utc::now());
                    if let Some(resync) = self.caught_up() {
                        due.messages.extend(resync.messages);
                        due.updates.extend(resync.updates);
                    }
                    if let Err(ended) = self.react(&mut sink, due).await {
                        return ended;
                    }
                }
            }
        }
    }

    /// Once the lagging reader has emptied half the channel (so that a resync's books have
    /// room, rather than overflowing it again at once): the lagging markets' resync.
    fn caught_up(&mut self) -> Option<Reaction> {
        if self.lagging.is_empty() || self.updates.capacity() * 2 < self.updates.max_capacity() {
            return None;
        }
        let lagged: Vec<Uuid> = std::mem::take(&mut self.lagging).into_iter().collect();
        tracing::info!(
            exchange = self.session.exchange().as_str(),
            markets = lagged.len(),
            "the updates' reader caught up; resynchronising the markets it missed"
        );
        Some(self.session.resync(&lagged, chrono::Utc::now()))
    }

    /// Whether a connection has shown it works, so that the next failure waits the shortest
    /// time again: it stayed up for as long as a stall takes to notice, or brought a whole
    /// book. (A server that accepts, sends a frame and closes must not earn quick retries.)
    fn proves_itself(&self, opened_at: Instant, reaction: &Reaction) -> bool {
        opened_at.elapsed() >= self.settings.stall_after
            || reaction
                .updates
                .iter()
                .any(|update| matches!(update.change, MarketChange::Book { .. }))
    }

    /// Sends what the session wants sent and delivers its updates.
    async fn react(
        &mut self,
        sink: &mut futures::stream::SplitSink<Socket, Message>,
        reaction: Reaction,
    ) -> Result<(), Ended> {
        let exchange = self.session.exchange().as_str();
        for problem in &reaction.problems {
            tracing::warn!(exchange, %problem, "the exchange stream reported a problem");
        }
        for message in reaction.messages {
            sink.send(Message::text(message))
                .await
                .map_err(|error| Ended::Dropped(error.to_string()))?;
        }
        self.deliver(reaction.updates)
    }

    /// Hands `updates` to the reader without waiting: when the channel is full, the update
    /// is dropped and its market lags until the channel has room (see the module
    /// documentation).
    fn deliver(&mut self, updates: Vec<MarketUpdate>) -> Result<(), Ended> {
        for update in updates {
            if self.lagging.contains(&update.market) {
                continue;
            }
            match self.updates.try_send(update) {
                Ok(()) => {}
                Err(TrySendError::Full(update)) => {
                    if self.lagging.is_empty() {
                        tracing::warn!(
                            exchange = self.session.exchange().as_str(),
                            "the updates' reader is behind; dropping updates until it catches up"
                        );
                    }
                    metrics::counter!("marketlens_stream_updates_dropped_total", "exchange" => self.session.exchange().as_str())
                        .increment(1);
                    self.lagging.insert(update.market);
                }
                Err(TrySendError::Closed(_)) => return Err(Ended::Shutdown),
            }
        }
        Ok(())
    }

    fn session_apply(&mut self, command: Command) {
        match command {
            Command::Follow(market) => self.session.follow(&market),
            Command::Unfollow(market) => {
                self.lagging.remove(&market);
                self.session.unfollow(market);
            }
        }
    }

    /// Applies a command while disconnected: nothing is sent, but a market that cannot be
    /// followed at all is reported at once.
    fn apply_disconnected(&mut self, command: Command) -> Result<(), Ended> {
        self.session_apply(command);
        let reaction = self.session.flush(chrono::Utc::now());
        self.deliver(reaction.updates)
    }

    /// Waits `wait` before reconnecting, still counting follows and unfollows.
    async fn wait(&mut self, wait: Duration) -> Result<(), Ended> {
        let until = Instant::now() + wait;
        loop {
            tokio::select! {
                () = sleep_until(until) => return Ok(()),
                command = self.commands.recv() => {
                    let Some(command) = command else {
                        return Err(Ended::Shutdown);
                    };
                    self.apply_disconnected(command)?;
                }
            }
        }
    }
}
