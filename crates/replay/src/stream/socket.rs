//! One client connection: its messages read for the endpoint, and everything the endpoint sends
//! going through one task,
//! which stamps Kalshi's per-subscription sequence numbers, applies queued faults to data
//! frames, and sends heartbeats (Kalshi pings the client every ten seconds).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures::stream::{SplitSink, SplitStream};
use futures::{SinkExt, StreamExt};
use marketlens_domain::Exchange;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::fault::{MALFORMED_FRAME, StreamFault};
use crate::server::Shared;

/// Something to send.
#[derive(Debug)]
pub(crate) enum Outgoing {
    /// A reply to a command, sent as is; `seq` of subscription `sid` stamped when given.
    Reply { frame: Value, sid: Option<u64> },
    /// A frame of the recording: faults apply to it; `seq` stamped as for replies.
    Data { frame: Value, sid: Option<u64> },
    /// Plain text (Polymarket's `PONG`).
    Text(String),
}

/// The handle the endpoint and its players send through.
#[derive(Debug, Clone)]
pub(crate) struct Link {
    sender: mpsc::UnboundedSender<Outgoing>,
    /// Set by [`StreamFault::Stall`]: the endpoint stops answering too.
    pub(crate) stalled: Arc<AtomicBool>,
}

impl Link {
    /// Sends `outgoing`; false once the connection is gone.
    pub(crate) fn send(&self, outgoing: Outgoing) -> bool {
        self.sender.send(outgoing).is_ok()
    }
}

/// One client connection: what it sends, read by the endpoint, and its writer.
pub(crate) struct Client {
    source: SplitStream<WebSocket>,
    /// Ends when the connection should close (a dropped-connection fault, or the client gone).
    writer: JoinHandle<()>,
    exchange: Exchange,
    shared: Arc<Shared>,
}

impl Client {
    /// Splits `socket` and starts its writer, which pings every `heartbeat` when given.
    pub(crate) fn start(
        socket: WebSocket,
        exchange: Exchange,
        shared: Arc<Shared>,
        heartbeat: Option<Duration>,
    ) -> (Client, Link) {
        let (sink, source) = socket.split();
        let (sender, receiver) = mpsc::unbounded_channel();
        let stalled = Arc::new(AtomicBool::new(false));
        let writer = Writer {
            sink,
            exchange,
            shared: shared.clone(),
            sequences: HashMap::new(),
            stalled: stalled.clone(),
        };
        let client = Client {
            source,
            writer: tokio::spawn(writer.run(receiver, heartbeat)),
            exchange,
            shared,
        };
        (client, Link { sender, stalled })
    }

    /// The client's next text message, recorded for the test (while the server records its
    /// clients); `None` once the connection is over.
    pub(crate) async fn next_text(&mut self) -> Option<String> {
        loop {
            let message = tokio::select! {
                _ = &mut self.writer => return None,
                message = self.source.next() => message,
            };
            match message {
                Some(Ok(Message::Text(text))) => {
                    let stream = &self.shared.stream;
                    self.shared
                        .record(&stream.messages, (self.exchange, text.as_str().to_owned()));
                    return Some(text.as_str().to_owned());
                }
                Some(Ok(_)) => continue,
                _ => return None,
            }
        }
    }
}

struct Writer {
    sink: SplitSink<WebSocket, Message>,
    exchange: Exchange,
    shared: Arc<Shared>,
    /// The last `seq` sent on each subscription.
    sequences: HashMap<u64, u64>,
    stalled: Arc<AtomicBool>,
}

impl Writer {
    async fn run(mut self, mut receiver: mpsc::UnboundedReceiver<Outgoing>, heartbeat: Option<Duration>) {
        let mut ticks = heartbeat.map(|every| tokio::time::interval_at(tokio::time::Instant::now() + every, every));
        loop {
            let outgoing = tokio::select! {
                outgoing = receiver.recv() => outgoing,
                _ = async { ticks.as_mut().expect("only polled with a heartbeat").tick().await }, if ticks.is_some() => {
                    if !self.stalled.load(Ordering::Relaxed) && self.sink.send(Message::Ping("heartbeat".into())).await.is_err() {
                        return;
                    }
                    continue;
                }
            };
            let Some(outgoing) = outgoing else {
                return;
            };
            if self.stalled.load(Ordering::Relaxed) {
                continue;
            }
            let text = match outgoing {
                Outgoing::Text(text) => text,
                Outgoing::Reply { frame, sid } => self.stamped(frame, sid),
                Outgoing::Data { frame, sid } => {
                    let fault = self.shared.stream.next_fault(self.exchange);
                    match fault {
                        None => self.stamped(frame, sid),
                        Some(StreamFault::DropConnection) => return,
                        Some(StreamFault::SequenceGap) => {
                            // Lost: its number is used up all the same.
                            self.stamped(frame, sid);
                            continue;
                        }
                        Some(StreamFault::Malformed) => {
                            if self.sink.send(Message::text(MALFORMED_FRAME)).await.is_err() {
                                return;
                            }
                            self.stamped(frame, sid)
                        }
                        Some(StreamFault::Stall) => {
                            self.stalled.store(true, Ordering::Relaxed);
                            continue;
                        }
                    }
                }
            };
            if self.sink.send(Message::text(text)).await.is_err() {
                return;
            }
        }
    }

    /// The frame's text, with the next `seq` of subscription `sid` when given.
    fn stamped(&mut self, mut frame: Value, sid: Option<u64>) -> String {
        if let Some(sid) = sid {
            let seq = self.sequences.entry(sid).or_default();
            *seq += 1;
            frame["seq"] = Value::from(*seq);
        }
        frame.to_string()
    }
}
