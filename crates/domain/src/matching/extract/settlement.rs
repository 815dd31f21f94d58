//! What a market is settled on where its exchange, not its question, decides it.
//!
//! A day's high or low temperature: Polymarket settles it on Wunderground's history of an
//! airport station (the hourly readings), Kalshi on the National Weather Service's daily
//! climate report (one-minute readings, and for some cities another station: Central Park,
//! not LaGuardia, for New York). A comparison of the two over several cities' station-days
//! (RonanMM/prediction-markets-bot, in `tests/data/matching/SOURCES.md`) puts them in
//! different 2°F brackets on about a third of days, so the same city, day and bracket on the
//! two exchanges do not resolve alike: not a match (decisions.md section 6), however alike
//! their texts.

use super::form::Reading;
use crate::exchange::Exchange;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settlement {
    /// Wunderground's history of one airport station.
    WundergroundStation,
    /// The National Weather Service's daily climate report.
    NwsClimateReport,
}

impl std::fmt::Display for Settlement {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(match self {
            Settlement::WundergroundStation => "Wunderground's station history",
            Settlement::NwsClimateReport => "the NWS daily climate report",
        })
    }
}

/// What a market of `exchange` whose question reads as `reading` is settled on, where the
/// exchange decides it.
pub fn of(exchange: Exchange, reading: &Reading) -> Option<Settlement> {
    if !(reading.names_a_temperature && reading.extreme.is_some()) {
        return None;
    }
    Some(match exchange {
        Exchange::Polymarket => Settlement::WundergroundStation,
        Exchange::Kalshi => Settlement::NwsClimateReport,
    })
}
