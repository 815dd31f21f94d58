//! What a market is settled on where its exchange, not its question, decides it.
//!
//! A day's high or low temperature: Polymarket settles it on Wunderground's history of an
//! airport station (the hourly readings), Kalshi on the National Weather Service's daily
//! climate report (one-minute readings, and for some cities another station: Central Park,
//! not LaGuardia, for New York). A comparison of the two over several cities' station-days
//! (RonanMM/prediction-markets-bot, in `tests/data/matching/SOURCES.md`) puts them in
//! different 2°F brackets on about a third of days, so the same city, day and bracket on the
//! two exchanges do not resolve alike: not a match (`docs/contract/decisions.md#d6-matching`),
//! however alike their texts.

use super::Features;
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

/// What a market of `exchange` read as `features` is settled on, where the exchange decides
/// it: a temperature's high or low on one day ("the highest temperature in Miami on August
/// 4"), not a month's, a season's or a year's record.
pub fn of(exchange: Exchange, features: &Features) -> Option<Settlement> {
    let timing = &features.timing;
    let on_one_day = timing.reads_a_moment() || timing.yearless.is_some_and(|date| date.reads_a_moment);
    if !(features.form.names_a_temperature && features.form.extreme.is_some() && on_one_day) {
        return None;
    }
    Some(match exchange {
        Exchange::Polymarket => Settlement::WundergroundStation,
        Exchange::Kalshi => Settlement::NwsClimateReport,
    })
}

/// Whether both are settled on something their exchanges decide, and it differs.
pub fn differ(left: Option<Settlement>, right: Option<Settlement>) -> bool {
    matches!((left, right), (Some(left), Some(right)) if left != right)
}
