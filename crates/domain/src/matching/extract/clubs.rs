//! Football clubs under the names the exchanges and the press give them. Polymarket writes a
//! club's registered name ("FC Internazionale Milano", "FC Bayern München"), Kalshi the name it
//! is called by ("Inter", "Bayern Munich"); when the two share no run of words, nothing in them
//! ties them together. The table (`clubs.tsv`, with its source) does: a name equal to one of a
//! club's other names becomes its canonical name, on both sides alike.
//!
//! Only whole names are replaced, and only names no other team answers to are listed ("Spurs"
//! and "Wolves" are NBA nicknames too; a bare "Atletico" is also Mineiro or Nacional), so the
//! table joins names that belong together and never parts two that matched before except where
//! the canonical name is more exact ("Inter" is Internazionale, not Inter Miami).

use std::collections::HashMap;
use std::sync::LazyLock;

use super::entities::{Entity, EntityKind};

/// A club's other names, keyed by their first word so that the look-up, which runs for every
/// name of every market, allocates nothing: (first word → [(the other name's words, the
/// canonical name's words)]).
type Clubs = HashMap<&'static str, Vec<(Vec<&'static str>, Vec<String>)>>;

static CLUBS: LazyLock<Clubs> = LazyLock::new(|| {
    let mut clubs = Clubs::new();
    for (canonical, others) in include_str!("clubs.tsv")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| line.split_once('\t'))
    {
        for other in others.split(',') {
            let words: Vec<&'static str> = other.split(' ').collect();
            clubs
                .entry(words[0])
                .or_default()
                .push((words, canonical.split(' ').map(str::to_owned).collect()));
        }
    }
    clubs
});

/// Replaces a club's other name by its canonical one (after its club words are dropped).
pub fn canonicalize(entity: &mut Entity) {
    if entity.kind != EntityKind::Name {
        return;
    }
    let Some(names) = entity.words.first().and_then(|first| CLUBS.get(first.as_str())) else {
        return;
    };
    if let Some((_other, canonical)) = names.iter().find(|(other, _canonical)| *other == entity.words) {
        entity.words = canonical.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::extract::entities::{drop_club_words, extract};
    use crate::matching::extract::tokens::tokenize;

    fn club(text: &str) -> Entity {
        let mut entity = extract(&mut tokenize(text)).primary.expect("a name");
        drop_club_words(&mut entity);
        canonicalize(&mut entity);
        entity
    }

    #[test]
    fn a_clubs_registered_name_and_its_common_name_are_one_club() {
        // astavrop0/Polymarket-arbitrage: Polymarket's and Kalshi's names of one Serie A game.
        assert!(club("Will FC Internazionale Milano win on 2026-01-23?").corresponds_to(&club("Will Inter win?")));
        assert!(club("Will FC Bayern München win?").corresponds_to(&club("Will Bayern Munich win?")));
        assert!(club("Will Manchester City FC win?").corresponds_to(&club("Will Man City win?")));
        assert!(club("Will Paris Saint-Germain FC win?").corresponds_to(&club("Will PSG win?")));
        // The canonical name is more exact than the short one: Inter is not Inter Miami, nor
        // Paris FC Paris Saint-Germain.
        assert!(!club("Will Inter win?").corresponds_to(&club("Will Inter Miami CF win?")));
        assert!(!club("Will Paris FC win Ligue 1?").corresponds_to(&club("Will PSG win?")));
        assert!(!club("Will Paris FC win Ligue 1?").corresponds_to(&club("Will Paris Saint-Germain FC win?")));
        // Names in no line are left alone.
        assert_eq!(club("Will Tottenham Hotspur FC win?").key(), "tottenham hotspur");
    }
}
