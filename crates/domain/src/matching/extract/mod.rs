//! What decides a market's resolution, read from its question: the subject, the contest,
//! the threshold, the date and the side, plus the remaining words for a last comparison.
//!
//! The extractors run in a fixed order over one token list, each claiming the tokens it
//! understands, so that a year is not also read as a threshold and "Super Bowl 2026" is
//! not also a name: dates first, then the gazetteer and names, then numbers.

pub mod clubs;
pub mod dates;
pub mod entities;
pub mod form;
pub mod mention;
pub mod numbers;
pub mod series;
pub mod settlement;
pub mod side;
pub mod teams;
pub mod ticker;
pub mod tokens;

use chrono::{Datelike, NaiveDate};

use self::dates::Timing;
use self::entities::{Entities, Entity};
use self::numbers::{Label, Quantity};
use self::side::Side;
use crate::text::is_stopword;

/// Everything the matcher compares, computed once per market.
#[derive(Debug, Clone)]
pub struct Features {
    pub entities: Entities,
    pub quantities: Vec<Quantity>,
    /// Numbers that say which one ("Game 4", "#1 seed"), compared only where both sides
    /// number the same kind of thing.
    pub labels: Vec<Label>,
    pub timing: Timing,
    pub side: Side,
    /// What must happen for Yes (win, qualify, be nominated, ...) and at which stage.
    pub form: form::Reading,
    /// The entities named by each outcome, when the outcomes are names ("Chiefs", "Bucs")
    /// rather than Yes and No.
    pub named_outcomes: Option<Vec<Entity>>,
    /// Kalshi's choice says it is settled on the regulation time ("— Reg Time: PSG"), which
    /// extra time or a shoot-out does not change.
    pub regulation_time: bool,
    /// The other side of the game, when the question asks whether one side of a named game
    /// wins ("Fulham vs Brighton Winner? — Fulham": Brighton).
    pub opponent: Option<Entity>,
    /// Whether `entities.primary` is Kalshi's choice after the dash ("Which boroughs will
    /// Mamdani win? — Queens"): the one name whose fate resolves Yes, which a market on the
    /// same question must name too.
    pub primary_is_choice: bool,
    /// The game a Kalshi market's ticker names (its day and both sides' codes), set by
    /// [`crate::matching::MatchInput::features`]: the question alone may name one side only.
    pub game: Option<ticker::TickerGame>,
    /// What the market is settled on where its exchange decides it, whatever the question
    /// says (set by [`crate::matching::MatchInput::features`]; see [`settlement`]).
    pub settled_on: Option<settlement::Settlement>,
    /// The words a mention market asks to be said, sorted (see [`mention`]).
    pub said: Option<Vec<String>>,
    /// Whether the question asks about a whole match or series ("win the 4Pirates vs. Aurora
    /// Dota 2 match", "win the series"), of which one game is only a part.
    pub asks_of_a_whole_match: bool,
    pub end_date: Option<NaiveDate>,
    /// The day the market ends on in New York, where the exchanges date their games (set by
    /// [`crate::matching::MatchInput::features`] from the end's time): a game in the evening
    /// ends after midnight UTC. `None` where only the day is known, which `end_date` then is.
    pub end_day_american: Option<NaiveDate>,
    /// Whether the question or its event names a game of two sides ("Rockets vs.
    /// Mavericks: O/U 229.5", "Houston at Dallas: Total Points"): a line on it is on one game.
    pub names_a_game: bool,
    /// Whether the title names one side's total ("Houston at Dallas: Houston Total Points?"):
    /// a total of one team, not of the game.
    pub names_a_sides_total: bool,
    /// Remaining informative words as (hash, weight), sorted by hash.
    pub wording: Vec<(u64, f32)>,
}

impl Features {
    /// Reads a market. `event_title` lends its contest when the question names none
    /// (Kalshi's "When will Bitcoin hit $150k? — Before 2026" sits under its event).
    pub fn of(question: &str, outcomes: &[String], event_title: Option<&str>, end_date: Option<NaiveDate>) -> Features {
        let question = tokens::without_nicknames(question);
        let (question, regulation_time) = match without_regulation_time(&question) {
            Some(without_label) => (std::borrow::Cow::Owned(without_label), true),
            None => (question, false),
        };
        let mut tokens = tokens::tokenize(&question);
        let mut form = form::extract(&tokens);
        let timing = dates::extract(&mut tokens, end_date.map(dates::Reference::MarketEnd));
        let mut entities = entities::extract(&mut tokens);
        drop_the_games_label(&question, &mut entities);
        let numbers::Numbers { mut quantities, labels } = numbers::extract(&mut tokens);
        let mut side = side::extract(&tokens);
        // A change of 0 bps is no change: "hike rates by 0bps" holds them.
        if let Some(zero) = quantities.iter().position(|quantity| {
            quantity.unit == numbers::Unit::BasisPoints && quantity.low == 0.0 && quantity.high == 0.0
        }) {
            quantities.remove(zero);
            side.verbs.retain(|(group, _class)| *group != side::HOLD.0);
            side.verbs.push(side::HOLD);
        }
        // Zero times is not at all: "cut rates 0 times" asks that no cut happens, as "Will no
        // Fed rate cuts happen?" does.
        // ("Will the Fed cut rates 0 times? — Exactly 0 cuts" says it twice, and is negated once.)
        let counts = quantities.len();
        quantities.retain(|quantity| {
            !(quantity.unit == numbers::Unit::Count
                && quantity.low == 0.0
                && quantity.high == 0.0
                && matches!(quantity.bound, numbers::Bound::Exact | numbers::Bound::Unstated))
        });
        if quantities.len() < counts {
            side.negated = !side.negated;
        }
        if entities.contexts.is_empty()
            && let Some(event_title) = event_title
        {
            entities.contexts = entities::extract(&mut tokens::tokenize(event_title)).contexts;
        }
        // Kalshi's multi-choice questions end in their choice ("Kansas City at Jacksonville
        // Winner? — Kansas City"): the choice is the subject that resolves Yes, and the other
        // side of the game its opponent. A choice of "Tie" asks for a draw, not a winner.
        let mut opponent = None;
        let mut primary_is_choice = false;
        // Kalshi's "Will Tie win the Ryder Cup?" puts its choice in the question: a tie is a
        // draw, not a contestant.
        if entities
            .primary
            .as_ref()
            .is_some_and(|primary| primary.words == ["tie"])
        {
            form.form = Some(form::Form::Draw);
            entities.subjects.retain(|entity| entity.words != ["tie"]);
            entities.primary = None;
        }
        if let Some((title, choice)) = question.rsplit_once(" \u{2014} ") {
            if matches!(choice.trim().to_lowercase().as_str(), "tie" | "draw") {
                form.form = Some(form::Form::Draw);
                entities
                    .subjects
                    .retain(|entity| entity.words != ["tie"] && entity.words != ["draw"]);
                entities.primary = None;
            } else if let Some(chosen) = chosen_name(choice, end_date) {
                primary_is_choice = true;
                if let Some(party) = party_whose_candidate(&entities, &form, &chosen) {
                    // "Will Republicans win the Senate race in Iowa? — Ashley Hinson": the
                    // question asks about the party, which is the choice the other market
                    // must name; its candidate's name, which the other exchange need not
                    // give, only says who runs for it.
                    entities.subjects.retain(|subject| !subject.corresponds_to(&chosen));
                    entities.primary = Some(party);
                } else {
                    if entities.subjects.len() == 2 && names_a_game(title) {
                        opponent = entities
                            .subjects
                            .iter()
                            .find(|subject| !subject.corresponds_to(&chosen))
                            .cloned();
                    }
                    entities.primary = Some(chosen);
                }
            }
        }
        // Kalshi's match markets name one player ("Thiago Agustin Tirante wins") under an
        // event that names the match ("… Tirante vs Arthur Fils"): the event's other side is
        // the opponent, which tells this match from the player's next one.
        if opponent.is_none()
            && entities.subjects.len() == 1
            && let (Some(primary), Some(event_title)) = (&entities.primary, event_title)
        {
            let game = event_title
                .rsplit_once(':')
                .map_or(event_title, |(_contest, game)| game);
            if names_a_game(game) {
                let sides = entities::extract(&mut tokens::tokenize(game)).subjects;
                if sides.len() == 2 && sides.iter().any(|side| side.corresponds_to(primary)) {
                    opponent = sides.into_iter().find(|side| !side.corresponds_to(primary));
                }
            }
        }
        // In a question about one game, a round names which game it is: "win the Faria vs
        // Musetti: Round Of 16 match" asks who wins that game, not whether one reaches a round.
        if opponent.is_some() || (!side::is_yes_no(outcomes) && outcomes.len() == 2) || names_a_game(&question) {
            form.stages.retain(|stage| !stage.is_tournament_round());
        }
        // The league settles a team name several teams share ("Kings"); read only then.
        let league = entities
            .subjects
            .iter()
            .chain(entities.primary.as_ref())
            .any(teams::needs_league)
            .then(|| {
                teams::league_of(&question)
                    .or_else(|| event_title.and_then(teams::league_of))
                    .or_else(|| teams::league_shared_by(&entities.subjects))
            })
            .flatten();
        for entity in entities
            .subjects
            .iter_mut()
            .chain(entities.primary.as_mut())
            .chain(opponent.as_mut())
        {
            to_common_name(entity, league);
            if !teams::names_a_team(entity) {
                entities::to_singular_group(entity);
            }
        }
        let named_outcomes = (!side::is_yes_no(outcomes) && outcomes.len() == 2).then(|| {
            outcomes
                .iter()
                .map(|outcome| {
                    let found = entities::extract(&mut tokens::tokenize(outcome));
                    let mut entity = found.subjects.into_iter().next().unwrap_or_else(|| Entity {
                        kind: entities::EntityKind::Name,
                        words: crate::text::words(outcome).collect(),
                    });
                    to_common_name(&mut entity, league);
                    entity
                })
                .collect()
        });
        let wording = wording(&tokens, &entities);
        let (title, _choice) = title_and_choice(&question);
        Features {
            entities,
            quantities,
            labels,
            timing,
            side,
            form,
            named_outcomes,
            regulation_time,
            opponent,
            primary_is_choice,
            game: None,
            settled_on: None,
            said: mention::said_words(&question),
            asks_of_a_whole_match: crate::text::word_slices(title).any(|word| word == "match" || word == "series"),
            end_date,
            end_day_american: None,
            names_a_sides_total: names_a_sides_total(&question),
            names_a_game: names_a_game(title) || event_title.is_some_and(names_a_game),
            wording,
        }
    }

    /// Adds the place a market is about where its question names no subject (Kalshi's
    /// city-less weather titles, [`series`]). A question that names a subject keeps its own.
    pub fn add_place(&mut self, place: &Entity) {
        if self.entities.subjects.is_empty() {
            self.entities.subjects.push(place.clone());
        }
    }

    /// The words that name the subject, for blocking: subjects' words, or when the question
    /// names no subject, its longest informative words.
    pub fn key_words(&self) -> Vec<String> {
        let mut words: Vec<String> = self
            .entities
            .subjects
            .iter()
            .chain(self.named_outcomes.iter().flatten())
            .flat_map(|entity| entity.words.iter().cloned())
            .filter(|word| word.len() >= 3 && !is_generic_name_word(word))
            .collect();
        if words.is_empty() {
            words = self
                .entities
                .contexts
                .iter()
                .map(|context| format!("contest {context}"))
                .collect();
        }
        words.sort();
        words.dedup();
        words
    }

    /// The thresholds as blocking tokens: unit and value to three significant figures, so
    /// that "$150k" and "149999.99" meet. Two markets with different thresholds never
    /// match, so blocking on them loses nothing.
    pub fn threshold_tokens(&self) -> Vec<String> {
        // A strict threshold is listed under its inclusive equal too ("over 2.5 goals" under
        // 3): pairs one step apart agree, and must meet.
        let mut tokens: Vec<String> = self
            .quantities
            .iter()
            .flat_map(|quantity| {
                std::iter::once(quantity.low)
                    .chain(quantity.inclusive_equivalent())
                    .map(move |value| (quantity.unit, value))
            })
            .map(|(unit, value)| format!("{unit:?} {}", three_significant_figures(value)))
            .collect();
        tokens.sort();
        tokens.dedup();
        tokens
    }

    /// The years the market is decided in: stated ones, else its end date's.
    pub fn years(&self) -> Vec<i32> {
        let mut years: Vec<i32> = self.timing.years.iter().copied().collect();
        if let Some(date) = self.timing.resolution_date() {
            years.push(date.pred_opt().unwrap_or(date).year());
        }
        if years.is_empty()
            && let Some(end_date) = self.end_date
        {
            years.push(end_date.year());
        }
        years.sort_unstable();
        years.dedup();
        years
    }
}

/// A club, country or team under the one name both exchanges' spellings of it become.
fn to_common_name(entity: &mut Entity, league: Option<teams::League>) {
    entities::drop_club_words(entity);
    clubs::canonicalize(entity);
    entities::to_common_country_name(entity);
    teams::canonicalize(entity, league);
}

/// A game's label before a colon ("Counter-Strike: FaZe vs NIP", "StarLadder Major Budapest
/// 2025: FaZe vs. NIP") names its game or tournament, which the other exchange labels its own
/// way or not at all: the game's sides are its subjects.
fn drop_the_games_label(question: &str, entities: &mut Entities) {
    let Some((label, game)) = question.split_once(": ") else {
        return;
    };
    if !names_a_game(game) {
        return;
    }
    let in_the_label = entities::extract(&mut tokens::tokenize(label)).subjects;
    let in_the_game = entities::extract(&mut tokens::tokenize(game));
    entities
        .subjects
        .retain(|subject| !in_the_label.contains(subject) || in_the_game.subjects.contains(subject));
    if entities
        .primary
        .as_ref()
        .is_some_and(|primary| !entities.subjects.contains(primary))
    {
        entities.primary = in_the_game.primary;
    }
}

/// The name a Kalshi choice gives, read as a question is: its dates first, so that a choice
/// of a deadline ("— Before Oct 1, 2026") names nobody.
fn chosen_name(choice: &str, end_date: Option<NaiveDate>) -> Option<Entity> {
    let mut tokens = tokens::tokenize(choice);
    dates::extract(&mut tokens, end_date.map(dates::Reference::MarketEnd));
    entities::extract(&mut tokens).primary
}

/// The party a Kalshi question asks to win an election when its choice is a person, the
/// party's candidate ("Will Democratics win the Senate race in Iowa? — Josh Turek"). Not a
/// nomination or a primary ("Who will be the Republican nominee for Senate? — Ken Paxton"),
/// nor anything else a party's members do ("Which Republicans will vote against the bill?"),
/// where the person is who resolves Yes.
fn party_whose_candidate(question: &Entities, form: &form::Reading, chosen: &Entity) -> Option<Entity> {
    let wins_an_election = form.action == Some(form::Action::Win)
        && form.form() == form::Form::Happen
        && !form
            .stages
            .iter()
            .any(|stage| matches!(stage, form::Stage::Primary | form::Stage::Runoff));
    if !wins_an_election || chosen.kind != entities::EntityKind::Name || chosen.words.len() < 2 {
        return None;
    }
    question
        .subjects
        .iter()
        .find(|subject| subject.kind == entities::EntityKind::Party && !subject.corresponds_to(chosen))
        .cloned()
}

/// Kalshi's question as the normalizer builds it, "title — choice": the title, and the choice
/// where there is one.
pub(crate) fn title_and_choice(question: &str) -> (&str, Option<&str>) {
    match question.rsplit_once(" \u{2014} ") {
        Some((title, choice)) => (title, Some(choice)),
        None => (question, None),
    }
}

/// Whether a word stands between the two sides of a game: "vs", "v", "at" or "@".
fn parts_two_sides(word: &str) -> bool {
    matches!(word.trim_end_matches('.'), "vs" | "v" | "at" | "@")
}

/// Whether a title names a game between two sides: two capitalised words either side of
/// "vs", "v" or "at" ("Fulham vs Brighton Winner?", "Kansas City at Jacksonville").
fn names_a_game(title: &str) -> bool {
    let words: Vec<&str> = title.split_whitespace().collect();
    let capitalised = |word: &&str| word.starts_with(|first: char| first.is_uppercase());
    words
        .windows(3)
        .any(|window| parts_two_sides(window[1]) && capitalised(&window[0]) && capitalised(&window[2]))
}

/// Whether a capitalised name stands right before "Total" ("Houston Total Points", not "Full
/// Game: Total Points" nor "Dallas: Total Points"), and is not the second side of the game
/// the same clause names ("Cincinnati vs San Diego Total Runs?" is the game's total; "Houston
/// at Dallas: Houston Total Points?" is Houston's).
fn names_a_sides_total(question: &str) -> bool {
    let words: Vec<&str> = question.split_whitespace().collect();
    words.windows(2).enumerate().any(|(index, pair)| {
        let (name, next) = (pair[0], pair[1]);
        let clause_names_the_game = || {
            words[..index]
                .iter()
                .rev()
                .take_while(|word| {
                    !word.ends_with(':')
                        && !word.ends_with('?')
                        && !matches!(**word, "-" | "\u{2013}" | "\u{2014}" | "|")
                })
                .any(|word| parts_two_sides(word))
        };
        next == "Total"
            && name.starts_with(|first: char| first.is_uppercase())
            && !name.ends_with(':')
            && !matches!(name, "Full" | "Game" | "Match" | "The" | "Over" | "Under")
            && !clause_names_the_game()
    })
}

fn three_significant_figures(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return "0".to_owned();
    }
    let magnitude = value.abs().log10().floor() as i32;
    let scale = 10f64.powi(magnitude - 2);
    format!("{}", (value / scale).round() * scale)
}

/// Parts of place names too common to tell teams apart on their own.
fn is_generic_name_word(word: &str) -> bool {
    matches!(
        word,
        "new"
            | "the"
            | "city"
            | "united"
            | "state"
            | "states"
            | "north"
            | "south"
            | "west"
            | "east"
            | "san"
            | "los"
            | "las"
            | "saint"
            | "fort"
            | "bay"
            | "club"
    )
}

/// Same-meaning verbs the exchanges use interchangeably, mapped onto one.
fn canonical_word(word: &str) -> &str {
    match word {
        "hit" | "hits" | "reaches" | "surpass" | "exceed" | "exceeds" | "break" | "top" => "reach",
        "dips" | "fall" | "falls" | "drop" | "drops" => "dip",
        "wins" | "won" | "winner" | "champion" | "championship" => "win",
        "released" | "releases" => "release",
        other => other,
    }
}

/// The weights of the wording's words: a subject's count double.
const PLAIN_WORD_WEIGHT: f32 = 1.0;
const SUBJECT_WORD_WEIGHT: f32 = 2.0;

fn wording(tokens: &[tokens::Token], entities: &Entities) -> Vec<(u64, f32)> {
    let mut weighted: Vec<(u64, f32)> = Vec::new();
    for token in tokens.iter().filter(|token| !token.used) {
        let word = canonical_word(&token.lower);
        if is_stopword(word) || word.len() < 2 || token.starts_with_digit() || is_question_glue(word) {
            continue;
        }
        weighted.push((hash(word), PLAIN_WORD_WEIGHT));
    }
    for entity in &entities.subjects {
        for word in &entity.words {
            weighted.push((hash(word), SUBJECT_WORD_WEIGHT));
        }
    }
    for context in &entities.contexts {
        weighted.push((hash(context), PLAIN_WORD_WEIGHT));
    }
    weighted.sort_by(|left, right| left.0.cmp(&right.0).then(right.1.total_cmp(&left.1)));
    weighted.dedup_by_key(|(hash, _weight)| *hash);
    weighted
}

impl Features {
    /// Whether a number is the line (a margin or a total) of a game the market names or its
    /// ticker does: the market is on one game. An election's margin is not.
    pub fn names_a_line_of_a_game(&self) -> bool {
        (self.names_a_game || self.game.is_some())
            && self
                .quantities
                .iter()
                .any(|quantity| quantity.counted != numbers::Counted::Unsaid)
    }

    /// Whether a number is a game's total.
    pub fn names_a_total(&self) -> bool {
        self.quantities
            .iter()
            .any(|quantity| quantity.counted == numbers::Counted::Total)
    }

    /// Whether a number is the margin the subject wins by.
    pub fn names_a_margin(&self) -> bool {
        self.quantities
            .iter()
            .any(|quantity| quantity.counted == numbers::Counted::Margin)
    }

    /// Whether every word of `entity` is among this question's plain words (those not read
    /// as a subject; a contest's name counts as one word), as a name in capitals elsewhere
    /// may be written in lower case here. A word the wording folds into another
    /// ("championship" into "win") is never found: the wording holds only the folded one.
    pub fn writes_in_plain_words(&self, entity: &Entity) -> bool {
        entity.words.iter().all(|word| {
            let hash = hash(word);
            self.wording
                .binary_search_by(|(other, _weight)| other.cmp(&hash))
                .is_ok_and(|at| self.wording[at].1 == PLAIN_WORD_WEIGHT)
        })
    }
}

/// Words that carry no meaning in a market question beyond the stopwords of search.
fn is_question_glue(word: &str) -> bool {
    matches!(
        word,
        "when" | "there" | "their" | "his" | "her" | "happen" | "become" | "get" | "next" | "yes" | "no"
    )
}

/// FNV-1a: a stable hash, so features and blocking keys are the same on every run.
pub fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Kalshi's choices on a soccer game say that they are settled on the regulation time
/// ("Egnatia Rrogozhine vs NK Celje Winner? — Reg Time: NK Celje", "— Reg Time: Over 2.5
/// goals scored"), as Polymarket's Yes/No game markets are without saying so: the label is
/// no name, and would be read as one. The question without it, where it has one; the
/// features keep that it did (`regulation_time`).
fn without_regulation_time(question: &str) -> Option<String> {
    const LABELS: [&str; 2] = ["Reg Time: ", "Regulation Time: "];
    let (title, choice) = question.rsplit_once(" \u{2014} ")?;
    let choice = LABELS.iter().find_map(|label| choice.strip_prefix(label))?;
    Some(format!("{title} \u{2014} {choice}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yes_no() -> Vec<String> {
        vec!["Yes".to_owned(), "No".to_owned()]
    }

    #[test]
    fn a_total_after_the_game_is_the_games_and_after_a_side_the_sides() {
        assert!(!names_a_sides_total(
            "Cincinnati vs San Diego Total Runs? — Over 8.5 runs scored"
        ));
        assert!(!names_a_sides_total("Houston at Dallas: Total Points"));
        assert!(names_a_sides_total(
            "Houston at Dallas: Houston Total Points? — Over 115.5 points scored"
        ));
        assert!(names_a_sides_total("Houston Total Points?"));
        assert!(names_a_sides_total(
            "Houston vs Dallas - Houston Total Points? — Over 110.5 points scored"
        ));
    }

    #[test]
    fn a_soccer_choices_regulation_time_label_is_no_name() {
        let read = |question: &str| Features::of(question, &yes_no(), None, None);
        let labelled = read("Egnatia Rrogozhine vs NK Celje Winner? \u{2014} Reg Time: NK Celje");
        let plain = read("Egnatia Rrogozhine vs NK Celje Winner? \u{2014} NK Celje");
        assert_eq!(labelled.entities.subjects, plain.entities.subjects);
        assert_eq!(labelled.entities.primary, plain.entities.primary);
        assert_eq!(
            read("France vs Sweden Winner? \u{2014} Reg Time: Tie").form.form(),
            form::Form::Draw
        );
        // Only a choice's label: the words elsewhere are left as written.
        assert!(labelled.regulation_time && !plain.regulation_time);
        assert_eq!(without_regulation_time("Reg Time: who wins?"), None);
    }

    #[test]
    fn reads_every_part_of_a_threshold_question() {
        let features = Features::of(
            "Will Bitcoin reach $150,000 by December 31, 2025?",
            &yes_no(),
            Some("What price will Bitcoin hit in 2025?"),
            NaiveDate::from_ymd_opt(2025, 12, 31),
        );
        assert_eq!(features.entities.subjects[0].key(), "bitcoin");
        assert_eq!(features.quantities.len(), 1);
        assert_eq!(features.timing.deadline, NaiveDate::from_ymd_opt(2026, 1, 1));
        assert_eq!(features.key_words(), ["bitcoin"]);
        assert_eq!(features.years(), [2025]);
    }

    #[test]
    fn a_round_in_a_game_says_which_game_not_a_stage_to_reach() {
        let game = Features::of(
            "Will Lorenzo Musetti win the Faria vs Musetti: Round Of 16 match?",
            &yes_no(),
            None,
            None,
        );
        assert!(game.form.stages.is_empty());
        let reach = Features::of(
            "Will Germany qualify for FIFA World Cup Round of 16?",
            &yes_no(),
            None,
            None,
        );
        assert_eq!(reach.form.stages, [form::Stage::RoundOf(16)]);
        // A part of the game stays a stage.
        let set = Features::of(
            "Set 1 Winner: Paul vs Cobolli",
            &["Paul".to_owned(), "Cobolli".to_owned()],
            None,
            None,
        );
        assert_eq!(set.form.stages, [form::Stage::PartOfGame]);
    }

    #[test]
    fn the_event_of_a_one_player_market_names_the_opponent() {
        let features = Features::of(
            "Thiago Agustin Tirante wins",
            &yes_no(),
            Some("Cincinnati Open: Thiago Agustin Tirante vs Arthur Fils"),
            None,
        );
        assert_eq!(
            features.opponent.map(|opponent| opponent.key()).as_deref(),
            Some("arthur fils")
        );
        let without = Features::of("Thiago Agustin Tirante wins", &yes_no(), None, None);
        assert_eq!(without.opponent, None);
    }

    #[test]
    fn a_tie_in_kalshis_question_is_a_draw() {
        let features = Features::of("Will Tie win the Ryder Cup?", &yes_no(), None, None);
        assert_eq!(features.form.form(), form::Form::Draw);
        assert!(
            features
                .entities
                .subjects
                .iter()
                .all(|subject| subject.words != ["tie"]),
            "{:?}",
            features.entities
        );
        assert_eq!(
            Features::of("Will the 2025 Ryder Cup end in a tie?", &yes_no(), None, None)
                .form
                .form(),
            form::Form::Draw
        );
    }

    #[test]
    fn named_outcomes_become_entities() {
        // Polymarket 115.
        let features = Features::of(
            "Superbowl 55: Kansas City Chiefs vs Tampa Bay Buccaneers",
            &["Chiefs".to_owned(), "Bucs".to_owned()],
            None,
            None,
        );
        let outcomes = features.named_outcomes.unwrap();
        assert_eq!(outcomes[0].key(), "kansas city chiefs");
        assert_eq!(outcomes[1].key(), "tampa bay buccaneers");
        assert_eq!(features.entities.contexts, ["super bowl"]);
    }
}
