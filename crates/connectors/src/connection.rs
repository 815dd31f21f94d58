//! One exchange connection kept open for as long as markets are followed: connect, let the
//! session subscribe, read frames, send heartbeats, and on a drop, a close or a stall tell
//! the session and reconnect after a backoff. The session ([`StreamSession`]) decides
//! everything about the protocol; this module only does the I/O and keeps the time.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use futures::{SinkExt, StreamExt};
use marketlens_domain::stream::MarketUpdate;
use marketlens_exchanges::stream::{Reaction, StreamSession};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until, timeout};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::client::Request;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::backoff::Backoff;
use crate::feed::{Command, ConnectorStats};
use crate::malformed::MalformedFrames;
use crate::settings::ConnectionSettings;

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Makes the handshake request of each connection (Kalshi signs each one afresh).
pub(crate) type Handshake = Box<dyn Fn(Request) -> Result<Request, String> + Send + Sync>;

/// Why a connection ended.
enum Ended {
    /// The connector was dropped or its updates' receiver closed: stop for good.
    Shutdown,
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
                if self.apply_disconnected(command).await.is_err() {
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
            let Ended::Dropped(reason) = ended else {
                return;
            };
            metrics::counter!("marketlens_stream_disconnects_total", "exchange" => exchange).increment(1);
            let wait = backoff.next_wait();
            tracing::warn!(exchange, %reason, wait_ms = wait.as_millis() as u64, "stream interrupted; reconnecting");
            let reaction = self.session.disconnected(chrono::Utc::now());
            if self.deliver(reaction.updates).await.is_err() || self.wait(wait).await.is_err() {
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
        let mut last_frame = Instant::now();
        let mut next_heartbeat = Instant::now() + self.settings.heartbeat_every;
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
                    backoff.reset();
                    match self.session.frame(text.as_str(), chrono::Utc::now()) {
                        Ok(reaction) => {
                            if let Err(ended) = self.react(&mut sink, reaction).await {
                                return ended;
                            }
                        }
                        Err(error) => malformed.skip(&error),
                    }
                    // Time spent delivering (a slow reader of the updates) is not the
                    // exchange's silence.
                    last_frame = Instant::now();
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
            }
        }
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
        self.deliver(reaction.updates).await
    }

    async fn deliver(&self, updates: Vec<MarketUpdate>) -> Result<(), Ended> {
        for update in updates {
            self.updates.send(update).await.map_err(|_| Ended::Shutdown)?;
        }
        Ok(())
    }

    fn session_apply(&mut self, command: Command) {
        match command {
            Command::Follow(market) => self.session.follow(&market),
            Command::Unfollow(market) => self.session.unfollow(market),
        }
    }

    /// Applies a command while disconnected: nothing is sent, but a market that cannot be
    /// followed at all is reported at once.
    async fn apply_disconnected(&mut self, command: Command) -> Result<(), Ended> {
        self.session_apply(command);
        let reaction = self.session.flush(chrono::Utc::now());
        self.deliver(reaction.updates).await
    }

    /// Waits `wait` before reconnecting, still counting follows and unfollows.
    async fn wait(&mut self, wait: std::time::Duration) -> Result<(), Ended> {
        let until = Instant::now() + wait;
        loop {
            tokio::select! {
                () = sleep_until(until) => return Ok(()),
                command = self.commands.recv() => {
                    let Some(command) = command else {
                        return Err(Ended::Shutdown);
                    };
                    self.apply_disconnected(command).await?;
                }
            }
        }
    }
}
