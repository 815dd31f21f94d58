//! Playing a recording again and again, for a stream that never goes quiet (the demo's,
//! [`ReplayServer::loop_streams`](crate::ReplayServer::loop_streams)): each pass plays the
//! whole recording, books first, each frame stamped with the time it is sent (as an exchange
//! stamps a live frame) and each trade's id marked with the pass, so that a client sees time
//! move on and no trade twice. Without looping a recording is played once, as recorded.

use std::time::Duration;

use chrono::{SecondsFormat, Utc};
use serde_json::Value;

/// The pause between two passes of a recording.
pub(crate) const BETWEEN_PASSES: Duration = Duration::from_secs(2);

/// One pass over a recording.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pass {
    number: u64,
    looping: bool,
}

impl Pass {
    /// The first pass; restamped and followed by others when `looping`.
    pub(crate) fn first(looping: bool) -> Pass {
        Pass { number: 0, looping }
    }

    /// The pass after this one, if the recording loops.
    pub(crate) fn next(self) -> Option<Pass> {
        self.looping.then_some(Pass {
            number: self.number + 1,
            looping: true,
        })
    }

    /// A Polymarket event as this pass sends it: `timestamp` (milliseconds, text or number)
    /// now, `transaction_hash` marked with the pass.
    pub(crate) fn polymarket(self, event: &Value) -> Value {
        let mut event = event.clone();
        if self.looping {
            let now = Utc::now().timestamp_millis();
            restamp(&mut event, "timestamp", now.to_string().into(), now.into());
            self.mark(&mut event, "transaction_hash");
        }
        event
    }

    /// A Kalshi message (`msg`) as this pass sends it: `ts` (ISO 8601 text, or seconds) and
    /// `ts_ms` now, `trade_id` marked with the pass.
    pub(crate) fn kalshi(self, message: &Value) -> Value {
        let mut message = message.clone();
        if self.looping {
            let now = Utc::now();
            let iso = now.to_rfc3339_opts(SecondsFormat::Millis, true);
            let millis = now.timestamp_millis();
            restamp(&mut message, "ts", iso.into(), now.timestamp().into());
            restamp(&mut message, "ts_ms", millis.to_string().into(), millis.into());
            self.mark(&mut message, "trade_id");
        }
        message
    }

    /// Appends `-N` to the text at `field` from the second pass on.
    fn mark(self, frame: &mut Value, field: &str) {
        if self.number == 0 {
            return;
        }
        if let Some(Value::String(id)) = frame.get_mut(field) {
            id.push_str(&format!("-{}", self.number));
        }
    }
}

/// Replaces `field` of `frame` when present: a text by `text`, a number by `number`.
fn restamp(frame: &mut Value, field: &str, text: Value, number: Value) {
    let Some(value) = frame.get_mut(field) else {
        return;
    };
    match value {
        Value::String(_) => *value = text,
        Value::Number(_) => *value = number,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_looping_pass_restamps_frames_and_marks_trades_and_a_single_play_keeps_them() {
        let event = json!({"event_type": "last_trade_price", "timestamp": "1770921571394", "transaction_hash": "0xab"});
        assert_eq!(Pass::first(false).polymarket(&event), event);
        assert!(Pass::first(false).next().is_none());
        let first = Pass::first(true);
        let sent = first.polymarket(&event);
        let millis: i64 = sent["timestamp"].as_str().unwrap().parse().unwrap();
        assert!((Utc::now().timestamp_millis() - millis).abs() < 60_000, "{sent}");
        assert_eq!(sent["transaction_hash"], "0xab");
        let second = first.next().unwrap();
        assert_eq!(second.polymarket(&event)["transaction_hash"], "0xab-1");

        let trade = json!({"trade_id": "t", "ts": 1770897981});
        let sent = second.kalshi(&trade);
        assert!(
            (Utc::now().timestamp() - sent["ts"].as_i64().unwrap()).abs() < 60,
            "{sent}"
        );
        assert_eq!(sent["trade_id"], "t-1");
        let delta = json!({"ts": "2026-08-07T06:46:28.97871Z", "ts_ms": 1786085188978_i64});
        let sent = first.kalshi(&delta);
        assert!(sent["ts"].as_str().unwrap().ends_with('Z'), "{sent}");
        assert!((Utc::now().timestamp_millis() - sent["ts_ms"].as_i64().unwrap()).abs() < 60_000);
    }
}
