//! An event: a group of related markets on one exchange (not a notification).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::category::Category;
use crate::exchange::Exchange;
use crate::ids;
use crate::time::Timestamp;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub exchange: Exchange,
    /// Polymarket's numeric event id, or Kalshi's event ticker.
    pub external_id: String,
    pub title: String,
    pub description: String,
    pub category: Category,
    /// The event's total volume as the exchange reports it (Polymarket does, Kalshi does
    /// not). When absent, the store sums the volumes of the event's stored markets.
    pub reported_volume: Option<f64>,
    pub image_url: String,
    /// `None` when the payload does not say (Kalshi events never do): the store then uses
    /// the earliest creation time of the event's markets, or the time it first saw it.
    pub created_at: Option<Timestamp>,
    pub source_updated_at: Option<Timestamp>,
    /// Polymarket event slug or Kalshi event ticker (lower case), for URL lookups.
    pub slug: Option<String>,
    /// Polymarket series slug or Kalshi series ticker (lower case), for URL lookups.
    pub series_slug: Option<String>,
}

impl Event {
    pub fn id(&self) -> Uuid {
        ids::event_id(self.exchange, &self.external_id)
    }
}
