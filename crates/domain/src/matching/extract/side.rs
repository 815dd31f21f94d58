//! The side of a question: whether Yes means the thing happens or does not ("Will the Fed
//! cut?" against "Will the Fed hold?", "Putin out as President?" against "Will Putin
//! remain President?"), and, for markets whose outcomes are names rather than Yes and No
//! ("Chiefs" / "Bucs"), which outcome is which.
//!
//! Yes on one side equal to No on the other is the costliest wrong match a trader can act
//! on, so opposite phrasings are refused rather than paired with a flip: the exchanges'
//! rules for "hold" and "not cut" differ too often (a hike is neither).

use super::tokens::Token;

/// Verbs that state opposite outcomes of one event. Each group lists classes of words;
/// two questions using different classes of one group ask opposite questions.
const OPPOSITIONS: &[&[&[&str]]] = &[
    &[
        &[
            "cut",
            "cuts",
            "lower",
            "lowers",
            "decrease",
            "decreases",
            "reduce",
            "reduces",
        ],
        &["hike", "hikes", "raise", "raises", "increase", "increases"],
        &["hold", "holds", "pause", "pauses", "unchanged", "maintain", "maintains"],
        // Counted changes ("the number of rate changes") count hikes and cuts alike: a count
        // of cuts is another count.
        &["changes"],
    ],
    &[&["win", "wins", "won"], &["lose", "loses", "lost"]],
    &[
        &["remain", "remains", "stay", "stays", "still"],
        &[
            "out", "leave", "leaves", "resign", "resigns", "removed", "ousted", "exit", "exits",
        ],
    ],
    &[
        &["approve", "approves", "approved", "pass", "passes", "passed"],
        &[
            "reject", "rejects", "rejected", "veto", "vetoes", "vetoed", "block", "blocks", "blocked",
        ],
    ],
    // ("Arsenal score against Chelsea" is "Chelsea concede against Arsenal", but which side
    // takes which verb is not read, and the exchanges ask of one team.)
    &[&["score", "scores", "scored"], &["concede", "concedes", "conceded"]],
];

/// The "out" class of the remain/out group.
const OUT: (usize, usize) = (2, 1);
/// The "hold" class of the cut/hike/hold group.
pub const HOLD: (usize, usize) = (0, 2);

/// What Yes stands for, as far as the words say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Side {
    /// An odd number of negations ("No Trump announcement", "fail to", "not").
    pub negated: bool,
    /// For each opposition group the question uses: (group, class).
    pub verbs: Vec<(usize, usize)>,
}

impl Side {
    /// Whether Yes on one is No on the other: negations differ, or they use opposite verbs
    /// of the same group. ("Win the Presidency but lose Michigan" against the same words
    /// opposes too: which verb takes which object is not read, and "win the popular vote but
    /// lose the Presidency" uses the same two verbs.)
    pub fn opposes(&self, other: &Side) -> bool {
        let verbs_oppose = self.verbs.iter().any(|(group, class)| {
            other
                .verbs
                .iter()
                .any(|(other_group, other_class)| group == other_group && class != other_class)
        });
        self.negated != other.negated || verbs_oppose
    }

    /// Records that the question uses a class of a group, once.
    fn note(&mut self, verb: (usize, usize)) {
        if !self.verbs.contains(&verb) {
            self.verbs.push(verb);
        }
    }

    pub fn describe(&self) -> String {
        let mut words: Vec<&str> = self
            .verbs
            .iter()
            .map(|(group, class)| OPPOSITIONS[*group][*class][0])
            .collect();
        if self.negated {
            words.insert(0, "negated");
        }
        if words.is_empty() {
            "affirmative".to_owned()
        } else {
            words.join(", ")
        }
    }
}

/// Reads the side of a question from all its tokens (used or not: "out" may sit inside a
/// time phrase, and negations anywhere count).
pub fn extract(tokens: &[Token]) -> Side {
    let mut side = Side::default();
    for (index, token) in tokens.iter().enumerate() {
        let word = token.lower.as_str();
        // "Will Khamenei no longer be Supreme Leader?" asks whether he is out: no negation.
        let no_longer = word == "no" && tokens.get(index + 1).is_some_and(|next| next.lower == "longer");
        if no_longer {
            side.note(OUT);
        }
        // "No change in rates" is a hold, not a negation of the question.
        let no_change = word == "no" && tokens.get(index + 1).is_some_and(|next| next.lower == "change");
        if no_change {
            side.note(HOLD);
            continue;
        }
        // "No" before a noun counts none of it ("win no swing states" is "win 0 swing
        // states", which reads as not winning any); not as an abbreviation ("No. 1 seed") or
        // inside a compound ("no-confidence motion").
        let not_a_determiner = word == "no" && (token.gap_after.starts_with('.') || token.gap_after.starts_with('-'));
        let negation = matches!(word, "not" | "never" | "fail" | "fails" | "without" | "t")
            || (word == "no" && !no_longer && !not_a_determiner);
        if negation {
            side.negated = !side.negated;
        }
        // "Changes" are counted rate changes only after "rate" ("the number of rate
        // changes"), not "announce changes to its balance sheet".
        let other_changes = word == "changes"
            && index
                .checked_sub(1)
                .and_then(|at| tokens.get(at))
                .is_none_or(|previous| previous.lower != "rate");
        for (group, classes) in OPPOSITIONS.iter().enumerate() {
            for (class, words) in classes.iter().enumerate() {
                if words.contains(&word) && !other_changes {
                    side.note((group, class));
                }
            }
        }
    }
    side
}

/// Whether a market's outcome names are Yes and No, or a total's Over and Under (whose first
/// outcome is its Yes): outcomes that name no side.
pub fn is_yes_no(outcomes: &[String]) -> bool {
    let [first, second] = outcomes else {
        return false;
    };
    (first.eq_ignore_ascii_case("yes") && second.eq_ignore_ascii_case("no"))
        || (first.eq_ignore_ascii_case("over") && second.eq_ignore_ascii_case("under"))
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenize;
    use super::*;

    fn side(question: &str) -> Side {
        extract(&tokenize(question))
    }

    #[test]
    fn opposite_verbs_and_negations_oppose() {
        // Polymarket 516190 and 516720.
        assert!(
            side("Will Putin remain President of Russia through June?")
                .opposes(&side("Putin out as President of Russia in 2025?"))
        );
        // Polymarket 516723 and 516724.
        assert!(side("Will no Fed rate cuts happen in 2025?").opposes(&side("Will 1 Fed rate cut happen in 2025?")));
        // Polymarket 516711 ("cut") against Polymarket 516706 ("hike").
        assert!(side("Fed emergency rate cut in 2025?").opposes(&side("Fed rate hike in 2025?")));
    }

    #[test]
    fn the_same_phrasing_does_not_oppose() {
        let polymarket = side("Will the Oklahoma City Thunder win the 2026 NBA Finals?");
        let kalshi = side("Will the Oklahoma City win the 2026 Pro Basketball Finals?");
        assert!(!polymarket.opposes(&kalshi));
        assert_eq!(kalshi.describe(), "win");
    }

    #[test]
    fn no_before_a_noun_negates_and_as_an_abbreviation_or_in_a_compound_does_not() {
        assert!(side("Will Trump win no swing states?").negated);
        assert!(side("Will there be no 2026 FIFA World Cup final?").negated);
        assert!(!side("Will the No. 1 seed win the tournament?").negated);
        assert!(!side("Will the no-confidence motion pass by October 31?").negated);
    }

    #[test]
    fn no_longer_is_out_not_a_negation() {
        let no_longer = side("Will Ali Khamenei no longer be Supreme Leader before 2027?");
        assert!(!no_longer.negated);
        assert!(!no_longer.opposes(&side("Khamenei out as Supreme Leader of Iran by December 31?")));
        assert!(no_longer.opposes(&side("Will Khamenei remain Supreme Leader through 2026?")));
    }

    #[test]
    fn no_change_is_a_hold() {
        let no_change = side("Will there be no change in Fed interest rates after the September 2026 meeting?");
        assert!(!no_change.negated);
        assert!(!no_change.opposes(&side("Will the Fed hold rates in September 2026?")));
        assert!(no_change.opposes(&side("Will the Fed cut rates in September 2026?")));
    }

    #[test]
    fn tells_yes_no_outcomes_from_named_ones() {
        assert!(is_yes_no(&["Yes".to_owned(), "No".to_owned()]));
        assert!(!is_yes_no(&["Chiefs".to_owned(), "Bucs".to_owned()]));
    }
}
