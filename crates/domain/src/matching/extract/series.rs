//! The place a Kalshi series is about, where its markets' titles may not say it.
//!
//! Kalshi writes some daily weather titles without their city ("Will the maximum temperature
//! be 88-89° on Aug 4, 2026?" is the title in Atlanta's series and in Seattle's alike): only
//! the ticker's series (`KXHIGHTATL`) tells them apart. Read as if the title named the place,
//! such a market meets the other exchange's markets on its city and is refused against another
//! city's, where otherwise its subject would go unconfirmed. The table (`series.tsv`, with its
//! source) lists the series by their exact ticker: `KXHIGHMOVDJT` is no city's.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::entities::{self, Entity};
use super::tokens;

/// Each series' place, read once as a question naming it ("in Atlanta") would read it.
static PLACES: LazyLock<HashMap<&'static str, Entity>> = LazyLock::new(|| {
    include_str!("series.tsv")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| line.split_once('\t'))
        .filter_map(|(series, place)| {
            let read = entities::extract(&mut tokens::tokenize(&format!("in {place}")));
            Some((series, read.subjects.into_iter().next()?))
        })
        .collect()
});

/// The place the series of a Kalshi ticker is about (Atlanta for `KXHIGHTATL-26AUG04-B88.5`),
/// if the table lists it.
pub fn place_of(ticker: &str) -> Option<&'static Entity> {
    let series = ticker.split('-').next()?;
    PLACES.get(series)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_city_of_a_weather_series_and_nothing_else() {
        let words = |ticker: &str| place_of(ticker).map(|place| place.words.join(" "));
        assert_eq!(words("KXHIGHTATL-26AUG04-B88.5").as_deref(), Some("atlanta"));
        assert_eq!(words("KXHIGHNY-26JUN01-T72").as_deref(), Some("nyc"));
        assert_eq!(place_of("KXHIGHMOVDJT-26"), None);
        assert_eq!(place_of(""), None);
    }
}
