//! Faults of a stream: the ways an exchange's WebSocket misbehaves, queued by a test and each
//! spent on one frame of one exchange's stream.

use marketlens_domain::Exchange;

/// One misbehaviour of a stream, applied in place of (or before) one data frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamFault {
    /// The connection is cut without a close frame, as a network failure does.
    DropConnection,
    /// The frame is lost: on Kalshi its sequence number is used up, so the next frame of its
    /// subscription shows a gap.
    SequenceGap,
    /// A frame that is not JSON (`{"type": "orderbook_delta", <html>`) is sent before it.
    Malformed,
    /// Nothing more is sent on the connection, neither frames nor heartbeats nor `PONG`s,
    /// until the client gives up on it.
    Stall,
}

/// The body of [`StreamFault::Malformed`].
pub const MALFORMED_FRAME: &str = r#"{"type": "orderbook_delta", <html>oops"#;

/// Faults waiting for their frame, oldest first.
#[derive(Debug, Default)]
pub(crate) struct StreamFaults {
    /// (exchange, data frames still to send before this one applies, fault).
    pending: Vec<(Exchange, usize, StreamFault)>,
}

impl StreamFaults {
    pub(crate) fn push(&mut self, exchange: Exchange, after_frames: usize, fault: StreamFault) {
        self.pending.push((exchange, after_frames, fault));
    }

    /// A data frame of `exchange` is about to be sent: the fault that applies to it, if any
    /// (the oldest one due), and every other fault of the exchange one frame closer.
    pub(crate) fn next_frame(&mut self, exchange: Exchange) -> Option<StreamFault> {
        let due = self
            .pending
            .iter()
            .position(|(of, frames, _)| *of == exchange && *frames == 0)
            .map(|index| self.pending.remove(index).2);
        for (of, frames, _) in &mut self.pending {
            if *of == exchange && *frames > 0 {
                *frames -= 1;
            }
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fault_applies_after_its_count_of_frames_of_its_exchange() {
        let mut faults = StreamFaults::default();
        faults.push(Exchange::Kalshi, 1, StreamFault::SequenceGap);
        faults.push(Exchange::Polymarket, 0, StreamFault::Malformed);
        assert_eq!(faults.next_frame(Exchange::Kalshi), None);
        assert_eq!(faults.next_frame(Exchange::Kalshi), Some(StreamFault::SequenceGap));
        assert_eq!(faults.next_frame(Exchange::Polymarket), Some(StreamFault::Malformed));
        assert_eq!(faults.next_frame(Exchange::Polymarket), None);
    }
}
