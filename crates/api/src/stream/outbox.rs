//! A client's queue of messages, between the hub, which fills it without ever waiting, and the
//! connection's writer, which empties it into the socket as fast as the client reads.
//!
//! The queue is bounded: a client that falls a whole queue behind is too slow to keep up, and
//! is closed (the writer sees [`Outbox::too_slow`] and sends the close frame at once) rather
//! than allowed to grow the server's memory or hold up the hub, which serves every other
//! client from the same loop.

use super::messages::Unsequenced;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio_util::sync::CancellationToken;

/// One text frame to send.
#[derive(Debug)]
pub enum Outgoing {
    /// A market message: its subscription's sequence number and the message shared by every
    /// subscriber.
    Market { seq: u64, message: Unsequenced },
    /// Any other message, whole.
    Control(String),
    /// The close frame, after which the writer sends nothing.
    Close(axum::extract::ws::CloseFrame),
}

/// The sending end of a client's queue; cheap to clone.
#[derive(Debug, Clone)]
pub struct Outbox {
    /// Which client this is, among the hub's.
    pub client: u64,
    queue: mpsc::Sender<Outgoing>,
    too_slow: CancellationToken,
}

impl Outbox {
    /// A client's outbox and the receiving end its writer reads, holding at most `capacity`
    /// messages.
    pub fn new(client: u64, capacity: usize) -> (Outbox, mpsc::Receiver<Outgoing>) {
        let (queue, queued) = mpsc::channel(capacity.max(1));
        let outbox = Outbox {
            client,
            queue,
            too_slow: CancellationToken::new(),
        };
        (outbox, queued)
    }

    /// Queues `message` without waiting; a full queue marks the client too slow, and the
    /// message is dropped (the client is being closed).
    pub fn push(&self, message: Outgoing) {
        match self.queue.try_send(message) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                if !self.too_slow.is_cancelled() {
                    metrics::counter!("marketlens_stream_slow_clients_total").increment(1);
                }
                self.too_slow.cancel();
            }
            // The writer has ended: the connection is closing.
            Err(TrySendError::Closed(_)) => {}
        }
    }

    /// Completes once the client has fallen a whole queue behind.
    pub fn too_slow(&self) -> &CancellationToken {
        &self.too_slow
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_marks_the_client_too_slow_and_drops_the_message() {
        let (outbox, mut queued) = Outbox::new(1, 2);
        for text in ["a", "b", "c"] {
            outbox.push(Outgoing::Control(text.into()));
        }
        assert!(outbox.too_slow().is_cancelled());
        assert!(matches!(queued.try_recv(), Ok(Outgoing::Control(text)) if text == "a"));
        assert!(matches!(queued.try_recv(), Ok(Outgoing::Control(text)) if text == "b"));
        assert!(queued.try_recv().is_err());
    }
}
