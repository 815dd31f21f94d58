//! The fixed category set (`docs/contract/decisions.md#d6-category`) and how exchange labels map onto it.
//!
//! Exchanges label markets inconsistently: Kalshi events carry a category ("Climate and
//! Weather", "Companies"), old Polymarket markets a free-text one ("US-current-affairs",
//! "Pop-Culture " with a trailing space), newer Polymarket events only tags, and many
//! records nothing at all. [`Category::from_label`] maps every label seen in the recorded
//! payloads; [`Category::infer`] classifies by keywords when no label maps.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::text::words;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Category {
    Politics,
    Sports,
    Crypto,
    Economics,
    Finance,
    #[serde(rename = "Science & Technology")]
    ScienceAndTechnology,
    Culture,
    World,
    #[serde(rename = "Climate & Weather")]
    ClimateAndWeather,
    Health,
    Other,
}

impl Category {
    pub const ALL: [Category; 11] = [
        Category::Politics,
        Category::Sports,
        Category::Crypto,
        Category::Economics,
        Category::Finance,
        Category::ScienceAndTechnology,
        Category::Culture,
        Category::World,
        Category::ClimateAndWeather,
        Category::Health,
        Category::Other,
    ];

    /// The canonical spelling used in responses.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Politics => "Politics",
            Category::Sports => "Sports",
            Category::Crypto => "Crypto",
            Category::Economics => "Economics",
            Category::Finance => "Finance",
            Category::ScienceAndTechnology => "Science & Technology",
            Category::Culture => "Culture",
            Category::World => "World",
            Category::ClimateAndWeather => "Climate & Weather",
            Category::Health => "Health",
            Category::Other => "Other",
        }
    }

    /// Maps an exchange's own label (a category or a tag) onto the fixed set. Returns `None`
    /// for labels that say nothing about the subject ("All", "Featured", "2025 Predictions"),
    /// so that the caller can try the next label or fall back to [`Category::infer`].
    pub fn from_label(label: &str) -> Option<Category> {
        let key: String = words(label).collect::<Vec<_>>().join(" ");
        let category = match key.as_str() {
            "politics" | "us politics" | "u s politics" | "elections" | "election" | "us election"
            | "us current affairs" | "trump" | "trump presidency" | "congress" | "senate" | "courts" | "scotus"
            | "immigration" | "cabinet" | "us government" | "mayoral" | "global elections" | "world elections" => {
                Category::Politics
            }
            "sports" | "sport" | "nba" | "nba playoffs" | "nfl" | "mlb" | "nhl" | "soccer" | "football" | "chess"
            | "olympics" | "tennis" | "golf" | "esports" | "ufc" | "boxing" | "basketball" | "baseball" | "hockey"
            | "formula 1" | "f1" | "cricket" | "games" => Category::Sports,
            "crypto" | "cryptocurrency" | "crypto prices" | "bitcoin" | "ethereum" | "nfts" | "nft" | "solana"
            | "crypto policy" | "stablecoins" | "altcoins" | "airdrops" | "defi" => Category::Crypto,
            "economics" | "economy" | "economic policy" | "fed rates" | "fed" | "inflation" | "macro" | "tariffs"
            | "trade war" | "jobs" | "interest rates" | "deficit" => Category::Economics,
            "finance" | "financials" | "business" | "companies" | "stocks" | "commodities" | "ipos" | "ipo"
            | "earnings" | "treasuries" => Category::Finance,
            "science and technology"
            | "science technology"
            | "science"
            | "technology"
            | "tech"
            | "ai"
            | "artificial intelligence"
            | "space"
            | "big tech" => Category::ScienceAndTechnology,
            "culture" | "pop culture" | "entertainment" | "social" | "music" | "movies" | "celebrities" | "art"
            | "awards" | "box office" | "tv" | "creators" | "mentions" => Category::Culture,
            "world" | "geopolitics" | "global politics" | "middle east" | "foreign policy" | "ukraine" | "israel"
            | "russia" | "china" | "world affairs" => Category::World,
            "climate and weather" | "climate weather" | "climate" | "weather" | "global warming" => {
                Category::ClimateAndWeather
            }
            "health" | "coronavirus" | "covid" | "covid 19" | "pandemics" | "pandemic" | "bird flu" => Category::Health,
            "other" | "transportation" => Category::Other,
            _ => return None,
        };
        Some(category)
    }

    /// Classifies free text (a question, an event title) by keywords. Used only when no
    /// exchange label maps; the result is `Other` when no keyword is found. Ties go to the
    /// category listed first in [`Category::ALL`].
    pub fn infer<'a>(texts: impl IntoIterator<Item = &'a str>) -> Category {
        let mut scores = [0u32; Category::ALL.len()];
        for text in texts {
            let tokens: Vec<String> = words(text).collect();
            for (index, token) in tokens.iter().enumerate() {
                if let Some(category) = keyword_category(token) {
                    scores[category as usize] += 1;
                }
                if let Some(next) = tokens.get(index + 1)
                    && let Some(category) = phrase_category(token, next)
                {
                    scores[category as usize] += 2;
                }
            }
        }
        let (best_index, best_score) = scores
            .iter()
            .enumerate()
            .max_by(|(left_index, left), (right_index, right)| left.cmp(right).then(right_index.cmp(left_index)))
            .expect("the score table is not empty");
        if *best_score == 0 {
            Category::Other
        } else {
            Category::ALL[best_index]
        }
    }
}

fn keyword_category(token: &str) -> Option<Category> {
    Some(match token {
        "election" | "elections" | "president" | "presidential" | "nominee" | "nomination" | "democrat"
        | "democrats" | "democratic" | "republican" | "republicans" | "gop" | "senate" | "senator" | "congress"
        | "governor" | "mayor" | "trump" | "biden" | "harris" | "vance" | "newsom" | "impeach" | "impeached"
        | "deport" | "deportation" | "primary" | "midterms" | "cabinet" | "supreme" | "scotus" | "speaker" | "veto" => {
            Category::Politics
        }
        "nba" | "nfl" | "nhl" | "mlb" | "ncaa" | "fifa" | "uefa" | "championship" | "champion" | "playoffs"
        | "super" | "bowl" | "basketball" | "football" | "soccer" | "baseball" | "hockey" | "tennis" | "golf"
        | "chess" | "olympics" | "seed" | "upsets" | "ufc" | "mvp" | "coach" | "grand" | "slam" | "league"
        | "tournament" | "madness" => Category::Sports,
        "bitcoin" | "btc" | "ethereum" | "eth" | "solana" | "sol" | "xrp" | "dogecoin" | "doge" | "crypto"
        | "cryptocurrency" | "stablecoin" | "usdc" | "usdt" | "nft" | "memecoin" | "airdrop" | "coinbase"
        | "binance" => Category::Crypto,
        "fed" | "inflation" | "cpi" | "gdp" | "recession" | "unemployment" | "jobless" | "payrolls" | "tariff"
        | "tariffs" | "rates" | "bps" | "fomc" | "powell" | "economy" => Category::Economics,
        "stock" | "stocks" | "ipo" | "shares" | "nasdaq" | "spx" | "earnings" | "tesla" | "nvidia" | "apple"
        | "microsoft" | "acquisition" | "merger" | "ceo" | "gold" | "oil" | "treasury" => Category::Finance,
        "ai" | "openai" | "chatgpt" | "gpt" | "anthropic" | "deepseek" | "spacex" | "mars" | "rocket" | "launch"
        | "iphone" | "google" | "model" | "agi" | "quantum" => Category::ScienceAndTechnology,
        "oscar" | "oscars" | "grammy" | "grammys" | "movie" | "film" | "album" | "song" | "spotify" | "box"
        | "netflix" | "taylor" | "swift" | "celebrity" | "tiktok" | "youtube" | "emmy" | "emmys" | "billboard"
        | "pope" | "married" | "divorce" => Category::Culture,
        "ukraine" | "russia" | "israel" | "gaza" | "iran" | "china" | "taiwan" | "nato" | "putin" | "zelensky"
        | "netanyahu" | "ceasefire" | "war" | "invade" | "invasion" | "syria" | "venezuela" | "korea" | "minister"
        | "parliament" => Category::World,
        "temperature" | "hurricane" | "weather" | "climate" | "rain" | "snow" | "warming" | "heat" | "tornado"
        | "earthquake" | "co2" | "emissions" => Category::ClimateAndWeather,
        "covid" | "coronavirus" | "vaccine" | "pandemic" | "measles" | "flu" | "h5n1" | "virus" | "outbreak"
        | "fda" | "cdc" => Category::Health,
        _ => return None,
    })
}

fn phrase_category(first: &str, second: &str) -> Option<Category> {
    Some(match (first, second) {
        ("world", "cup") | ("stanley", "cup") | ("super", "bowl") | ("march", "madness") => Category::Sports,
        ("interest", "rate") | ("fed", "chair") | ("rate", "cut") => Category::Economics,
        ("prime", "minister") => Category::World,
        _ => return None,
    })
}

impl fmt::Display for Category {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown category {0:?}")]
pub struct UnknownCategory(pub String);

impl FromStr for Category {
    type Err = UnknownCategory;

    /// Parses a canonical spelling, case-insensitively (the `category` filter).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Category::ALL
            .into_iter()
            .find(|category| category.as_str().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownCategory(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_labels_seen_in_recorded_payloads() {
        assert_eq!(Category::from_label("Pop-Culture "), Some(Category::Culture));
        assert_eq!(Category::from_label("US-current-affairs"), Some(Category::Politics));
        assert_eq!(
            Category::from_label("Climate and Weather"),
            Some(Category::ClimateAndWeather)
        );
        assert_eq!(Category::from_label("Companies"), Some(Category::Finance));
        assert_eq!(
            Category::from_label("Science and Technology"),
            Some(Category::ScienceAndTechnology)
        );
        assert_eq!(Category::from_label("U.S. Politics"), Some(Category::Politics));
        assert_eq!(Category::from_label("NBA Playoffs"), Some(Category::Sports));
        assert_eq!(Category::from_label("2025 Predictions"), None);
        assert_eq!(Category::from_label("All"), None);
    }

    #[test]
    fn infers_from_question_words() {
        assert_eq!(
            Category::infer(["Will Georgia win the College Basketball National Championship?"]),
            Category::Sports
        );
        assert_eq!(
            Category::infer(["Democratic Presidential Nominee 2028"]),
            Category::Politics
        );
        assert_eq!(
            Category::infer(["Will Bitcoin reach $100k by December 31?"]),
            Category::Crypto
        );
        assert_eq!(Category::infer(["FIFA World Cup 2026 Winner"]), Category::Sports);
        assert_eq!(Category::infer(["Will it happen?"]), Category::Other);
        // "who" opens multiple-choice questions; it is not the World Health Organization.
        assert_eq!(Category::infer(["Who will win?"]), Category::Other);
    }

    #[test]
    fn parses_canonical_spelling_case_insensitively() {
        assert_eq!(
            "science & technology".parse::<Category>().unwrap(),
            Category::ScienceAndTechnology
        );
        assert_eq!("POLITICS".parse::<Category>().unwrap(), Category::Politics);
        assert!("Elections".parse::<Category>().is_err());
    }
}
