//! Waits between reconnection attempts: exponential, capped, with jitter.

use std::time::Duration;

use crate::settings::ConnectionSettings;

#[derive(Debug)]
pub(crate) struct Backoff {
    initial: Duration,
    max: Duration,
    failures: u32,
}

impl Backoff {
    pub(crate) fn new(settings: &ConnectionSettings) -> Backoff {
        Backoff {
            initial: settings.reconnect_initial,
            max: settings.reconnect_max.max(settings.reconnect_initial),
            failures: 0,
        }
    }

    /// The wait before the next attempt: between half and all of `initial * 2^failures`,
    /// capped at `max`.
    pub(crate) fn next_wait(&mut self) -> Duration {
        let ceiling = self.initial.saturating_mul(1u32 << self.failures.min(16)).min(self.max);
        self.failures = self.failures.saturating_add(1);
        ceiling.mul_f64(rand::random_range(0.5..=1.0))
    }

    /// A connection worked (a frame arrived): the next failure starts from `initial` again.
    pub(crate) fn reset(&mut self) {
        self.failures = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_the_cap_and_start_again_after_a_success() {
        let settings = ConnectionSettings {
            reconnect_initial: Duration::from_millis(100),
            reconnect_max: Duration::from_millis(350),
            ..ConnectionSettings::default()
        };
        let mut backoff = Backoff::new(&settings);
        let ceilings = [100, 200, 350, 350];
        for ceiling in ceilings {
            let wait = backoff.next_wait();
            let ceiling = Duration::from_millis(ceiling);
            assert!(
                wait >= ceiling / 2 && wait <= ceiling,
                "{wait:?} not in [{:?}, {ceiling:?}]",
                ceiling / 2
            );
        }
        backoff.reset();
        assert!(backoff.next_wait() <= Duration::from_millis(100));
    }
}
