//! A connection's subscriptions and when each one's next minute begins.
//!
//! A subscription pays for each minute as it starts (1 credit per market per started
//! minute): its first on subscribing, then one every billing period after that instant. The
//! next start is counted from the subscription's own start, not from when the last charge
//! happened to run, so a late charge neither shifts nor skips a minute, and a minute is paid
//! once: it is marked paid only by [`Subscriptions::paid`], after its charge.

use std::collections::HashMap;
use std::time::Duration;
use tokio::time::Instant;
use uuid::Uuid;

#[derive(Debug)]
pub struct Subscriptions {
    period: Duration,
    /// When each subscribed market's next unpaid minute starts.
    next_minute: HashMap<Uuid, Instant>,
}

impl Subscriptions {
    pub fn new(period: Duration) -> Subscriptions {
        Subscriptions {
            period,
            next_minute: HashMap::new(),
        }
    }

    /// `market` subscribed at `now`, its first minute paid.
    pub fn started(&mut self, market: Uuid, now: Instant) {
        self.next_minute.insert(market, now + self.period);
    }

    /// Whether `market` was subscribed.
    pub fn ended(&mut self, market: Uuid) -> bool {
        self.next_minute.remove(&market).is_some()
    }

    pub fn contains(&self, market: Uuid) -> bool {
        self.next_minute.contains_key(&market)
    }

    /// How many markets are subscribed.
    pub fn count(&self) -> usize {
        self.next_minute.len()
    }

    pub fn markets(&self) -> impl Iterator<Item = Uuid> + '_ {
        self.next_minute.keys().copied()
    }

    /// When the earliest unpaid minute starts.
    pub fn next_due(&self) -> Option<Instant> {
        self.next_minute.values().min().copied()
    }

    /// The markets whose next minute has started by `now`.
    pub fn due(&self, now: Instant) -> Vec<Uuid> {
        self.next_minute
            .iter()
            .filter(|(_, starts)| **starts <= now)
            .map(|(market, _)| *market)
            .collect()
    }

    /// `market`'s started minute is paid: its next starts a period later.
    pub fn paid(&mut self, market: Uuid) {
        if let Some(starts) = self.next_minute.get_mut(&market) {
            *starts += self.period;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_minute_is_due_once_counted_from_the_subscriptions_start() {
        let period = Duration::from_secs(60);
        let start = Instant::now();
        let (early, late) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let mut subscriptions = Subscriptions::new(period);
        subscriptions.started(early, start);
        subscriptions.started(late, start + Duration::from_secs(30));
        assert_eq!(subscriptions.next_due(), Some(start + period));
        assert!(subscriptions.due(start + Duration::from_secs(59)).is_empty());
        let at = start + Duration::from_secs(75);
        assert_eq!(subscriptions.due(at), vec![early]);
        subscriptions.paid(early);
        assert!(subscriptions.due(at).is_empty(), "paid once");
        assert_eq!(subscriptions.next_due(), Some(start + Duration::from_secs(90)));
        // Charges that run late neither shift the minutes nor skip any: each stays due until
        // it is paid.
        let much_later = start + Duration::from_secs(200);
        let due = |subscriptions: &Subscriptions| {
            let mut due = subscriptions.due(much_later);
            due.sort();
            due
        };
        for _ in 0..2 {
            assert_eq!(due(&subscriptions), vec![early, late]);
            subscriptions.paid(early);
            subscriptions.paid(late);
        }
        assert!(due(&subscriptions).is_empty());
        assert_eq!(subscriptions.next_due(), Some(start + Duration::from_secs(210)));
        assert!(subscriptions.ended(early));
        assert!(!subscriptions.ended(early));
        assert_eq!(subscriptions.count(), 1);
    }
}
