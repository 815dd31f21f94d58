//! Teams of the North American major leagues under both exchanges' names. Kalshi names a
//! team by its location ("Kansas City at Jacksonville", "Los Angeles L"), Polymarket by its
//! nickname ("Chiefs vs. Jaguars") or both ("Kansas City Chiefs"); nothing in the words of
//! the two ties them together. The table (`teams.tsv`, with its source) does: a name that is
//! a team's nickname, its full name, or its Kalshi location with the letter that tells two
//! teams of one city apart becomes the full name, "kansas city chiefs", which a location-only
//! name then corresponds to as any shorter name does.
//!
//! A nickname two leagues share (Kings, Rangers, Giants, Panthers, Cardinals, Jets) and a
//! location two teams share are resolved only when the question says which league it is
//! about; otherwise they stay as written, and a pair that needs them is missed, not matched
//! wrongly.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use super::entities::{Entity, EntityKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum League {
    Nfl,
    Nba,
    Nhl,
    Mlb,
}

impl League {
    fn parse(text: &str) -> Option<League> {
        match text {
            "NFL" => Some(League::Nfl),
            "NBA" => Some(League::Nba),
            "NHL" => Some(League::Nhl),
            "MLB" => Some(League::Mlb),
            _ => None,
        }
    }
}

#[derive(Debug)]
struct Team {
    league: League,
    /// Kalshi's location, lower-case words, with its distinguishing letter if any.
    location: Vec<String>,
    /// The location without that letter: the city or region.
    city: Vec<String>,
    nickname: Vec<String>,
    aliases: Vec<Vec<String>>,
}

impl Team {
    fn full_name(&self) -> Vec<String> {
        if self.city == self.nickname {
            // The Athletics have no location in their name.
            return self.nickname.clone();
        }
        self.city.iter().chain(&self.nickname).cloned().collect()
    }
}

fn words(text: &str) -> Vec<String> {
    text.split([' ', '-', '\''])
        .filter(|word| !word.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

static TEAMS: LazyLock<Vec<Team>> = LazyLock::new(|| {
    include_str!("teams.tsv")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let league = League::parse(fields.next()?)?;
            let location = words(fields.next()?);
            let nickname = words(fields.next()?);
            let aliases = fields
                .next()
                .map(|aliases| aliases.split(',').map(words).collect())
                .unwrap_or_default();
            // "Los Angeles C", "New York Y", "Chicago WS": the trailing letters tell two
            // teams of one city apart.
            let city = match location.split_last() {
                Some((last, rest)) if !rest.is_empty() && last.len() <= 2 && rest.iter().all(|word| word.len() > 2) => {
                    rest.to_vec()
                }
                _ => location.clone(),
            };
            Some(Team {
                league,
                location,
                city,
                nickname,
                aliases,
            })
        })
        .collect()
});

/// The league a question is about, when its words say so.
pub fn league_of(text: &str) -> Option<League> {
    let lower = text.to_ascii_lowercase();
    let has = |needle: &str| {
        lower.match_indices(needle).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + needle.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    };
    if has("nfl") || has("pro football") || has("super bowl") || has("superbowl") {
        Some(League::Nfl)
    } else if has("nba") || has("pro basketball") {
        Some(League::Nba)
    } else if has("nhl") || has("pro hockey") || has("stanley cup") || has("hockey") {
        Some(League::Nhl)
    } else if has("mlb") || has("pro baseball") || has("world series") || has("baseball") {
        Some(League::Mlb)
    } else {
        None
    }
}

/// The teams each spelling may name (full name, nickname, another spelling of it, Kalshi's
/// location with its letter), by the spelling's words joined with spaces: built once, since
/// every market's names are looked up.
static BY_SPELLING: LazyLock<HashMap<String, Vec<&'static Team>>> = LazyLock::new(|| {
    let mut by_spelling: HashMap<String, Vec<&'static Team>> = HashMap::new();
    for team in TEAMS.iter() {
        let mut spellings = vec![team.full_name(), team.nickname.clone()];
        spellings.extend(team.aliases.iter().cloned());
        if team.location != team.city {
            spellings.push(team.location.clone());
        }
        spellings.sort();
        spellings.dedup();
        for spelling in spellings {
            by_spelling.entry(spelling.join(" ")).or_default().push(team);
        }
    }
    by_spelling
});

/// The first words of every spelling: most names are no team's, and are told so without
/// building their key.
static FIRST_WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    BY_SPELLING
        .keys()
        .filter_map(|spelling| spelling.split(' ').next())
        .collect()
});

/// The teams a name may be, if it is a spelling of any.
fn teams_of(entity: &Entity) -> Option<&'static Vec<&'static Team>> {
    if entity.kind != EntityKind::Name
        || !entity
            .words
            .first()
            .is_some_and(|first| FIRST_WORDS.contains(first.as_str()))
    {
        return None;
    }
    BY_SPELLING.get(&entity.key())
}

/// Kalshi's choices name a team by its code and nickname ("NYI Islanders", "BUF Sabres"):
/// the teams the nickname names whose location the code abbreviates (its initials, "nyi" for
/// New York I, or the start of its city, "buf" for Buffalo).
fn coded_team(entity: &Entity) -> Option<&'static Vec<&'static Team>> {
    let (code, rest) = entity.words.split_first()?;
    if entity.kind != EntityKind::Name
        || !(2..=3).contains(&code.len())
        || !rest.first().is_some_and(|first| FIRST_WORDS.contains(first.as_str()))
    {
        return None;
    }
    let teams = BY_SPELLING.get(&rest.join(" "))?;
    teams
        .iter()
        .all(|team| abbreviates(code, &team.location) || abbreviates(code, &team.city))
        .then_some(teams)
}

/// Whether `code` is the initials of `location`'s words or the start of its first word.
fn abbreviates(code: &str, location: &[String]) -> bool {
    let initials: String = location.iter().filter_map(|word| word.chars().next()).collect();
    initials == code || location.first().is_some_and(|first| first.starts_with(code))
}

/// Whether `entity` is a spelling several teams share, which only the league settles.
/// The one league every team the question names plays in, where the names settle it: a
/// game is played within a league, so "Timberwolves vs. Kings" is the NBA's Kings.
pub fn league_shared_by(entities: &[Entity]) -> Option<League> {
    let mut shared: Option<Vec<League>> = None;
    for teams in entities
        .iter()
        .filter_map(|entity| teams_of(entity).or_else(|| coded_team(entity)))
    {
        let leagues: Vec<League> = teams.iter().map(|team| team.league).collect();
        shared = Some(match shared {
            None => leagues,
            Some(shared) => shared.into_iter().filter(|league| leagues.contains(league)).collect(),
        });
    }
    match shared.as_deref() {
        Some([league]) => Some(*league),
        _ => None,
    }
}

/// Whether a name is a team's, in any league.
pub fn names_a_team(entity: &Entity) -> bool {
    teams_of(entity).is_some()
}

pub fn needs_league(entity: &Entity) -> bool {
    teams_of(entity).is_some_and(|teams| teams.len() > 1)
}

/// Rewrites a name that is a team's (see the module's documentation) as the team's full
/// name. `league` settles a name two leagues share.
pub fn canonicalize(entity: &mut Entity, league: Option<League>) {
    let Some(found) = teams_of(entity).or_else(|| coded_team(entity)) else {
        return;
    };
    let mut in_league = found
        .iter()
        .filter(|team| league.is_none_or(|league| team.league == league));
    if let (Some(team), None) = (in_league.next(), in_league.next()) {
        entity.words = team.full_name();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> Entity {
        Entity {
            kind: EntityKind::Name,
            words: words(text),
        }
    }

    fn canonical(text: &str, league: Option<League>) -> String {
        let mut entity = name(text);
        canonicalize(&mut entity, league);
        entity.key()
    }

    #[test]
    fn a_code_before_a_nickname_is_the_team_it_abbreviates() {
        assert_eq!(canonical("NYI Islanders", None), "new york islanders");
        assert_eq!(canonical("BUF Sabres", None), "buffalo sabres");
        assert_eq!(canonical("TOR Maple Leafs", None), "toronto maple leafs");
        // The city's initials, where Kalshi's location adds a letter ("Los Angeles L").
        assert_eq!(canonical("LA Lakers", None), "los angeles lakers");
        assert_eq!(canonical("NY Yankees", None), "new york yankees");
        // A code that is not the team's location is not read as it.
        assert_eq!(canonical("BOS Islanders", None), "bos islanders");
    }

    #[test]
    fn a_game_is_played_within_one_league() {
        let game = |text: &str| text.split(" vs ").map(name).collect::<Vec<_>>();
        assert_eq!(league_shared_by(&game("Timberwolves vs Kings")), Some(League::Nba));
        assert_eq!(league_shared_by(&game("Senators vs Kings")), Some(League::Nhl));
        // Two nicknames both leagues share settle nothing.
        assert_eq!(league_shared_by(&game("Panthers vs Jets")), None);
        assert_eq!(league_shared_by(&game("Kings")), None);
    }

    #[test]
    fn every_league_has_its_teams() {
        for (league, count) in [
            (League::Nfl, 32),
            (League::Nba, 30),
            (League::Nhl, 32),
            (League::Mlb, 30),
        ] {
            assert_eq!(
                TEAMS.iter().filter(|team| team.league == league).count(),
                count,
                "{league:?}"
            );
        }
    }

    #[test]
    fn nicknames_and_kalshi_locations_become_full_names() {
        assert_eq!(canonical("Chiefs", None), "kansas city chiefs");
        assert_eq!(canonical("Bucs", None), "tampa bay buccaneers");
        assert_eq!(canonical("Kansas City Chiefs", None), "kansas city chiefs");
        assert_eq!(canonical("Sixers", None), "philadelphia 76ers");
        assert_eq!(canonical("Chicago WS", None), "chicago white sox");
        assert_eq!(canonical("New York Y", None), "new york yankees");
        // A plain location stays: it corresponds to the full name as a shorter name.
        assert_eq!(canonical("Kansas City", None), "kansas city");
        assert!(name("Kansas City").corresponds_to(&name("Kansas City Chiefs")));
    }

    #[test]
    fn a_shared_nickname_needs_the_league() {
        assert_eq!(canonical("Kings", None), "kings");
        assert_eq!(canonical("Kings", Some(League::Nhl)), "los angeles kings");
        assert_eq!(canonical("Kings", Some(League::Nba)), "sacramento kings");
        assert_eq!(canonical("Los Angeles C", None), "los angeles c");
        assert_eq!(canonical("Los Angeles C", Some(League::Nfl)), "los angeles chargers");
        assert_eq!(
            league_of("Will the Chiefs win the 2026 Pro Football Championship?"),
            Some(League::Nfl)
        );
        assert_eq!(league_of("Will the Thunder win the NBA Finals?"), Some(League::Nba));
        assert_eq!(league_of("Will Bitcoin reach $150k?"), None);
    }
}
