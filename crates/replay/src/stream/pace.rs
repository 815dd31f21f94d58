//! Playing recorded frames at a chosen speed: the gap between two frames' recorded times,
//! divided by the speed (infinite: no wait), and never more than a few seconds.

use std::time::Duration;

/// The longest wait between two frames, whatever the recording's gap.
const LONGEST_WAIT: Duration = Duration::from_secs(5);

#[derive(Debug, Default)]
pub(crate) struct Pace {
    previous: Option<i64>,
}

impl Pace {
    /// Waits until the frame recorded at `time_ms` is due.
    pub(crate) async fn until(&mut self, time_ms: i64, speed: f64) {
        let gap = self.previous.map_or(0, |previous| (time_ms - previous).max(0));
        self.previous = Some(time_ms);
        if gap == 0 || !speed.is_finite() || speed <= 0.0 {
            return;
        }
        let wait = Duration::from_millis(gap as u64).div_f64(speed).min(LONGEST_WAIT);
        tokio::time::sleep(wait).await;
    }
}
