//! Comparing two markets field by field, and the similarity that follows.
//!
//! Each field answers one question about resolution: the same subject? the same contest?
//! the same threshold? the same date? the same side? A contradiction in any of them refuses
//! the pair whatever its wording (another team, threshold or deadline is another market);
//! otherwise the similarity weighs how sure each field is:
//!
//! `similarity = 0.4 × subject + 0.3 × date + 0.3 × wording`, halved when refused,
//!
//! rounded to 3 decimals. Every part is symmetric, so `judge(a, b)` and `judge(b, a)` agree.

use chrono::Datelike;
use std::borrow::Cow;
use std::fmt;

use super::Orientation;
use super::extract::Features;
use super::extract::entities::{Entity, EntityKind};
use super::extract::ticker;

/// The fields a comparison reports on, in the order `--why` prints them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    Subject,
    Contest,
    Form,
    Threshold,
    Date,
    Side,
    Wording,
}

impl Field {
    pub fn label(self) -> &'static str {
        match self {
            Field::Subject => "subject",
            Field::Contest => "contest",
            Field::Form => "form",
            Field::Threshold => "threshold",
            Field::Date => "date",
            Field::Side => "side",
            Field::Wording => "wording",
        }
    }
}

/// How one field of two markets compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agreement {
    /// Both state it, and it is the same.
    Agree,
    /// Consistent, but one states less than the other (or only end dates agree).
    Partial,
    /// Only one states it, so it cannot be checked.
    Unknown,
    /// Neither states it.
    NotStated,
    /// Both state it, differently: the markets resolve differently.
    Conflict,
}

impl Agreement {
    pub fn label(self) -> &'static str {
        match self {
            Agreement::Agree => "agree",
            Agreement::Partial => "partly agree",
            Agreement::Unknown => "unconfirmed",
            Agreement::NotStated => "not stated",
            Agreement::Conflict => "CONFLICT",
        }
    }
}

/// The numbers of a comparison, without descriptions: what the index computes for every
/// candidate pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judgement {
    pub similarity: f64,
    /// The first field that contradicts, if any.
    pub refused_by: Option<Field>,
    pub orientation: Orientation,
    pub subject: (Agreement, f64),
    pub contest: Agreement,
    pub form: Agreement,
    pub threshold: Agreement,
    /// The thresholds agree only at the precision a figure is published at ("above 4.6%"
    /// and "4.7% or more"): they resolve apart for a figure between the two.
    pub one_step_apart: bool,
    pub date: (Agreement, f64),
    pub side: Agreement,
    pub wording: f64,
}

const SUBJECT_WEIGHT: f64 = 0.4;
const DATE_WEIGHT: f64 = 0.3;
const WORDING_WEIGHT: f64 = 0.3;
/// How much of the subject score survives when only one side names the contest.
const UNCONFIRMED_CONTEST_FACTOR: f64 = 0.75;
/// How many days apart two stated dates may be and still agree: none. "By December 30" and
/// "by December 31" are two deadlines; time zones move a deadline by hours, and both
/// exchanges write the day.
const SAME_DAY_TOLERANCE_DAYS: i64 = 0;
/// An end date this close to a stated deadline supports it.
const END_DATE_TOLERANCE_DAYS: i64 = 45;
/// The date score when one question states a date and the other market gives no date at
/// all, not even an end date: the date decides resolution and nothing confirms it.
const UNCONFIRMED_DATE_SCORE: f64 = 0.3;
/// The date score when a date written without its year, in a market that gives none,
/// falls on the other's month and day: the day agrees, the year is not confirmed.
const YEARLESS_DATE_SCORE: f64 = 0.7;
/// The date score when one question states a date or year and the other market, stating
/// none, ends well after it, but a contest named on both fixes the event ("the 2026 NBA
/// Finals"): Kalshi closes its season markets late, so the end date says nothing. With no
/// contest on both, such an end date speaks against the stated window ("Greenland before
/// July" against a market open through the whole term) and the dates conflict: a key field
/// must be confirmed, not merely uncontradicted.
const LATE_END_DATE_SCORE: f64 = 0.5;
/// How far apart the end dates of two markets on one game may be: Kalshi closes a game's
/// market two weeks after it is played (its backstop for a postponement), Polymarket on the
/// day. Meetings of the same two sides further apart are other games; closer ones cannot be
/// told apart until Kalshi's expected expiration is read (see `docs/MATCHING.md`).
const GAME_END_TOLERANCE_DAYS: i64 = 15;
/// How far a game's day (from Kalshi's ticker) may be from the end date of a market its game
/// decides: the exchanges' days differ by time zone.
pub(crate) const GAME_DAY_TOLERANCE_DAYS: i64 = 1;
/// End dates further apart than this, with no date in either question, are other markets;
/// so is a market closing this long after the period the other question states.
const END_DATE_CONFLICT_DAYS: i64 = 365;

/// Compares two markets. Symmetric: `judge(a, b)` equals `judge(b, a)` except that the
/// orientation is seen from the other side, which for a flip is the same flip.
pub fn judge(left: &Features, right: &Features) -> Judgement {
    let (subject, orientation) = compare_subjects(left, right);
    let form = compare_forms(left, right);
    let (threshold, one_step_apart) = compare_thresholds(left, right);
    let date = compare_dates(left, right, one_game(left, right));
    let contest = compare_contests(left, right);
    let side = if left.side.opposes(&right.side) {
        Agreement::Conflict
    } else {
        Agreement::Agree
    };
    let wording = weighted_jaccard(&left.wording, &right.wording);
    let refused_by = [
        (Field::Subject, subject.0),
        (Field::Contest, contest),
        (Field::Form, form),
        (Field::Threshold, threshold),
        (Field::Date, date.0),
        (Field::Side, side),
    ]
    .into_iter()
    .find(|(_field, agreement)| *agreement == Agreement::Conflict)
    .map(|(field, _agreement)| field);
    // A contest named on one side only leaves the subject unconfirmed: "Texas" in a mask
    // mandate and "Texas" in the college championship are not one subject.
    // And when the other side also names something the first does not, that name is most
    // likely its own contest, unread ("the American League Championship" against "the Pro
    // Baseball Championship"): neither subject nor contest is confirmed, and the subject
    // counts for nothing.
    let contest_factor = match (contest, subject.0) {
        (Agreement::Unknown, Agreement::Partial) if uncontested_side_names_more(left, right) => 0.0,
        (Agreement::Unknown, _) => UNCONFIRMED_CONTEST_FACTOR,
        _ => 1.0,
    };
    let subject = (subject.0, subject.1 * contest_factor);
    let mut similarity = SUBJECT_WEIGHT * subject.1 + DATE_WEIGHT * date.1 + WORDING_WEIGHT * wording;
    if refused_by.is_some() {
        similarity *= 0.5;
    }
    Judgement {
        similarity: (similarity.clamp(0.0, 1.0) * 1000.0).round() / 1000.0,
        refused_by,
        orientation,
        subject,
        contest,
        form,
        threshold,
        one_step_apart,
        date,
        side,
        wording,
    }
}

/// Whether [`judge`] refuses the pair on a field that is cheaper to compare than the subjects
/// (form, side, contest, date). The index asks this first: about half the candidate pairs of
/// a large catalogue stop here, before any of their names are compared.
pub fn refused_before_subjects(left: &Features, right: &Features) -> bool {
    compare_forms(left, right) == Agreement::Conflict
        || left.side.opposes(&right.side)
        || compare_contests(left, right) == Agreement::Conflict
        || compare_dates(left, right, one_game(left, right)).0 == Agreement::Conflict
}

/// Whether the pair is about one meeting of two sides: a market whose outcomes are the two
/// sides of a game, or that names its opponent or a line of a game.
fn one_game(left: &Features, right: &Features) -> bool {
    left.named_outcomes.is_some()
        || right.named_outcomes.is_some()
        || left.game.is_some()
        || right.game.is_some()
        || left.opponent.is_some()
        || right.opponent.is_some()
        || left.names_a_line_of_a_game()
        || right.names_a_line_of_a_game()
}

/// Whether the market that names no contest names a subject the other does not (the other,
/// naming a contest, may name more: "Netanyahu out?" against "... leave Prime Minister of
/// Israel"). No allocation: this runs for every candidate pair.
fn uncontested_side_names_more(left: &Features, right: &Features) -> bool {
    let (uncontested, other) = if left.entities.contexts.is_empty() {
        (left, right)
    } else {
        (right, left)
    };
    uncontested.entities.subjects.iter().any(|subject| {
        !other
            .entities
            .subjects
            .iter()
            .any(|their| their.corresponds_to(subject))
    })
}

/// The same form and the same stages, or they ask different things ("qualify" against "win",
/// "the first round" against the whole election).
/// Whether `regulation` is settled on the regulation time (Kalshi's "— Reg Time: PSG") and
/// `other` on a result extra time or a shoot-out may decide: a market whose outcomes are
/// the two sides, or a final.
fn regulation_against_extra_time(regulation: &Features, other: &Features) -> bool {
    regulation.regulation_time
        && (other.named_outcomes.as_ref().is_some_and(|sides| sides.len() == 2)
            || other.form.stages.contains(&super::extract::form::Stage::Final))
}

/// The form as `--why` prints it, with what the exchange settles it on where it decides that.
fn describe_form(features: &Features) -> String {
    let mut form = features.form.describe();
    if let Some(said) = &features.said {
        form.push_str(&format!(", says \"{}\"", said.join("\" or \"")));
    }
    if let Some(settlement) = features.settled_on {
        form.push_str(&format!(", settled on {settlement}"));
    }
    form
}

fn compare_forms(left: &Features, right: &Features) -> Agreement {
    let other_span = matches!((left.form.span, right.form.span), (Some(left), Some(right)) if left != right);
    let other_form = left.form.form() != right.form.form() && !left.form.succession_by_election(&right.form);
    if other_form
        || regulation_against_extra_time(left, right)
        || regulation_against_extra_time(right, left)
        || left.form.stages != right.form.stages
        || other_span
        || left.form.other_action(&right.form)
        || left.form.other_extreme(&right.form)
        || left.form.other_measure(&right.form)
        || super::extract::settlement::differ(left.settled_on, right.settled_on)
        || matches!((&left.said, &right.said), (Some(left), Some(right)) if left != right)
    {
        Agreement::Conflict
    } else if left.form.form == right.form.form {
        Agreement::Agree
    } else {
        // One states a marker the other leaves implicit (none is Happen on both).
        Agreement::Partial
    }
}

fn compare_subjects(left: &Features, right: &Features) -> ((Agreement, f64), Orientation) {
    // "Tommy Paul wins" (ticker `…-26AUG20PAUCOB-PAU`) is his game against Cobolli, not
    // "Alexander Zverev vs Tommy Paul".
    if ticker_names_another_opponent(left, right) || ticker_names_another_opponent(right, left) {
        return ((Agreement::Conflict, 0.0), Orientation::Same);
    }
    // A market whose outcomes are names ("Chiefs" / "Bucs") is about both of them; a Yes/No
    // market about one of them matches it, and tells which outcome is its Yes.
    if let Some(result) = compare_with_named_outcomes(left, right) {
        return result;
    }
    // "Will Burnley FC win on 2026-02-02?" against "Sunderland vs Burnley Winner? —
    // Sunderland": each asks that the other's side wins. And the Senate is not the House,
    // nor a governorship.
    if backs_the_opponent(left, right)
        || backs_the_opponent(right, left)
        || left.entities.offices.differ(&right.entities.offices)
    {
        return ((Agreement::Conflict, 0.0), Orientation::Same);
    }
    let (left_subjects, right_subjects) = with_the_united_states_unsaid(
        without_unnamed_opponent(left, right),
        without_unnamed_opponent(right, left),
    );
    let (left_subjects, right_subjects) = (&*left_subjects, &*right_subjects);
    let agreement = match (left_subjects.is_empty(), right_subjects.is_empty()) {
        (true, true) => (Agreement::NotStated, 0.5),
        (true, false) | (false, true) if ticker_names_the_game(left, right) || ticker_names_the_game(right, left) => {
            (Agreement::Agree, 1.0)
        }
        (true, false) | (false, true)
            if ticker_names_another_game(left, right) || ticker_names_another_game(right, left) =>
        {
            (Agreement::Conflict, 0.0)
        }
        // Names the other question writes in lower case ("in Electoral College?" against "an
        // electoral college tie?") are named by both.
        (true, false) if Unmatched::of(right_subjects, &[], Some(left)).count == 0 => (Agreement::Agree, 1.0),
        (false, true) if Unmatched::of(left_subjects, &[], Some(right)).count == 0 => (Agreement::Agree, 1.0),
        (true, false) | (false, true) => (Agreement::Unknown, 0.4),
        (false, false) if ticker_backs_the_first_side(left, right) || ticker_backs_the_first_side(right, left) => {
            (Agreement::Agree, 1.0)
        }
        // Kalshi's choice is who or what resolves Yes ("Which boroughs will Mamdani win? —
        // Queens"): a market that names subjects but not the choice asks about something else
        // (the whole city).
        (false, false) if choice_unnamed(left, right_subjects) || choice_unnamed(right, left_subjects) => {
            (Agreement::Conflict, 0.0)
        }
        (false, false) => {
            let (left_unmatched, right_unmatched) = (
                Unmatched::of(left_subjects, right_subjects, None),
                Unmatched::of(right_subjects, left_subjects, None),
            );
            // A name in capitals that the other question writes in lower case is named by
            // both, but only where the other names nobody this one does not: "Robotaxi" against
            // "a robotaxi service in Austin" leaves Austin on one side only.
            let (left_unmatched, right_unmatched) = match (left_unmatched.count, right_unmatched.count) {
                (1.., 0) => (
                    Unmatched::of(left_subjects, right_subjects, Some(right)),
                    right_unmatched,
                ),
                (0, 1..) => (left_unmatched, Unmatched::of(right_subjects, left_subjects, Some(left))),
                _ => (left_unmatched, right_unmatched),
            };
            if left_unmatched.count == 0 && right_unmatched.count == 0 {
                (Agreement::Agree, 1.0)
            } else if left_unmatched.count == left_subjects.len() && right_unmatched.count == right_subjects.len()
                || (left_unmatched.names_someone && right_unmatched.names_someone)
                || (left_unmatched.names_an_institution && right_unmatched.names_an_institution)
                || foreign_figure(&left_unmatched, right_subjects)
                || foreign_figure(&right_unmatched, left_subjects)
                || another_figure(&left_unmatched, right_subjects)
                || another_figure(&right_unmatched, left_subjects)
                || some_of_the_alternatives(left, &left_unmatched, &right_unmatched)
                || some_of_the_alternatives(right, &right_unmatched, &left_unmatched)
            {
                // Nothing shared, or each names someone the other does not: another team,
                // candidate or asset.
                (Agreement::Conflict, 0.0)
            } else {
                let share = |unmatched: usize, total: usize| 1.0 - unmatched as f64 / total as f64;
                let matched = (share(left_unmatched.count, left_subjects.len())
                    + share(right_unmatched.count, right_subjects.len()))
                    / 2.0;
                (Agreement::Partial, 0.9 * matched)
            }
        }
    };
    (agreement, Orientation::Same)
}

/// Whether `kalshi`'s ticker names a game whose opponent is none of the sides `other` names
/// besides Kalshi's choice. The codes are loose evidence (a club's code may abbreviate words
/// its name loses when read, "CAP" for "CA Paranaense"), so they are read only when the
/// ticker's code for the choice fits the choice's name (the codes abbreviate names the way
/// [`ticker::code_fits`] reads them) and the other market's end date does not confirm the
/// ticker's day (two meetings of the same sides are not played on one day).
fn ticker_names_another_opponent(kalshi: &Features, other: &Features) -> bool {
    let (Some(game), Some(chosen)) = (&kalshi.game, &kalshi.entities.primary) else {
        return false;
    };
    if game.chosen.is_empty() {
        return false;
    }
    let day_confirmed = other
        .end_date
        .is_some_and(|end| (game.day - end).num_days().abs() <= GAME_DAY_TOLERANCE_DAYS);
    if day_confirmed || !ticker::code_fits(&game.chosen, chosen) {
        return false;
    }
    let mut other_sides = other
        .named_outcomes
        .iter()
        .flatten()
        .chain(other.opponent.iter())
        .filter(|side| !side.corresponds_to(chosen))
        .peekable();
    other_sides.peek().is_some() && !other_sides.any(|side| ticker::code_fits(&game.opponent, side))
}

/// Whether `kalshi` names one side, and its ticker that side and an opponent, which are the
/// first and second sides `other` names with no outcomes recorded ("Houston wins",
/// `KXNBAGAME-26OCT09HOUDAL-HOU`, against "Rockets vs. Mavericks"): the ticker names the
/// other side Kalshi's question leaves out, and a game's first-named side is its first
/// outcome. Backing the second side is left to the names, unconfirmed: which side a
/// recording without outcomes pays on is not known.
fn ticker_backs_the_first_side(kalshi: &Features, other: &Features) -> bool {
    let Some(game) = &kalshi.game else {
        return false;
    };
    let (Some(first), [one, another]) = (&other.entities.primary, other.entities.subjects.as_slice()) else {
        return false;
    };
    let second = if one == first { another } else { one };
    other.named_outcomes.is_none()
        && !game.chosen.is_empty()
        && second != first
        && matches!(kalshi.entities.subjects.as_slice(), [chosen] if chosen.corresponds_to(first))
        && ticker::code_fits(&game.chosen, first)
        && ticker::code_fits(&game.opponent, second)
}

/// Whether `kalshi` names no side but its ticker names a game whose two codes are the two
/// sides `other` names ("Full Game: over 45.5 points scored?", `KXNFLTOTAL-26JAN25KCJAC-45`,
/// against "Chiefs vs. Jaguars: O/U 45.5"): the ticker says which game the question is on.
fn ticker_names_the_game(kalshi: &Features, other: &Features) -> bool {
    let Some(game) = &kalshi.game else {
        return false;
    };
    let sides = other.named_outcomes.as_deref().unwrap_or(&other.entities.subjects);
    kalshi.entities.subjects.is_empty()
        && matches!(sides, [first, second] if ticker::codes_fit_both(game, [first, second]))
}

/// Whether `kalshi` names no side and its ticker a game whose codes do not fit the two sides
/// `other` names ("Will both teams score?", `KXMLSBTTS-26MAY13DALVAN-BTTS`, against "Seattle
/// Sounders FC vs. San Jose Earthquakes: Both Teams to Score"): another game.
fn ticker_names_another_game(kalshi: &Features, other: &Features) -> bool {
    let Some(game) = &kalshi.game else {
        return false;
    };
    let sides = other.named_outcomes.as_deref().unwrap_or(&other.entities.subjects);
    kalshi.entities.subjects.is_empty()
        && matches!(sides, [first, second] if !ticker::codes_fit_both(game, [first, second]))
}

/// The subjects of `features`, less the opponent in its game when `other` asks about the same
/// side winning without naming whom it plays ("Fulham vs Brighton Winner? — Fulham" against
/// "Will Fulham FC win on 2026-01-24?"): the game's date tells which meeting.
/// Borrowed unless something is left out: this runs for every candidate pair.
fn without_unnamed_opponent<'a>(features: &'a Features, other: &Features) -> Cow<'a, [Entity]> {
    let same_side = matches!(
        (&features.entities.primary, &other.entities.primary),
        (Some(primary), Some(other_primary)) if primary.corresponds_to(other_primary)
    );
    let subjects = &features.entities.subjects;
    match features.opponent.as_ref().filter(|_| same_side) {
        Some(opponent) if subjects.iter().any(|subject| subject.corresponds_to(opponent)) => Cow::Owned(
            subjects
                .iter()
                .filter(|subject| !subject.corresponds_to(opponent))
                .cloned()
                .collect(),
        ),
        _ => Cow::Borrowed(subjects),
    }
}

/// The subjects without the United States when the other side names no place or person: both
/// exchanges are American and leave the country unsaid ("Government shutdown in 2025?" is the
/// US government's; the Fed and Congress are America's), so a market naming it ("US government
/// shutdown in 2025?") names no subject the other lacks. It is dropped rather than lent to the
/// other side, so it never counts as a subject both name. A side that names any other country,
/// place or person is left as it is: the US against China, or against "Trump", stays a
/// difference.
fn with_the_united_states_unsaid<'a>(
    left: Cow<'a, [Entity]>,
    right: Cow<'a, [Entity]>,
) -> (Cow<'a, [Entity]>, Cow<'a, [Entity]>) {
    let is_us = |entity: &Entity| entity.kind == EntityKind::Country && entity.words == ["usa"];
    let names_no_place_or_person = |subjects: &[Entity]| {
        !subjects
            .iter()
            .any(|entity| matches!(entity.kind, EntityKind::Country | EntityKind::Name))
    };
    let without_us = |subjects: Cow<'a, [Entity]>| {
        if subjects.iter().any(is_us) {
            Cow::Owned(subjects.iter().filter(|entity| !is_us(entity)).cloned().collect())
        } else {
            subjects
        }
    };
    if names_no_place_or_person(&right) {
        (without_us(left), right)
    } else if names_no_place_or_person(&left) {
        (left, without_us(right))
    } else {
        (left, right)
    }
}

/// Whether `features` is a Kalshi choice that none of `other_subjects` names.
fn choice_unnamed(features: &Features, other_subjects: &[Entity]) -> bool {
    features.primary_is_choice
        && features
            .entities
            .primary
            .as_ref()
            .is_some_and(|choice| !other_subjects.iter().any(|other| other.corresponds_to(choice)))
}

/// Whether `other` asks that the opponent in `features`' game wins.
fn backs_the_opponent(features: &Features, other: &Features) -> bool {
    matches!(
        (&features.opponent, &other.entities.primary),
        (Some(opponent), Some(other_primary)) if opponent.corresponds_to(other_primary)
    )
}

/// The subjects of one side with no counterpart on the other.
struct Unmatched {
    count: usize,
    /// Whether one of them is someone or something other than an institution.
    names_someone: bool,
    /// Whether one of them is a country other than the United States.
    names_a_foreign_country: bool,
    /// Whether one of them is an economic figure.
    names_a_figure: bool,
    /// Whether one of them is an institution: the Supreme Court blocking a law is not Congress
    /// blocking it.
    names_an_institution: bool,
}

/// Alternatives on one side of which the other names only some: "visit Connecticut, Maine
/// or Vermont" resolves Yes on a visit to Maine, "visit Vermont" does not.
fn some_of_the_alternatives(features: &Features, unmatched: &Unmatched, their_unmatched: &Unmatched) -> bool {
    features.entities.alternatives && unmatched.count > 0 && their_unmatched.count == 0
}

/// A figure on one side that the other, naming a figure too, does not name: "core
/// inflation" against "inflation", payrolls against the unemployment rate. A market resolves
/// on one figure, so two figures are two markets.
fn another_figure(unmatched: &Unmatched, other_subjects: &[Entity]) -> bool {
    unmatched.names_a_figure
        && other_subjects
            .iter()
            .any(|subject| subject.kind == EntityKind::Indicator)
}

/// A country's figure or institution against the same with no country: the exchanges leave
/// the United States unsaid ("real GDP" and "the Supreme Court" are America's), so China's GDP
/// is another figure and the UK Supreme Court another court.
fn foreign_figure(unmatched: &Unmatched, other_subjects: &[Entity]) -> bool {
    unmatched.names_a_foreign_country
        && other_subjects
            .iter()
            .any(|subject| matches!(subject.kind, EntityKind::Indicator | EntityKind::Institution))
        && !other_subjects.iter().any(|subject| subject.kind == EntityKind::Country)
}

impl Unmatched {
    /// The subjects with no counterpart among `against`, the other side's subjects. With
    /// `in_lower_case_by`, a name whose every word that question writes in lower case ("Will
    /// Taylor Swift release a new Album?" against "… a new album") is not one: the other
    /// names it too, without capitals.
    fn of(subjects: &[Entity], against: &[Entity], in_lower_case_by: Option<&Features>) -> Unmatched {
        let mut unmatched = Unmatched {
            count: 0,
            names_someone: false,
            names_a_foreign_country: false,
            names_a_figure: false,
            names_an_institution: false,
        };
        for entity in subjects {
            let named_by_the_other = against.iter().any(|subject| entity.corresponds_to(subject))
                || (entity.kind == EntityKind::Name
                    && in_lower_case_by.is_some_and(|other| other.writes_in_plain_words(entity)));
            if !named_by_the_other {
                unmatched.count += 1;
                unmatched.names_someone |= entity.kind != EntityKind::Institution;
                unmatched.names_a_figure |= entity.kind == EntityKind::Indicator;
                unmatched.names_an_institution |= entity.kind == EntityKind::Institution;
                // Place names read as names too ("China"): any but the United States.
                unmatched.names_a_foreign_country |=
                    matches!(entity.kind, EntityKind::Country | EntityKind::Name) && entity.words != ["usa"];
            }
        }
        unmatched
    }
}

fn compare_with_named_outcomes(left: &Features, right: &Features) -> Option<((Agreement, f64), Orientation)> {
    match (&left.named_outcomes, &right.named_outcomes) {
        (Some(left_outcomes), Some(right_outcomes)) => {
            let corresponds = |left: usize, right: usize| left_outcomes[left].corresponds_to(&right_outcomes[right]);
            Some(if corresponds(0, 0) && corresponds(1, 1) {
                ((Agreement::Agree, 1.0), Orientation::Same)
            } else if corresponds(0, 1) && corresponds(1, 0) {
                ((Agreement::Agree, 1.0), Orientation::Flipped)
            } else {
                ((Agreement::Conflict, 0.0), Orientation::Same)
            })
        }
        (Some(outcomes), None) => Some(outcome_of(outcomes, &left.entities.subjects, right)),
        (None, Some(outcomes)) => Some(outcome_of(outcomes, &right.entities.subjects, left)),
        (None, None) => None,
    }
}

/// Which of two named outcomes a Yes/No market's subjects name. A market that names both
/// sides of the game ("Kansas City at Jacksonville Winner? — Kansas City", "Will Lorenzo
/// Musetti win the Faria vs Musetti match?") is about the one its question makes the subject;
/// one that names someone neither outcome nor the other question names is about another game
/// ("Kansas City at Jacksonville" is not "Royals vs. Yankees"), and so is one whose opponent
/// is neither outcome ("Tirante wins" against Fils is not "Tirante vs Mensik").
fn outcome_of(outcomes: &[Entity], their_subjects: &[Entity], yes_no: &Features) -> ((Agreement, f64), Orientation) {
    let entities = &yes_no.entities;
    // "Tirante wins" against Fils is not his match against Mensik.
    if yes_no
        .opponent
        .as_ref()
        .is_some_and(|opponent| !outcomes.iter().any(|outcome| outcome.corresponds_to(opponent)))
    {
        return ((Agreement::Conflict, 0.0), Orientation::Same);
    }
    let names = |outcome: &Entity| entities.subjects.iter().any(|subject| subject.corresponds_to(outcome));
    let someone_else = entities.subjects.iter().any(|subject| {
        subject.kind == EntityKind::Name
            && !outcomes
                .iter()
                .chain(their_subjects)
                .any(|known| subject.corresponds_to(known))
    });
    if someone_else {
        return ((Agreement::Conflict, 0.0), Orientation::Same);
    }
    let is_primary = |outcome: &Entity| {
        entities
            .primary
            .as_ref()
            .is_some_and(|primary| primary.corresponds_to(outcome))
    };
    let orientation = match (names(&outcomes[0]), names(&outcomes[1])) {
        (true, false) => Some(Orientation::Same),
        (false, true) => Some(Orientation::Flipped),
        (true, true) => match (is_primary(&outcomes[0]), is_primary(&outcomes[1])) {
            (true, false) => Some(Orientation::Same),
            (false, true) => Some(Orientation::Flipped),
            _ => None,
        },
        (false, false) => None,
    };
    match orientation {
        Some(orientation) => ((Agreement::Agree, 1.0), orientation),
        None => ((Agreement::Conflict, 0.0), Orientation::Same),
    }
}

/// Whether one market is a game (it names its opponent), only the other names a contest, and
/// they do not end together: "Idaho at Houston Winner? — Houston" (ends in April) against
/// "Will the Houston Rockets win the 2026 NBA Finals?" (ends in July). A game decides a
/// contest only when it is the contest's final, and then both markets end with it (Kalshi
/// up to `GAME_END_TOLERANCE_DAYS` later).
fn game_against_another_contest(left: &Features, right: &Features) -> bool {
    let game_alone = |game: &Features, other: &Features| {
        game.opponent.is_some()
            && other.opponent.is_none()
            && game.entities.contexts.is_empty()
            && !other.entities.contexts.is_empty()
    };
    // The game's day, where its ticker says it, is when it decides anything: a group game on
    // June 21 is not the final of a tournament ending July 19, however late Kalshi closes it.
    let game_day_apart = |game: &Features, other: &Features| match (&game.game, other.end_date) {
        (Some(ticker_game), Some(end)) => Some((ticker_game.day - end).num_days().abs() > GAME_DAY_TOLERANCE_DAYS),
        _ => None,
    };
    let end_together = match (
        game_day_apart(left, right).or_else(|| game_day_apart(right, left)),
        left.end_date,
        right.end_date,
    ) {
        (Some(apart), _, _) => !apart,
        (None, Some(left), Some(right)) => (left - right).num_days().abs() <= GAME_END_TOLERANCE_DAYS,
        _ => false,
    };
    (game_alone(left, right) || game_alone(right, left)) && !end_together
}

fn compare_contests(left: &Features, right: &Features) -> Agreement {
    let left_contexts = &left.entities.contexts;
    let right_contexts = &right.entities.contexts;
    match (left_contexts.is_empty(), right_contexts.is_empty()) {
        (true, true) => Agreement::NotStated,
        (true, false) | (false, true) if game_against_another_contest(left, right) => Agreement::Conflict,
        (true, false) | (false, true) => Agreement::Unknown,
        // One contest each that the other does not name is two contests, whatever else they
        // share ("the Democratic primary for New York mayor" against "the Republican primary
        // for New York mayor"); one naming more of the same is the same contest, read closer.
        (false, false)
            if contests_within(left_contexts, right_contexts) || contests_within(right_contexts, left_contexts) =>
        {
            Agreement::Agree
        }
        (false, false) => Agreement::Conflict,
    }
}

/// Whether every contest of `inner` is one of `outer`'s.
fn contests_within(inner: &[String], outer: &[String]) -> bool {
    inner.iter().all(|contest| outer.contains(contest))
}

/// How the thresholds compare, and whether they agree only one published step apart.
fn compare_thresholds(left: &Features, right: &Features) -> (Agreement, bool) {
    use super::extract::numbers::{Boundary, Quantity};
    // Whether every threshold of `of` has a counterpart in `by`, and whether one is a step
    // apart; `None` when one has none. (No allocation: this runs for every candidate pair.)
    let covered = |of: &[Quantity], by: &[Quantity]| -> Option<bool> {
        let mut one_step = false;
        for quantity in of {
            let boundary = by.iter().find_map(|other| quantity.boundary_with(other))?;
            one_step |= boundary == Boundary::OneStepApart;
        }
        Some(one_step)
    };
    // Labels ("Game 4", "#1 seed") refuse only where both sides number the same kind of thing
    // differently: one side alone naming the game by its number says nothing against the other.
    let numbered_alike = |of: &Features, by: &Features| {
        of.labels.iter().all(|label| {
            let mut same_noun = by.labels.iter().filter(|other| other.noun == label.noun).peekable();
            same_noun.peek().is_none() || same_noun.any(|other| other.number == label.number)
        })
    };
    // One game of a match ("Dota 2: Aurora vs 4Pirates - Game 1 Winner") is not the whole
    // match or series the other asks about ("Will Aurora win the … Dota 2 match?").
    let a_game_against_the_whole = |part: &Features, whole: &Features| {
        whole.asks_of_a_whole_match
            && part.labels.iter().any(|label| label.noun == "game")
            && !whole.labels.iter().any(|label| label.noun == "game")
    };
    if !numbered_alike(left, right)
        || !numbered_alike(right, left)
        || a_game_against_the_whole(left, right)
        || a_game_against_the_whole(right, left)
    {
        return (Agreement::Conflict, false);
    }
    // A total is the game's: one naming someone the other does not ("Arsenal vs Chelsea:
    // Bukayo Saka — Over 1.5 goals scored") counts another's goals.
    if left.names_a_total() || right.names_a_total() {
        // One side's total ("Houston Total Points", Kalshi's team-total ticker choosing a side,
        // `…-ARS1`) is never the game's, and is not read further: refused.
        let a_sides_total = |features: &Features| {
            features.names_a_sides_total || features.game.as_ref().is_some_and(|game| !game.chosen.is_empty())
        };
        if a_sides_total(left) || a_sides_total(right) {
            return (Agreement::Conflict, false);
        }
        let (left_subjects, right_subjects) = (&left.entities.subjects, &right.entities.subjects);
        let either_unnamed = left_subjects.is_empty() || right_subjects.is_empty();
        let the_same_sides = Unmatched::of(left_subjects, right_subjects, None).count == 0
            && Unmatched::of(right_subjects, left_subjects, None).count == 0;
        if !(either_unnamed || the_same_sides) {
            return (Agreement::Conflict, false);
        }
    }
    // A margin is the subject's: "Houston wins by over 8.5" is not Dallas's, though the
    // spread market's outcomes name both teams.
    if left.names_a_margin() || right.names_a_margin() {
        let same_side = matches!(
            (&left.entities.primary, &right.entities.primary),
            (Some(left), Some(right)) if left.corresponds_to(right)
        );
        if !same_side {
            return (Agreement::Conflict, false);
        }
    }
    match (left.quantities.is_empty(), right.quantities.is_empty()) {
        (true, true) => match (left.labels.is_empty(), right.labels.is_empty()) {
            (true, true) => (Agreement::NotStated, false),
            (false, false) => (Agreement::Agree, false),
            _ => (Agreement::Unknown, false),
        },
        // A threshold decides resolution: stated on one side only, the questions differ.
        (true, false) | (false, true) => (Agreement::Conflict, false),
        (false, false) => match (
            covered(&left.quantities, &right.quantities),
            covered(&right.quantities, &left.quantities),
        ) {
            (Some(left_step), Some(right_step)) => (Agreement::Agree, left_step || right_step),
            _ => (Agreement::Conflict, false),
        },
    }
}

fn compare_dates(left: &Features, right: &Features, one_game: bool) -> (Agreement, f64) {
    let days = |from: chrono::NaiveDate, to: chrono::NaiveDate| (to - from).num_days();
    let left_date = left.timing.resolution_date();
    let right_date = right.timing.resolution_date();
    let decided_by_a_contest = !left.entities.contexts.is_empty()
        || !right.entities.contexts.is_empty()
        || left.form.names_an_election
        || right.form.names_an_election;
    let one_contest = compare_contests(left, right) == Agreement::Agree;
    let outside_the_date = if one_contest {
        (Agreement::Unknown, LATE_END_DATE_SCORE)
    } else {
        (Agreement::Conflict, 0.0)
    };
    if let Some(agreement) = compare_yearless(left, right, outside_the_date) {
        return agreement;
    }
    match (left_date, right_date) {
        (Some(left_date), Some(right_date)) => {
            // The state on a day ("above $100k on December 31") is not an event within a
            // window ("reach $100k by December 31"), nor a reading at 10am one at noon.
            // Periods ending together but starting apart are other windows: "in Q4 2026" is
            // not "in 2026", where an addition in June counts.
            let periods_start_apart = matches!(
                (left.timing.period, right.timing.period),
                (Some((left_start, _)), Some((right_start, _))) if days(left_start, right_start).abs() > SAME_DAY_TOLERANCE_DAYS
            );
            if left.timing.reads_a_moment() != right.timing.reads_a_moment()
                || other_clock(left, right)
                || periods_start_apart
            {
                (Agreement::Conflict, 0.0)
            } else if days(left_date, right_date).abs() <= SAME_DAY_TOLERANCE_DAYS {
                (Agreement::Agree, 1.0)
            } else {
                (Agreement::Conflict, 0.0)
            }
        }
        (Some(date), None) => day_against_game(left, right)
            .unwrap_or_else(|| date_against_rest(date, right, decided_by_a_contest, outside_the_date)),
        (None, Some(date)) => day_against_game(right, left)
            .unwrap_or_else(|| date_against_rest(date, left, decided_by_a_contest, outside_the_date)),
        (None, None) => {
            // Kalshi's ticker says which day its game is played, where its close (two
            // weeks later) cannot: another day is another meeting of the same sides (the
            // next game of a series is a day later). The other's end is read in American
            // time, as the ticker's day is: a game in the evening ends after midnight UTC.
            // Where the recording keeps only the other's day, it may be a day later.
            let game_day_against_end = |game: &Features, other: &Features| {
                let day = game.game.as_ref()?.day;
                Some(match other.end_day_american {
                    Some(end) => days(day, end).abs() == 0,
                    None => days(day, other.end_date?).abs() <= GAME_DAY_TOLERANCE_DAYS,
                })
            };
            let same_day = game_day_against_end(left, right).or_else(|| game_day_against_end(right, left));
            // A year in a tournament's name ("StarLadder Major Budapest 2025") does not tell
            // two meetings of the same sides apart; the ticker's day does.
            if one_game && let Some(same_day) = same_day {
                return if same_day {
                    (Agreement::Agree, 1.0)
                } else {
                    (Agreement::Conflict, 0.0)
                };
            }
            let left_years = &left.timing.years;
            let right_years = &right.timing.years;
            if !left_years.is_empty() && !right_years.is_empty() {
                if left_years == right_years {
                    (Agreement::Agree, 1.0)
                } else if left_years.intersection(right_years).next().is_some() {
                    (Agreement::Partial, 0.7)
                } else {
                    (Agreement::Conflict, 0.0)
                }
            } else if !left.timing.unresolved.is_empty() || !right.timing.unresolved.is_empty() {
                if left.timing.unresolved == right.timing.unresolved {
                    (Agreement::Partial, 0.7)
                } else {
                    (Agreement::Unknown, 0.3)
                }
            } else if !left_years.is_empty() || !right_years.is_empty() {
                let (dated, other) = if left_years.is_empty() {
                    (right, left)
                } else {
                    (left, right)
                };
                let years = &dated.timing.years;
                // The market naming the year ends when its event is decided; the other ending
                // within `END_DATE_TOLERANCE_DAYS` of it (Kalshi some days later) is on the
                // same event, though the year's end is passed: "the 2026 MLS Cup" (ends December 19) against "the MLS Cup"
                // (closes January 8), "the Africa Cup of Nations Morocco 2025" (ends January
                // 18, 2026) against a market closing February 1.
                let ending_together = |end_date: chrono::NaiveDate| {
                    dated
                        .end_date
                        .is_some_and(|own| days(own, end_date).abs() <= END_DATE_TOLERANCE_DAYS)
                };
                match other.end_date {
                    Some(end_date) if years.contains(&end_date.year()) || ending_together(end_date) => {
                        (Agreement::Partial, 0.7)
                    }
                    Some(_) => (outside_the_date.0, outside_the_date.1.min(0.4)),
                    None => (Agreement::Unknown, UNCONFIRMED_DATE_SCORE),
                }
            } else {
                match (left.end_date, right.end_date) {
                    (Some(left_end), Some(right_end)) => {
                        let gap = days(left_end, right_end).abs();
                        if one_game && gap > GAME_END_TOLERANCE_DAYS {
                            // Another meeting of the same two teams or players.
                            (Agreement::Conflict, 0.0)
                        } else if gap <= END_DATE_TOLERANCE_DAYS {
                            (Agreement::Partial, 0.8)
                        } else if gap > END_DATE_CONFLICT_DAYS {
                            (Agreement::Conflict, 0.0)
                        } else {
                            (Agreement::Unknown, 0.4)
                        }
                    }
                    _ => (Agreement::NotStated, 0.5),
                }
            }
        }
    }
}

/// Whether both questions read at a time of day and the times differ: a reading at 10am is
/// not one at noon.
fn other_clock(left: &Features, right: &Features) -> bool {
    matches!((left.timing.clock, right.timing.clock), (Some(left), Some(right)) if left != right)
}

/// Dates written without a year in a market with no end date ("enter Iran by June 30"), on
/// either side: the month and day must agree with the other's date, and the year, unknown,
/// leaves the agreement partial; against an end date alone, they must fall near it in some
/// year, or the end speaks against them as it does against a dated question
/// (`outside_the_date`). `None` when neither side has one.
fn compare_yearless(left: &Features, right: &Features, outside_the_date: (Agreement, f64)) -> Option<(Agreement, f64)> {
    let (yearless, other) = match (left.timing.yearless, right.timing.yearless) {
        (Some(left), Some(right)) => {
            return Some(if left == right {
                (Agreement::Partial, YEARLESS_DATE_SCORE)
            } else {
                (Agreement::Conflict, 0.0)
            });
        }
        (Some(yearless), None) => (yearless, right),
        (None, Some(yearless)) => (yearless, left),
        (None, None) => return None,
    };
    // A reading at another time of day is another reading, and a game is played on its
    // ticker's day (the other leg of a tie is another day), as for a dated question.
    if other_clock(left, right) {
        return Some((Agreement::Conflict, 0.0));
    }
    if let Some(game) = &other.game
        && yearless.reads_a_moment
    {
        return Some(if yearless.falls_on(game.day) {
            (Agreement::Partial, YEARLESS_DATE_SCORE)
        } else {
            (Agreement::Conflict, 0.0)
        });
    }
    Some(match other.timing.resolution_date() {
        Some(date) if yearless.falls_on(date) && yearless.reads_a_moment == other.timing.reads_a_moment() => {
            (Agreement::Partial, YEARLESS_DATE_SCORE)
        }
        Some(_) => (Agreement::Conflict, 0.0),
        // "by June 30" against "during Trump's term": another period.
        None if !other.timing.unresolved.is_empty() => (Agreement::Conflict, 0.0),
        None => match other.end_date {
            Some(end)
                if [end.year() - 1, end.year(), end.year() + 1].into_iter().any(|year| {
                    chrono::NaiveDate::from_ymd_opt(year, yearless.month, yearless.day)
                        .is_some_and(|date| (date - end).num_days().abs() <= END_DATE_TOLERANCE_DAYS)
                }) =>
            {
                (Agreement::Partial, YEARLESS_DATE_SCORE)
            }
            Some(_) => outside_the_date,
            None => (Agreement::Unknown, UNCONFIRMED_DATE_SCORE),
        },
    })
}

/// A day one question names ("Will FC Barcelona win on 2026-04-14?") against the day the
/// other's ticker says its game is played: the other leg of a tie, or the next game of a
/// series, is another day. `None` unless the question names a day and the other a game.
fn day_against_game(stated: &Features, game: &Features) -> Option<(Agreement, f64)> {
    let game = game.game.as_ref()?;
    let day = stated.timing.on_date.filter(|_| stated.timing.reads_a_moment())?;
    Some(if game.day == day {
        (Agreement::Agree, 1.0)
    } else {
        (Agreement::Conflict, 0.0)
    })
}

/// One question names a date; the other names only years, a dateless period, or nothing.
fn date_against_rest(
    date: chrono::NaiveDate,
    other: &Features,
    decided_by_a_contest: bool,
    outside_the_date: (Agreement, f64),
) -> (Agreement, f64) {
    let last_day = date.pred_opt().unwrap_or(date);
    if !other.timing.years.is_empty() {
        return if other.timing.years.contains(&last_day.year()) {
            (Agreement::Partial, 0.7)
        } else {
            (Agreement::Conflict, 0.0)
        };
    }
    if !other.timing.unresolved.is_empty() {
        // "by June 30, 2025" against "during Trump's term": another period.
        return (Agreement::Conflict, 0.0);
    }
    match other.end_date {
        Some(end_date) if (end_date - last_day).num_days().abs() <= END_DATE_TOLERANCE_DAYS => {
            (Agreement::Partial, 0.8)
        }
        // A contest is decided on its own day, and a market on it closes then: one closing
        // inside the stated year ("the Irish presidential election", ending in November)
        // against "in 2025" is the same contest, decided inside that year.
        Some(end_date) if decided_by_a_contest && end_date < last_day && end_date.year() == last_day.year() => {
            (Agreement::Partial, 0.7)
        }
        Some(end_date) if end_date < last_day => (Agreement::Conflict, 0.0),
        // Kalshi closes an election's market up to a year after it; a close years after the
        // stated period is a later contest ("in 2026" against a market closing in 2029).
        Some(end_date) if (end_date - last_day).num_days() > END_DATE_CONFLICT_DAYS => (Agreement::Conflict, 0.0),
        Some(_) => outside_the_date,
        None => (Agreement::Unknown, UNCONFIRMED_DATE_SCORE),
    }
}

/// Weighted Jaccard of two sorted (hash, weight) lists.
fn weighted_jaccard(left: &[(u64, f32)], right: &[(u64, f32)]) -> f64 {
    let (mut shared, mut union) = (0.0f64, 0.0f64);
    let (mut left_index, mut right_index) = (0, 0);
    while left_index < left.len() || right_index < right.len() {
        match (left.get(left_index), right.get(right_index)) {
            (Some(&(left_hash, left_weight)), Some(&(right_hash, right_weight))) if left_hash == right_hash => {
                shared += f64::from(left_weight.min(right_weight));
                union += f64::from(left_weight.max(right_weight));
                left_index += 1;
                right_index += 1;
            }
            (Some(&(left_hash, left_weight)), Some(&(right_hash, _))) if left_hash < right_hash => {
                union += f64::from(left_weight);
                left_index += 1;
            }
            (Some(&(_, left_weight)), None) => {
                union += f64::from(left_weight);
                left_index += 1;
            }
            (_, Some(&(_, right_weight))) => {
                union += f64::from(right_weight);
                right_index += 1;
            }
            (None, None) => break,
        }
    }
    if union > 0.0 { shared / union } else { 0.0 }
}

/// A comparison with each side's reading of every field: what `marketlens match --why`
/// prints.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub judgement: Judgement,
    pub serving_threshold: f64,
    /// (field, left reading, right reading, agreement, note) in [`Field`] order.
    pub fields: Vec<FieldReport>,
}

#[derive(Debug, Clone)]
pub struct FieldReport {
    pub field: Field,
    pub left: String,
    pub right: String,
    pub agreement: String,
}

impl Comparison {
    pub fn new(left: &Features, right: &Features, serving_threshold: f64) -> Comparison {
        let judgement = judge(left, right);
        let subjects = |features: &Features| {
            let mut names: Vec<String> = features.entities.subjects.iter().map(Entity::key).collect();
            if let Some(outcomes) = &features.named_outcomes {
                let outcomes: Vec<String> = outcomes.iter().map(Entity::key).collect();
                names.push(format!("outcomes: {}", outcomes.join(" / ")));
            }
            if let Some(opponent) = &features.opponent {
                names.push(format!("against {}", opponent.key()));
            }
            if let Some(game) = &features.game {
                names.push(if game.chosen.is_empty() {
                    format!("ticker: the game of {}", game.day)
                } else {
                    format!(
                        "ticker: the game of {}, {} against {}",
                        game.day,
                        game.chosen.to_uppercase(),
                        game.opponent.to_uppercase()
                    )
                });
            }
            list_or_none(names)
        };
        let contests = |features: &Features| list_or_none(features.entities.contexts.clone());
        let thresholds = |features: &Features| {
            list_or_none(
                features
                    .quantities
                    .iter()
                    .map(|quantity| quantity.describe())
                    .chain(features.labels.iter().map(|label| label.describe()))
                    .collect(),
            )
        };
        let dates = |features: &Features| {
            let mut description = features.timing.describe();
            if let Some(end_date) = features.end_date {
                description.push_str(&format!(" (ends {end_date})"));
            }
            description
        };
        let fields = vec![
            report(Field::Subject, subjects(left), subjects(right), judgement.subject.0),
            report(Field::Contest, contests(left), contests(right), judgement.contest),
            report(Field::Form, describe_form(left), describe_form(right), judgement.form),
            report(
                Field::Threshold,
                thresholds(left),
                thresholds(right),
                judgement.threshold,
            ),
            report(Field::Date, dates(left), dates(right), judgement.date.0),
            report(Field::Side, left.side.describe(), right.side.describe(), judgement.side),
            FieldReport {
                field: Field::Wording,
                left: String::new(),
                right: String::new(),
                agreement: format!("{:.0}% of the weighted words shared", judgement.wording * 100.0),
            },
        ];
        Comparison {
            judgement,
            serving_threshold,
            fields,
        }
    }

    pub fn is_match(&self) -> bool {
        self.judgement.refused_by.is_none() && self.judgement.similarity >= self.serving_threshold
    }

    /// One line saying what agrees and what could not be checked, for a trader to verify a
    /// match before acting on it: "same subject (bitcoin), threshold (≥ $150000), date (before
    /// 2026-01-01); contest on one side only".
    pub fn reason(&self) -> String {
        let mut agreeing = Vec::new();
        let mut caveats = Vec::new();
        for report in &self.fields {
            let label = report.field.label();
            match (report.field, report.agreement.as_str()) {
                (Field::Wording | Field::Side, _) => {}
                (_, "agree") => agreeing.push(format!("{label} ({})", report.left)),
                (_, "partly agree") => caveats.push(format!("{label} partly ({} / {})", report.left, report.right)),
                (_, "unconfirmed") => caveats.push(format!("{label} stated on one side only")),
                (_, "CONFLICT") => caveats.push(format!("{label} differs")),
                _ => {}
            }
        }
        if self.judgement.one_step_apart {
            caveats.push(
                "thresholds one published step apart: the same for a figure reported at that precision".to_owned(),
            );
        }
        if self.judgement.orientation == super::Orientation::Flipped {
            caveats.push("outcomes swapped: Yes on one is the second outcome of the other".to_owned());
        }
        let mut line = if agreeing.is_empty() {
            "no field confirmed".to_owned()
        } else {
            format!("same {}", agreeing.join(", "))
        };
        if !caveats.is_empty() {
            line.push_str("; ");
            line.push_str(&caveats.join("; "));
        }
        line
    }
}

fn report(field: Field, left: String, right: String, agreement: Agreement) -> FieldReport {
    FieldReport {
        field,
        left,
        right,
        agreement: agreement.label().to_owned(),
    }
}

fn list_or_none(items: Vec<String>) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items.join(", ")
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        for report in &self.fields {
            if report.field == Field::Wording {
                writeln!(formatter, "{:<10} {}", report.field.label(), report.agreement)?;
            } else {
                writeln!(formatter, "{:<10} {}", report.field.label(), report.agreement)?;
                writeln!(formatter, "{:<10}   A: {}", "", report.left)?;
                writeln!(formatter, "{:<10}   B: {}", "", report.right)?;
            }
        }
        let judgement = &self.judgement;
        let verdict = match judgement.refused_by {
            Some(field) => format!("REFUSED: the {} differs", field.label()),
            None if judgement.similarity >= self.serving_threshold => format!(
                "MATCH (at or above the serving threshold {:.3}; outcomes {})",
                self.serving_threshold,
                judgement.orientation.describe()
            ),
            None => format!("NO MATCH: below the serving threshold {:.3}", self.serving_threshold),
        };
        writeln!(
            formatter,
            "similarity {:.3} = 0.4 × subject {:.2} + 0.3 × date {:.2} + 0.3 × wording {:.2}{}",
            judgement.similarity,
            judgement.subject.1,
            judgement.date.1,
            judgement.wording,
            if judgement.refused_by.is_some() { ", halved" } else { "" }
        )?;
        write!(formatter, "{verdict}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::SERVING_THRESHOLD;
    use chrono::NaiveDate;

    fn features(question: &str, end: (i32, u32, u32)) -> Features {
        Features::of(
            question,
            &["Yes".to_owned(), "No".to_owned()],
            None,
            NaiveDate::from_ymd_opt(end.0, end.1, end.2),
        )
    }

    #[test]
    fn the_same_question_in_each_exchanges_words_agrees_on_every_field() {
        let polymarket = features("Will the Oklahoma City Thunder win the 2026 NBA Finals?", (2026, 7, 1));
        let kalshi = features(
            "Will the Oklahoma City win the 2026 Pro Basketball Finals?",
            (2026, 5, 31),
        );
        let judgement = judge(&polymarket, &kalshi);
        assert_eq!(judgement.refused_by, None, "{judgement:?}");
        assert_eq!(judgement.subject.0, Agreement::Agree);
        assert_eq!(judgement.contest, Agreement::Agree);
        assert_eq!(judgement.date.0, Agreement::Agree);
        assert!(judgement.similarity > 0.8, "{judgement:?}");
        assert_eq!(judge(&kalshi, &polymarket), judgement);
    }

    #[test]
    fn alternatives_are_not_one_of_them() {
        let one = features("Will Donald Trump visit Vermont in 2026?", (2026, 12, 31));
        let any = features(
            "Will Donald Trump visit Connecticut, Maine, Massachusetts, New Hampshire, Rhode Island, or Vermont before Jan 1, 2027?",
            (2026, 12, 31),
        );
        assert!(any.entities.alternatives && !one.entities.alternatives);
        let judgement = judge(&one, &any);
        assert_eq!(judgement.refused_by, Some(Field::Subject), "{judgement:?}");
        assert_eq!(judge(&any, &one).refused_by, Some(Field::Subject));
        // The same alternatives on both sides are one question.
        let again = features(
            "Will Trump visit Connecticut, Maine, Massachusetts, New Hampshire, Rhode Island or Vermont in 2026?",
            (2026, 12, 31),
        );
        assert_eq!(judge(&again, &any).subject.0, Agreement::Agree);
        // Months joined by "or" are a period, not names offered as alternatives.
        assert!(
            !features("Will the Fed cut rates in May or June?", (2026, 6, 30))
                .entities
                .alternatives
        );
        // Two names alone may be two spellings of one place or the two a comparison chooses
        // between: only a list is alternatives.
        assert!(
            !features("Will Trump visit Kyiv or Kiev in 2025?", (2025, 12, 31))
                .entities
                .alternatives
        );
        assert!(
            features("Will Trump visit Maine, Vermont or Ohio in 2025?", (2025, 12, 31))
                .entities
                .alternatives
        );
    }

    #[test]
    fn a_games_label_is_not_a_side_of_it() {
        let polymarket = features("Counter-Strike: FaZe vs NIP (BO1)", (2025, 11, 25));
        let mut kalshi = features("StarLadder Major Budapest 2025: FaZe vs. NIP", (2025, 11, 25));
        assert_eq!(judge(&polymarket, &kalshi).subject, (Agreement::Agree, 1.0));
        // The tournament's year does not tell two meetings apart; the ticker's day does.
        kalshi.game = ticker::TickerGame::read("KXCSGOGAME-25NOV30NIPFAZE-NIP");
        assert_eq!(judge(&polymarket, &kalshi).refused_by, Some(Field::Date));
        kalshi.game = ticker::TickerGame::read("KXCSGOGAME-25NOV25FAZENIP-NIP");
        assert_eq!(judge(&polymarket, &kalshi).date.0, Agreement::Agree);
    }

    #[test]
    fn a_party_named_by_its_members_is_the_party() {
        let members = features(
            "Will the Conservatives win between 140-149 seats in the next Canadian Election?",
            (2025, 4, 28),
        );
        let party = features("between 140 to 149 Conservative seats won?", (2025, 4, 28));
        assert_eq!(judge(&members, &party).refused_by, None);
        let other_bucket = features("between 150 to 159 Conservative seats won?", (2025, 4, 28));
        assert_eq!(judge(&members, &other_bucket).refused_by, Some(Field::Threshold));
        // A team's nickname stays the team's.
        let royals = features("Will the Royals win the 2026 World Series?", (2026, 11, 1));
        assert_eq!(royals.entities.subjects[0].key(), "kansas city royals");
    }

    #[test]
    fn a_close_years_after_the_stated_year_is_a_later_contest() {
        let this_one = features(
            "Will the Republicans win the Louisiana Senate race in 2026?",
            (2026, 11, 3),
        );
        let later = features("Will Republicans win the Senate race in Louisiana?", (2029, 11, 7));
        assert_eq!(judge(&this_one, &later).refused_by, Some(Field::Date));
        // Kalshi closes a race's market up to a year after it.
        let a_year_on = features("Will Republicans win the Senate race in Louisiana?", (2027, 11, 3));
        assert_eq!(judge(&this_one, &a_year_on).refused_by, None);
    }

    #[test]
    fn the_senate_is_not_the_house_nor_a_governorship() {
        let senate = features(
            "Will Jared Golden be the Democratic nominee for Senate in Maine?",
            (2026, 6, 9),
        );
        let governor = features(
            "Wil Jared Golden be the Democratic nominee for Governor in Maine?",
            (2026, 6, 9),
        );
        assert_eq!(judge(&senate, &governor).refused_by, Some(Field::Subject));
        let lieutenant = features(
            "Will Jared Golden be the Democratic nominee for Lieutenant Governor in Maine?",
            (2026, 6, 9),
        );
        assert!(!lieutenant.entities.offices.differ(&senate.entities.offices));
    }

    #[test]
    fn the_senate_is_not_the_house() {
        let senate = features("Will Democrats win the Senate in 2026?", (2026, 12, 31));
        let house = features("Will Democrats win the House in 2026?", (2026, 12, 31));
        assert_eq!(judge(&senate, &house).refused_by, Some(Field::Subject));
        let senator = features("Will any U.S. Senator enter Iran by June 30, 2026?", (2026, 6, 30));
        let member = features(
            "Will any U.S. House member visit Iran before Jul 1, 2026?",
            (2026, 6, 30),
        );
        assert_eq!(judge(&senator, &member).refused_by, Some(Field::Subject));
        // A chamber named on one side only, or a title the other leaves out, refuses nothing;
        // nor is the White House a chamber.
        let titled = features("Will Sen. Marco Rubio be the 2028 Republican nominee?", (2028, 8, 31));
        let untitled = features("Will Marco Rubio be the 2028 Republican nominee?", (2028, 8, 31));
        assert_eq!(judge(&titled, &untitled).refused_by, None);
        // Nor does a title before a name say which office is asked about.
        for (asked, titled) in [
            (
                "Will Roy Cooper win the North Carolina Senate race in 2026?",
                "Will former Governor Roy Cooper win the 2026 North Carolina Senate race?",
            ),
            (
                "Will Marjorie Taylor Greene run for Senate in Georgia?",
                "Will Rep. Marjorie Taylor Greene run for Senate in Georgia in 2025?",
            ),
            (
                "Will the Senate confirm Stephen Miran as a Fed governor before Sep 15, 2025?",
                "Will the Senate confirm Stephen Miran to the Fed before Sep 15, 2025?",
            ),
        ] {
            let (asked, titled) = (features(asked, (2026, 11, 3)), features(titled, (2026, 11, 3)));
            assert!(!asked.entities.offices.differ(&titled.entities.offices), "{titled:?}");
        }
        let white_house = features("Will Marco Rubio leave the White House in 2026?", (2026, 12, 31));
        assert!(!white_house.entities.offices.differ(&titled.entities.offices));
    }

    #[test]
    fn a_name_the_other_writes_in_lower_case_is_named_by_both() {
        // Also where the other names nothing in capitals at all.
        let capitals = features("Will there be a 269-269 tie in Electoral College?", (2024, 12, 31));
        let lower = features("Will there be a 269-269 electoral college tie?", (2024, 12, 31));
        assert_eq!(judge(&capitals, &lower).subject, (Agreement::Agree, 1.0));
        assert_eq!(judge(&lower, &capitals).subject, (Agreement::Agree, 1.0));
        let unsaid = features("Will 2 to 2 bills become law in Mar 2026?", (2026, 3, 31));
        let said = features(
            "Will President Trump sign 2 pieces of legislation into law in March?",
            (2026, 3, 31),
        );
        assert_eq!(judge(&unsaid, &said).subject.0, Agreement::Unknown);
        assert_eq!(judge(&said, &unsaid).subject.0, Agreement::Unknown);
        let capitals = features("Will Taylor Swift release a new Album in 2026?", (2026, 12, 31));
        let lower = features("Will Taylor Swift release a new album in 2026?", (2026, 12, 31));
        let judgement = judge(&capitals, &lower);
        assert_eq!(judgement.subject, (Agreement::Agree, 1.0), "{judgement:?}");
        assert_eq!(judge(&lower, &capitals), judgement);
        // Only where the other names nobody else: a service in Austin is not the robotaxi
        // anywhere, and Germany's recession not any.
        let robotaxi = features("Will Tesla launch Robotaxi by June 30, 2025?", (2025, 6, 30));
        let in_austin = features(
            "Will Tesla launch a robotaxi service in Austin by June 30, 2025?",
            (2025, 6, 30),
        );
        assert_eq!(judge(&robotaxi, &in_austin).refused_by, Some(Field::Subject));
        assert_eq!(judge(&in_austin, &robotaxi).refused_by, Some(Field::Subject));
        let recession = features("Recession in 2025?", (2025, 12, 31));
        let germany = features("Will Germany enter a recession in 2025?", (2025, 12, 31));
        assert_eq!(judge(&recession, &germany).refused_by, Some(Field::Subject));
    }

    #[test]
    fn a_date_without_a_year_in_a_market_without_an_end_date_is_compared_by_month_and_day() {
        let undated = |question: &str| Features::of(question, &[], None, None);
        let by_june_30 = undated("Will Marco Rubio enter Iran by June 30?");
        assert_eq!(by_june_30.quantities, [], "the day is no threshold");
        let before_july = features("Will Marco Rubio visit Iran before Jul 1, 2026?", (2026, 7, 1));
        let judgement = judge(&by_june_30, &before_july);
        assert_eq!(
            judgement.date,
            (Agreement::Partial, YEARLESS_DATE_SCORE),
            "{judgement:?}"
        );
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
        assert_eq!(judge(&before_july, &by_june_30), judgement);
        // Another day, a reading on the day, or a period that names no date is another date.
        let before_june = features("Will Marco Rubio visit Iran before Jun 1, 2026?", (2026, 6, 1));
        assert_eq!(judge(&by_june_30, &before_june).refused_by, Some(Field::Date));
        let on_june_30 = undated("Will Marco Rubio be in Iran on June 30?");
        assert_eq!(judge(&on_june_30, &before_july).refused_by, Some(Field::Date));
        let in_his_term = undated("Will Marco Rubio enter Iran during his term?");
        assert_eq!(judge(&by_june_30, &in_his_term).refused_by, Some(Field::Date));
        // Kalshi's "before May" is a month; both without a year, the days must be one.
        let before_may = features("Will Howard Lutnick leave office before May?", (2026, 5, 1));
        let by_march_31 = undated("Howard Lutnick out as Secretary of Commerce by March 31?");
        assert_eq!(judge(&by_march_31, &before_may).refused_by, Some(Field::Date));
        let before_april = undated("Howard Lutnick out as Secretary of Commerce before April?");
        assert_eq!(judge(&by_march_31, &before_april).date.0, Agreement::Partial);
        // Another hour, or another leg of a tie, is another date, as with the year written.
        let at_noon = undated("Will the price of Bitcoin be above $100,000 on June 30 at 12pm ET?");
        let at_five = features(
            "Will the price of Bitcoin be above $100,000 on Jun 30, 2026 at 5pm EDT?",
            (2026, 6, 30),
        );
        assert_eq!(judge(&at_noon, &at_five).refused_by, Some(Field::Date));
        let mut first_leg = features("Barcelona vs Atletico Winner? — Barcelona", (2026, 4, 22));
        first_leg.game = ticker::TickerGame::read("KXUCLGAME-26APR08BARATM-BAR");
        let second_leg = undated("Will FC Barcelona win on April 14?");
        assert_eq!(judge(&second_leg, &first_leg).refused_by, Some(Field::Date));
        assert_eq!(
            judge(&undated("Will FC Barcelona win on April 8?"), &first_leg).refused_by,
            None
        );
        // With only an end date on the other side, a day near it is partly confirmed.
        let open_ended = features("Will Marco Rubio visit Iran?", (2026, 6, 30));
        assert_eq!(judge(&by_june_30, &open_ended).date.0, Agreement::Partial);
    }

    #[test]
    fn another_team_contest_threshold_or_deadline_refuses() {
        let kalshi = features(
            "Will the Los Angeles L win the 2026 Pro Basketball Finals?",
            (2026, 5, 12),
        );
        let clippers = features("Will the Los Angeles Clippers win the 2026 NBA Finals?", (2026, 7, 1));
        assert_eq!(judge(&kalshi, &clippers).refused_by, Some(Field::Subject));
        let chargers = features(
            "Will the Los Angeles C win the 2026 Pro Football Championship?",
            (2026, 1, 12),
        );
        // Kalshi's "Los Angeles C" in a football contest is the Chargers.
        assert_eq!(judge(&chargers, &clippers).refused_by, Some(Field::Subject));
        let btc = features("When will Bitcoin hit $150k? — Before January 2026", (2025, 12, 31));
        let lower = features("Will Bitcoin reach $130,000 by December 31, 2025?", (2025, 12, 31));
        assert_eq!(judge(&btc, &lower).refused_by, Some(Field::Threshold));
        let earlier = features("When will Bitcoin hit $150k? — Before December 2025", (2025, 11, 30));
        let same = features("Will Bitcoin reach $150,000 by December 31, 2025?", (2025, 12, 31));
        assert_eq!(judge(&earlier, &same).refused_by, Some(Field::Date));
        assert_eq!(judge(&btc, &same).refused_by, None);
    }

    fn market(question: &str, outcomes: &[&str], end: (i32, u32, u32)) -> Features {
        Features::of(
            question,
            &outcomes.iter().map(|outcome| (*outcome).to_owned()).collect::<Vec<_>>(),
            None,
            NaiveDate::from_ymd_opt(end.0, end.1, end.2),
        )
    }

    /// Game markets in each exchange's phrasing: Polymarket by nickname with the teams as
    /// outcomes, Kalshi by location with the choice after a dash. Written for this test in
    /// the formats of the exchanges' game series (no recording of ours holds both sides of
    /// one game).
    #[test]
    fn a_game_matches_by_location_and_nickname_and_only_its_like() {
        let moneyline = market("Chiefs vs. Jaguars", &["Chiefs", "Jaguars"], (2026, 10, 11));
        let kansas_city = features("Kansas City at Jacksonville Winner? — Kansas City", (2026, 10, 11));
        let jacksonville = features("Kansas City at Jacksonville Winner? — Jacksonville", (2026, 10, 11));
        let judgement = judge(&moneyline, &kansas_city);
        assert_eq!(judgement.refused_by, None, "{judgement:?}");
        assert_eq!(judgement.orientation, Orientation::Same);
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
        let judgement = judge(&moneyline, &jacksonville);
        assert_eq!(judgement.orientation, Orientation::Flipped);
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
        // Another game of the same two teams, later in the season.
        let rematch = features("Kansas City at Jacksonville Winner? — Kansas City", (2026, 12, 20));
        assert_eq!(judge(&moneyline, &rematch).refused_by, Some(Field::Date));
        // Another team of the same city.
        let royals = market("Royals vs. Yankees", &["Royals", "Yankees"], (2026, 10, 11));
        assert!(judge(&royals, &kansas_city).refused_by.is_some());
        // A spread or a total is not the winner.
        let spread = market("Spread: Chiefs (-3.5)", &["Chiefs", "Jaguars"], (2026, 10, 11));
        assert_eq!(judge(&spread, &kansas_city).refused_by, Some(Field::Threshold));
        let total = features(
            "Kansas City at Jacksonville: Total Points — Over 45.5 points scored",
            (2026, 10, 11),
        );
        assert!(judge(&moneyline, &total).refused_by.is_some());
        let first_half = market(
            "Chiefs vs. Jaguars: 1st Half Winner",
            &["Chiefs", "Jaguars"],
            (2026, 10, 11),
        );
        assert_eq!(judge(&first_half, &kansas_city).refused_by, Some(Field::Form));
    }

    #[test]
    fn the_reason_says_what_agrees_and_what_is_unchecked() {
        let polymarket = features("Will the January 2026 unemployment rate be ≥4.7%?", (2026, 2, 6));
        let kalshi = features(
            "Will the unemployment rate (U-3) be above 4.6% in January 2026?",
            (2026, 2, 6),
        );
        let comparison = Comparison::new(&polymarket, &kalshi, SERVING_THRESHOLD);
        let reason = comparison.reason();
        assert!(reason.starts_with("same subject (unemployment rate)"), "{reason}");
        assert!(reason.contains("one published step apart"), "{reason}");
        let game = Comparison::new(
            &market("Chiefs vs. Jaguars", &["Chiefs", "Jaguars"], (2026, 10, 11)),
            &features("Kansas City at Jacksonville Winner? — Jacksonville", (2026, 10, 11)),
            SERVING_THRESHOLD,
        );
        assert!(game.reason().contains("outcomes swapped"), "{}", game.reason());
    }

    #[test]
    fn a_named_outcome_market_tells_which_outcome_is_yes() {
        // Polymarket 42120 has named outcomes. No recording holds a Yes/No market on that
        // game, so the second question is written for this test, in Polymarket's phrasing.
        let polymarket = Features::of(
            "Will the Browns or the Chiefs win their Jan 17th matchup?",
            &["Browns".to_owned(), "Chiefs".to_owned()],
            None,
            NaiveDate::from_ymd_opt(2021, 1, 18),
        );
        let yes_no = features("Will the Chiefs win their Jan 17th matchup?", (2021, 1, 18));
        let judgement = judge(&polymarket, &yes_no);
        assert_eq!(judgement.orientation, Orientation::Flipped);
        assert_eq!(judge(&yes_no, &polymarket).orientation, Orientation::Flipped);
    }

    #[test]
    fn a_different_main_event_refuses() {
        let win = features("Will Curtis Sliwa win the 2025 NYC mayoral election?", (2025, 11, 4));
        let drop_out = features("Will Curtis Sliwa drop out of the NYC Mayoral race?", (2025, 11, 4));
        assert_eq!(judge(&win, &drop_out).refused_by, Some(Field::Form));
        let acquire = features("Will Trump acquire Greenland in 2025?", (2025, 12, 31));
        let visit = features("Will Donald Trump visit Greenland in 2025?", (2025, 12, 31));
        assert_eq!(judge(&acquire, &visit).refused_by, Some(Field::Form));
        let reason = Comparison::new(&acquire, &visit, SERVING_THRESHOLD).to_string();
        assert!(
            reason.contains("action: acquire") && reason.contains("action: visit"),
            "{reason}"
        );
    }

    #[test]
    fn kalshis_choice_must_be_named_by_the_other_market() {
        let city = features("Will Zohran Mamdani win the 2025 NYC mayoral election?", (2025, 11, 4));
        let borough = features(
            "Which boroughs will Zohran Mamdani win in NYC Mayoral Race? — Queens",
            (2025, 11, 4),
        );
        assert_eq!(judge(&city, &borough).refused_by, Some(Field::Subject));
        assert_eq!(judge(&borough, &city).refused_by, Some(Field::Subject));
        let queens = features("Will Zohran Mamdani win Queens in the NYC mayoral race?", (2025, 11, 4));
        assert_ne!(judge(&queens, &borough).refused_by, Some(Field::Subject));
    }

    #[test]
    fn one_countrys_election_in_either_words_agrees() {
        let polymarket = features(
            "Will Samuel Doria Medina win the 2025 Bolivia presidential election?",
            (2025, 8, 17),
        );
        let kalshi = features(
            "Who will win the Bolivian presidential election? — Samuel Doria Medina",
            (2025, 8, 18),
        );
        let judgement = judge(&polymarket, &kalshi);
        assert_eq!(judgement.refused_by, None, "{judgement:?}");
        assert_eq!(judgement.subject.0, Agreement::Agree);
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
    }

    #[test]
    fn a_contest_decided_inside_the_stated_year_agrees_on_the_date() {
        let polymarket = features(
            "Will Barry Andrews win the Irish Presidential Election?",
            (2025, 11, 11),
        );
        let kalshi = features(
            "Who will be elected President of Ireland in 2025? — Barry Andrews",
            (2025, 11, 12),
        );
        let judgement = judge(&polymarket, &kalshi);
        assert_eq!(judgement.date.0, Agreement::Partial, "{judgement:?}");
        assert_eq!(judgement.refused_by, None, "{judgement:?}");
        // Without a contest, a market closing before the year ends leaves the rest of the year
        // out: still another window.
        let open = features("Will Bitcoin reach $150,000?", (2025, 6, 30));
        let year = features("Will Bitcoin reach $150,000 in 2025?", (2025, 12, 31));
        assert_eq!(judge(&open, &year).date.0, Agreement::Conflict);
    }

    #[test]
    fn a_market_on_a_race_closing_inside_the_stated_year_agrees_on_the_date() {
        let polymarket = features("Will Cuomo endorse Eric Adams?", (2025, 11, 4));
        let kalshi = features(
            "Will Andrew Cuomo endorse Eric Adams in 2025 NYC Mayoral Race?",
            (2025, 11, 4),
        );
        let judgement = judge(&polymarket, &kalshi);
        assert_eq!(judgement.date.0, Agreement::Partial, "{judgement:?}");
        assert_eq!(judgement.refused_by, None, "{judgement:?}");
    }

    #[test]
    fn a_players_market_is_about_the_match_its_event_names() {
        let polymarket = |question: &str, outcomes: &[&str]| market(question, outcomes, (2026, 8, 19));
        let kalshi = Features::of(
            "Thiago Agustin Tirante wins",
            &["Yes".to_owned(), "No".to_owned()],
            Some("Cincinnati Open: Thiago Agustin Tirante vs Arthur Fils"),
            NaiveDate::from_ymd_opt(2026, 9, 3),
        );
        let other_match = polymarket(
            "Cincinnati Open: Thiago Agustin Tirante vs Jakub Mensik",
            &["Thiago Agustin Tirante", "Jakub Mensik"],
        );
        assert_eq!(judge(&other_match, &kalshi).refused_by, Some(Field::Subject));
        let this_match = polymarket(
            "Cincinnati Open: Thiago Agustin Tirante vs Arthur Fils",
            &["Thiago Agustin Tirante", "Arthur Fils"],
        );
        assert_eq!(judge(&this_match, &kalshi).refused_by, None);
    }

    #[test]
    fn another_figure_refuses_even_beside_the_same_word() {
        let headline = features("Will annual inflation increase by ≥3.2% in January?", (2026, 2, 11));
        let core = features(
            "Will the rate of core CPI inflation be above 3.1% for the year ending in January 2026?",
            (2026, 2, 13),
        );
        assert_eq!(judge(&headline, &core).refused_by, Some(Field::Subject));
        let also_headline = features(
            "Will the rate of CPI inflation be above 3.1% for the year ending in January 2026?",
            (2026, 2, 13),
        );
        assert_ne!(judge(&headline, &also_headline).refused_by, Some(Field::Subject));
    }

    #[test]
    fn the_united_states_left_unsaid_is_no_subject_of_its_own() {
        let end = (2025, 12, 31);
        let shutdown = features("Government shutdown in 2025?", end);
        let us_shutdown = features("US government shutdown in 2025?", end);
        let judgement = judge(&shutdown, &us_shutdown);
        assert_eq!(judgement.refused_by, None);
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
        let ban = features("US congress stock trading ban in 2025?", end);
        let congressional = features("Will Congress pass a Congressional stock trading ban in 2025?", end);
        assert_eq!(judge(&ban, &congressional).refused_by, None);
        // Another country, or a person, named on the other side is still a difference.
        let uk = features("Will the UK government collapse in 2025?", end);
        assert_eq!(judge(&uk, &us_shutdown).refused_by, Some(Field::Subject));
        let court = features("Will the Supreme Court block Trump's tariffs in 2025?", end);
        let congress = features("Will Congress block Trump's tariffs in 2025?", end);
        assert_eq!(judge(&court, &congress).refused_by, Some(Field::Subject));
        let uk_court = features("Will the UK Supreme Court rule on Rwanda in 2025?", end);
        let court_rules = features("Will the Supreme Court rule on Rwanda in 2025?", end);
        assert_eq!(judge(&uk_court, &court_rules).refused_by, Some(Field::Subject));
        let aliens = features("Will the US confirm that aliens exist in 2025?", end);
        let nuclear = features("Will a nuclear weapon be detonated in 2025?", end);
        assert_ne!(judge(&aliens, &nuclear).subject.0, Agreement::Agree);
        let israel = features("Will Israel strike Iran by March 31?", (2026, 3, 31));
        let us = features("Will the US strike Iran by March 31?", (2026, 3, 31));
        assert_eq!(judge(&israel, &us).refused_by, Some(Field::Subject));
    }

    #[test]
    fn zero_times_is_not_at_all() {
        let end = (2025, 12, 31);
        let none = features("Will no Fed rate cuts happen in 2025?", end);
        let zero = features("Will the Fed cut rates 0 times in 2025?", end);
        let comparison = judge(&none, &zero);
        assert_eq!(comparison.refused_by, None);
        assert!(comparison.similarity >= SERVING_THRESHOLD);
        let some = features("Will the Fed cut rates in 2025?", end);
        assert_eq!(judge(&some, &zero).refused_by, Some(Field::Side));
        let one = features("Will the Fed cut rates 1 time in 2025?", end);
        assert_eq!(judge(&one, &zero).refused_by, Some(Field::Threshold));
    }

    #[test]
    fn a_choice_of_a_value_is_no_name_and_an_offices_adjective_is_the_office() {
        let polymarket = features("Will unemployment be 4.3% to 4.4% in May?", (2026, 6, 5));
        let kalshi = features("Unemployment rate in May 2026? — Between 4.3% and 4.4%", (2026, 6, 5));
        let judgement = judge(&polymarket, &kalshi);
        assert_eq!(judgement.refused_by, None);
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
        let band = features("Will the highest temperature in NYC be 72-73° on June 1?", (2026, 6, 1));
        let tail = features("Highest temperature in NYC on June 1, 2026? — Above 72°", (2026, 6, 1));
        assert_eq!(judge(&band, &tail).refused_by, Some(Field::Threshold));
        let mayoral = features("Will Zohran Mamdani win the 2025 NYC mayoral election?", (2025, 11, 4));
        let mayor = features("NYC Mayor election winner? — Zohran Mamdani", (2025, 11, 4));
        let judgement = judge(&mayoral, &mayor);
        assert_eq!(judgement.contest, Agreement::Agree);
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
    }

    #[test]
    fn a_choice_of_a_deadline_names_nobody_and_a_partys_candidate_need_not_be_named() {
        let by_september = features("Will Xi Jinping visit US by September 30?", (2026, 10, 1));
        let before_october = features(
            "Will Xi Jinping visit the United States of America before Oct 1, 2026? — Before Oct 1, 2026",
            (2026, 10, 1),
        );
        let judgement = judge(&by_september, &before_october);
        assert_eq!(judgement.refused_by, None, "{judgement:?}");
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
        let party = features("Will the Republicans win the Iowa Senate race in 2026?", (2026, 11, 3));
        let with_candidate = features(
            "Will Republicans win the Senate race in Iowa? — Ashley Hinson",
            (2026, 11, 3),
        );
        let judgement = judge(&party, &with_candidate);
        assert_eq!(judgement.refused_by, None, "{judgement:?}");
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
        let other_party = features("Will the Democrats win the Iowa Senate race in 2026?", (2026, 11, 3));
        assert_eq!(judge(&other_party, &with_candidate).refused_by, Some(Field::Subject));
        let anyone_else = features("Will another candidate win the Iowa Senate race?", (2026, 11, 3));
        assert_eq!(judge(&anyone_else, &with_candidate).refused_by, Some(Field::Subject));
        // A nominee's race names the party too, but the person is who resolves Yes.
        let nominee = features(
            "Will Ken Paxton be the Republican nominee for Senate in Texas?",
            (2026, 3, 3),
        );
        let other_nominee = features(
            "Who will be the Republican nominee for Senate in Texas? — John Cornyn",
            (2026, 3, 3),
        );
        assert_eq!(judge(&nominee, &other_nominee).refused_by, Some(Field::Subject));
        // A person's choice under a title that names no party is still who resolves Yes.
        let person = features("Who will win the Senate race in Iowa? — Ashley Hinson", (2026, 11, 3));
        assert_eq!(judge(&party, &person).refused_by, Some(Field::Subject));
    }

    #[test]
    fn an_awards_nominations_are_not_its_win() {
        let win = features(
            "Will The Invite win Best Picture at the 99th Academy Awards?",
            (2027, 3, 14),
        );
        let nominated = features("2027 Best Picture Oscar nominations? — The Invite", (2027, 1, 21));
        assert_eq!(judge(&win, &nominated).refused_by, Some(Field::Form));
    }

    #[test]
    fn a_cut_at_an_emergency_meeting_is_not_any_cut() {
        let emergency = features("Fed emergency rate cut before 2027?", (2026, 12, 31));
        let any = features("Will the Federal Reserve cut rates before 2027?", (2026, 12, 31));
        assert_eq!(judge(&emergency, &any).refused_by, Some(Field::Form));
        let at_emergency_meetings = features("Will the Fed cut rates 1 times at emergency meetings?", (2026, 12, 31));
        assert_ne!(judge(&emergency, &at_emergency_meetings).refused_by, Some(Field::Form));
        let worded_otherwise = features("Emergency Fed rate cut in 2026?", (2026, 12, 31));
        assert_ne!(judge(&emergency, &worded_otherwise).refused_by, Some(Field::Form));
        let declared = features(
            "Will Trump declare a national emergency in his first 100 days?",
            (2025, 4, 30),
        );
        assert!(declared.form.stages.is_empty());
    }

    #[test]
    fn a_regular_season_title_is_not_the_conference_tournament() {
        let regular = features("Will Duke win the ACC regular season?", (2026, 3, 8));
        let tournament = features("Will Duke win the ACC Tournament?", (2026, 3, 15));
        assert_eq!(judge(&regular, &tournament).refused_by, Some(Field::Form));
    }

    #[test]
    fn a_contest_on_one_side_and_an_unmatched_name_on_the_other_confirm_nothing() {
        // A contest the gazetteer does not know ("the Grapefruit League") against one it does.
        let spring = features(
            "Will the New York Yankees win the 2025 Grapefruit League Championship?",
            (2025, 3, 20),
        );
        let world_series = features("Will the New York Y win the Pro Baseball Championship?", (2025, 3, 27));
        let judgement = judge(&spring, &world_series);
        assert_eq!(judgement.contest, Agreement::Unknown, "{judgement:?}");
        assert_eq!(judgement.subject.0, Agreement::Partial, "{judgement:?}");
        assert_eq!(judgement.subject.1, 0.0, "{judgement:?}");
        assert!(judgement.similarity < SERVING_THRESHOLD, "{judgement:?}");
        // The same team in the same contest named on both sides is served.
        let also_world_series = features("Will the New York Yankees win the 2025 World Series?", (2025, 10, 31));
        assert!(judge(&also_world_series, &world_series).similarity >= SERVING_THRESHOLD);
        // When it is the side naming the contest (an office) that names more ("Israel"), the
        // other's names all have counterparts: the subject counts, unconfirmed.
        let out = features("Netanyahu out by end of 2026?", (2026, 12, 31));
        let leave = features(
            "Will Benjamin Netanyahu leave Prime Minister of Israel before Jan 1, 2027?",
            (2027, 1, 2),
        );
        let judgement = judge(&out, &leave);
        assert_eq!(
            (judgement.contest, judgement.subject.0),
            (Agreement::Unknown, Agreement::Partial),
            "{judgement:?}"
        );
        assert!(judgement.subject.1 > 0.0, "{judgement:?}");
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
    }

    #[test]
    fn a_quarter_is_not_its_year() {
        let year = features("SpaceX IPO: Officially added to S&P 500 in 2026?", (2027, 1, 1));
        let quarter = features("Will SpaceX be added to the S&P 500 in Q4 2026?", (2027, 1, 1));
        assert_eq!(judge(&year, &quarter).refused_by, Some(Field::Date));
        let same_quarter = features("Will SpaceX join the S&P 500 in Q4 2026?", (2026, 12, 31));
        assert_eq!(judge(&same_quarter, &quarter).refused_by, None);
        for (left, right) in [
            (
                "Will SpaceX IPO in December of 2026?",
                "Will SpaceX IPO in December 2026?",
            ),
            ("Will SpaceX IPO in Q4 of 2026?", "Will SpaceX IPO in Q4 2026?"),
        ] {
            let (left, right) = (features(left, (2026, 12, 31)), features(right, (2026, 12, 31)));
            assert_eq!(
                (left.timing.period, judge(&left, &right).refused_by),
                (right.timing.period, None)
            );
        }
    }

    #[test]
    fn an_end_date_beyond_the_stated_deadline_confirms_no_date() {
        let polymarket = features("Will Trump acquire Greenland before July?", (2025, 6, 30));
        let kalshi = features("Will Trump buy at least part of Greenland?", (2029, 1, 20));
        let judgement = judge(&polymarket, &kalshi);
        assert_eq!(judgement.refused_by, Some(Field::Date), "{judgement:?}");
        // With one contest named on both, the contest fixes the event: Kalshi closes its
        // season markets late.
        let polymarket = features("Will the Chiefs win Super Bowl 2026?", (2026, 2, 8));
        let kalshi = features("Will the Kansas City win the Pro Football Championship?", (2027, 2, 8));
        assert_eq!(judge(&polymarket, &kalshi).date.0, Agreement::Unknown);
        assert!(judge(&polymarket, &kalshi).date.1 > 0.0);
    }

    #[test]
    fn the_days_high_is_not_its_low_nor_a_band_a_tail() {
        let high = features(
            "Will the highest temperature in NYC be 72°F or higher on November 27?",
            (2026, 11, 27),
        );
        let kalshi = features(
            "Highest temperature in NYC on Nov 27, 2026? — 72° or above",
            (2026, 11, 28),
        );
        assert_eq!(judge(&high, &kalshi).refused_by, None);
        let low = features(
            "Will the lowest temperature in NYC be 72°F or higher on November 27?",
            (2026, 11, 27),
        );
        assert_eq!(judge(&low, &kalshi).refused_by, Some(Field::Form));
        let band = features(
            "Will the highest temperature in NYC be between 72-73°F on November 27?",
            (2026, 11, 27),
        );
        assert_eq!(judge(&band, &kalshi).refused_by, Some(Field::Threshold));
    }

    #[test]
    fn the_next_mayor_is_who_wins_the_mayoral_election() {
        let polymarket = features("Will Gabriela Firea be the next Mayor of Bucharest?", (2025, 12, 31));
        let kalshi = features(
            "Who will win the Bucharest mayoral election? — Gabriela Firea",
            (2025, 12, 31),
        );
        assert_eq!(judge(&polymarket, &kalshi).refused_by, None);
    }

    fn kalshi_game(question: &str, ticker: &str, end: (i32, u32, u32)) -> Features {
        let mut kalshi = features(question, end);
        kalshi.game = ticker::TickerGame::read(ticker);
        kalshi
    }

    #[test]
    fn a_regulation_time_choice_is_no_result_extra_time_may_decide() {
        let regulation = kalshi_game(
            "Paris Saint-Germain vs Inter Milan Winner? \u{2014} Reg Time: Paris Saint-Germain",
            "KXUCLGAME-26MAY30PSGINT-PSG",
            (2026, 6, 13),
        );
        let two_way = on_day(
            "Paris Saint-Germain vs. Inter Milan",
            &["Paris Saint-Germain", "Inter Milan"],
            (2026, 5, 30),
        );
        assert_eq!(judge(&two_way, &regulation).refused_by, Some(Field::Form));
        let on_the_day = features("Will Paris Saint-Germain win on 2026-05-30?", (2026, 5, 30));
        assert!(judge(&on_the_day, &regulation).similarity >= SERVING_THRESHOLD);
    }

    #[test]
    fn a_tickers_opponent_confirms_the_second_side_of_a_game_named_without_outcomes() {
        let mut game = features("Rockets vs. Mavericks", (2026, 10, 9));
        game.named_outcomes = None;
        let houston = kalshi_game("Houston wins", "KXNBAGAME-26OCT09HOUDAL-HOU", (2026, 10, 9));
        assert_eq!(judge(&game, &houston).subject.0, Agreement::Agree);
        assert!(judge(&game, &houston).similarity >= SERVING_THRESHOLD);
        // Backing the second-named side, or another game's opponent, is not confirmed.
        let dallas = kalshi_game("Dallas wins", "KXNBAGAME-26OCT09HOUDAL-DAL", (2026, 10, 9));
        assert_ne!(judge(&game, &dallas).subject.0, Agreement::Agree);
        let another = kalshi_game("Houston wins", "KXNBAGAME-26OCT09HOUOKC-HOU", (2026, 10, 9));
        assert_ne!(judge(&game, &another).subject.0, Agreement::Agree);
    }

    fn on_day(question: &str, outcomes: &[&str], day: (i32, u32, u32)) -> Features {
        let outcomes: Vec<String> = outcomes.iter().map(|outcome| (*outcome).to_owned()).collect();
        Features::of(question, &outcomes, None, NaiveDate::from_ymd_opt(day.0, day.1, day.2))
    }

    #[test]
    fn initials_of_a_department_or_country_name_it_and_an_office_names_its_race() {
        let polymarket = features(
            "Markwayne Mullin confirmed as DHS Secretary by March 31, 2026?",
            (2026, 3, 31),
        );
        let kalshi = features(
            "Will Markwayne Mullin be confirmed as Secretary of Homeland Security before Apr 1, 2026?",
            (2026, 4, 1),
        );
        assert_eq!(judge(&polymarket, &kalshi).subject.0, Agreement::Agree);
        let drc = features(
            "Tshisekedi out as President of the DRC by December 31, 2026?",
            (2026, 12, 31),
        );
        let congo = features(
            "Will Félix Tshisekedi leave President of the Democratic Republic of the Congo before Jan 1, 2027?",
            (2027, 1, 1),
        );
        assert_eq!(judge(&drc, &congo).refused_by, None);
        let presidential = features("Will a Republican win New Jersey Presidential Election?", (2024, 11, 5));
        let governorship = features(
            "Will the Republican party win the governorship in New Jersey",
            (2024, 11, 5),
        );
        assert_eq!(judge(&presidential, &governorship).refused_by, Some(Field::Contest));
    }

    #[test]
    fn a_day_named_against_a_tickers_game_day_tells_the_legs_of_a_tie_apart() {
        let first_leg = |question: &str, ticker: &str| kalshi_game(question, ticker, (2026, 4, 22));
        let barcelona = first_leg(
            "Barcelona vs Atletico Winner? — Barcelona",
            "KXUCLGAME-26APR08BARATM-BAR",
        );
        let on = |day: u32| features(&format!("Will FC Barcelona win on 2026-04-{day:02}?"), (2026, 4, day));
        let judgement = judge(&on(8), &barcelona);
        assert_eq!(judgement.date, (Agreement::Agree, 1.0), "{judgement:?}");
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
        assert_eq!(judge(&on(14), &barcelona).refused_by, Some(Field::Date));
        // A draw backs neither side; the game's day still tells which meeting.
        let tie = first_leg("Barcelona vs Atletico Winner? — Tie", "KXUCLGAME-26APR08BARATM-TIE");
        let draw = |day: u32| {
            features(
                "Will FC Barcelona vs. Club Atlético de Madrid end in a draw?",
                (2026, 4, day),
            )
        };
        assert_eq!(judge(&draw(8), &tie).refused_by, None);
        assert_eq!(judge(&draw(14), &tie).refused_by, Some(Field::Date));
    }

    #[test]
    fn a_games_spread_and_total_match_their_like_only() {
        // Polymarket's spread and total (Gamma's formats) against Kalshi's, whose close is two
        // weeks after the game and whose ticker names the game's day.
        let spread = on_day("Spread: Rockets (-8.5)", &["Rockets", "Mavericks"], (2026, 1, 5));
        let total = on_day("Rockets vs. Mavericks: O/U 229.5", &["Over", "Under"], (2026, 1, 5));
        let margin = |question: &str| kalshi_game(question, "KXNBASPREAD-26JAN05HOUDAL-HOU8", (2026, 1, 19));
        let over = |question: &str, ticker: &str| kalshi_game(question, ticker, (2026, 1, 19));
        let houston = margin("Houston wins by over 8.5 points?");
        let judgement = judge(&spread, &houston);
        assert_eq!(judgement.refused_by, None, "{judgement:?}");
        assert_eq!(judgement.date.0, Agreement::Agree);
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
        let same_total = over(
            "Houston at Dallas: Total Points — Over 229.5 points scored",
            "KXNBATOTAL-26JAN05HOUDAL-229",
        );
        assert_eq!(judge(&total, &same_total).refused_by, None);
        // Kalshi's newer titles name no team: the ticker's codes say which game.
        let unnamed = |ticker: &str| over("Full Game: over 229.5 points scored?", ticker);
        let judgement = judge(&total, &unnamed("KXNBATOTAL-26JAN05HOUDAL-229"));
        assert_eq!(judgement.subject, (Agreement::Agree, 1.0), "{judgement:?}");
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
        let elsewhere = judge(&total, &unnamed("KXNBATOTAL-26JAN05HOULAL-229"));
        assert!(elsewhere.similarity < SERVING_THRESHOLD, "{elsewhere:?}");
        // The other side's margin, another line, a total against a margin, another meeting, a
        // half against the whole game.
        assert_eq!(
            judge(&spread, &margin("Dallas wins by over 8.5 points?")).refused_by,
            Some(Field::Threshold)
        );
        assert_eq!(
            judge(&spread, &margin("Houston wins by over 6.5 points?")).refused_by,
            Some(Field::Threshold)
        );
        let underdog = on_day("Spread: Mavericks (+8.5)", &["Mavericks", "Rockets"], (2026, 1, 5));
        assert_eq!(judge(&underdog, &houston).refused_by, Some(Field::Threshold));
        assert_eq!(
            judge(&total, &margin("Houston wins by over 229.5 points?")).refused_by,
            Some(Field::Threshold)
        );
        let next_meeting = over(
            "Houston at Dallas: Total Points — Over 229.5 points scored",
            "KXNBATOTAL-26JAN08HOUDAL-229",
        );
        assert_eq!(judge(&total, &next_meeting).refused_by, Some(Field::Date));
        let half = on_day("Rockets vs. Mavericks: 1H O/U 229.5", &["Over", "Under"], (2026, 1, 5));
        assert_eq!(judge(&half, &same_total).refused_by, Some(Field::Form));
        // The next game of a series, a day later: told apart by the end's American day where
        // the time is known, a day's leeway where only the day is.
        let series = |american: Option<(i32, u32, u32)>| {
            let mut polymarket = on_day(
                "New York Yankees vs. Boston Red Sox",
                &["Yankees", "Red Sox"],
                (2026, 5, 2),
            );
            polymarket.end_day_american =
                american.and_then(|(year, month, day)| NaiveDate::from_ymd_opt(year, month, day));
            polymarket
        };
        let yankees = kalshi_game(
            "New York Y at Boston Winner? — New York Y",
            "KXMLBGAME-26MAY01NYYBOS-NYY",
            (2026, 5, 15),
        );
        assert_eq!(judge(&series(Some((2026, 5, 1))), &yankees).date.0, Agreement::Agree);
        assert_eq!(
            judge(&series(Some((2026, 5, 2))), &yankees).refused_by,
            Some(Field::Date)
        );
        assert_eq!(judge(&series(None), &yankees).date.0, Agreement::Agree);
        // The day before is the previous game of the series.
        assert_eq!(
            judge(&series(Some((2026, 4, 30))), &yankees).refused_by,
            Some(Field::Date)
        );
        // An election's margin is no game's line: its close is not a game day.
        let election =
            |day: (i32, u32, u32)| features("Will Mamdani win the NYC mayoral election by more than 10 points?", day);
        assert_ne!(
            judge(&election((2025, 11, 4)), &election((2025, 11, 20))).refused_by,
            Some(Field::Date)
        );
        // One team's total is not the game's.
        let houston_only = over(
            "Houston at Dallas: Houston Total Points? — Over 115.5 points scored",
            "KXNBATEAMTOTAL-26JAN05HOUDAL-HOU115",
        );
        let game_115 = on_day("Rockets vs. Mavericks: O/U 115.5", &["Over", "Under"], (2026, 1, 5));
        assert_eq!(judge(&game_115, &houston_only).refused_by, Some(Field::Threshold));
        // A player's goals are not the game's.
        let game = on_day("Arsenal vs. Chelsea: O/U 1.5", &["Over", "Under"], (2026, 1, 5));
        let player = over(
            "Arsenal vs Chelsea: Bukayo Saka — Over 1.5 goals scored",
            "KXEPLGOAL-26JAN05ARSCHE-SAKA",
        );
        assert_eq!(judge(&game, &player).refused_by, Some(Field::Threshold));
    }

    fn undated(question: &str, outcomes: &[&str]) -> Features {
        let outcomes: Vec<String> = outcomes.iter().map(|outcome| (*outcome).to_owned()).collect();
        Features::of(question, &outcomes, None, None)
    }

    #[test]
    fn a_kalshi_tickers_opponent_tells_a_players_other_game() {
        let paul = kalshi_game("Tommy Paul wins", "KXATPMATCH-26AUG20PAUCOB-PAU", (2026, 9, 3));
        let other_game = undated(
            "Cincinnati Open: Alexander Zverev vs Tommy Paul",
            &["Alexander Zverev", "Tommy Paul"],
        );
        assert_eq!(judge(&paul, &other_game).refused_by, Some(Field::Subject));
        assert_eq!(judge(&other_game, &paul).refused_by, Some(Field::Subject));
        let this_game = undated(
            "Cincinnati Open: Tommy Paul vs Flavio Cobolli",
            &["Tommy Paul", "Flavio Cobolli"],
        );
        assert_eq!(judge(&paul, &this_game).refused_by, None);
        // Without the ticker nothing tells the two games apart.
        let untold = features("Tommy Paul wins", (2026, 9, 3));
        assert_eq!(judge(&untold, &other_game).refused_by, None);
        // `--why` and the reason show what the ticker says.
        let comparison = Comparison::new(&paul, &this_game, SERVING_THRESHOLD);
        assert!(
            comparison
                .reason()
                .contains("ticker: the game of 2026-08-20, PAU against COB"),
            "{}",
            comparison.reason()
        );
        assert!(comparison.to_string().contains("PAU against COB"));
        // An end date on the ticker's day confirms the game whatever the codes say ("CAP" for
        // "CA Paranaense", read as "Paranaense").
        let internacional = kalshi_game(
            "Internacional vs Paranaense Winner? — Internacional",
            "KXBRASILEIROGAME-26JAN28INTCAP-INT",
            (2026, 2, 11),
        );
        let polymarket = Features::of(
            "Will SC Internacional win on 2026-01-28?",
            &["Yes".to_owned(), "No".to_owned()],
            Some("SC Internacional vs. CA Paranaense"),
            NaiveDate::from_ymd_opt(2026, 1, 28),
        );
        assert_eq!(judge(&internacional, &polymarket).refused_by, None);
    }

    #[test]
    fn a_contest_each_that_the_other_lacks_is_two_contests() {
        let democratic = features(
            "Will Andrew Cuomo win the Democratic primary for New York mayor?",
            (2025, 6, 24),
        );
        let republican = features(
            "Will Andrew Cuomo win the Republican primary for New York mayor?",
            (2025, 6, 24),
        );
        assert_eq!(judge(&democratic, &republican).refused_by, Some(Field::Contest));
        // A contest said with fewer words is the same contest.
        let kalshi = features("Texas Senate Republican primary winner? — Ken Paxton", (2026, 3, 4));
        let polymarket = features(
            "Will Ken Paxton win the 2026 Texas Republican Senate primary?",
            (2026, 3, 3),
        );
        assert_ne!(judge(&kalshi, &polymarket).refused_by, Some(Field::Contest));
        let general = features(
            "Will Andrew Cuomo win the New York City mayoral election?",
            (2025, 11, 4),
        );
        assert!(judge(&democratic, &general).refused_by.is_some());
    }

    #[test]
    fn a_game_on_its_tickers_day_is_not_a_tournament_ending_weeks_later() {
        let group_game = kalshi_game(
            "Belgium vs IR Iran Winner? — Belgium",
            "KXWCGAME-26JUN21BELIRI-BEL",
            (2026, 7, 5),
        );
        let cup = features("Will Belgium win the 2026 FIFA World Cup?", (2026, 7, 20));
        assert_eq!(judge(&group_game, &cup).refused_by, Some(Field::Contest));
        // Kalshi closes it two weeks after the game: its end date alone cannot tell.
        let untold = features("Belgium vs IR Iran Winner? — Belgium", (2026, 7, 5));
        assert_eq!(judge(&untold, &cup).refused_by, None);
    }

    #[test]
    fn another_event_about_the_same_person_or_another_stage_refuses() {
        let refused = |polymarket: &str, kalshi: &str| {
            judge(&features(polymarket, (2026, 12, 31)), &features(kalshi, (2027, 1, 1))).refused_by
        };
        assert_eq!(
            refused(
                "Xi Jinping out before 2027?",
                "Will Xi Jinping visit the White House before Jan 1, 2027?"
            ),
            Some(Field::Form)
        );
        assert_eq!(
            refused(
                "US recognizes Reza Pahlavi as leader of Iran in 2026?",
                "Will Reza Pahlavi visit Iran before Jan 1, 2027?"
            ),
            Some(Field::Form)
        );
        assert_eq!(
            refused(
                "Will Iran name a successor to Khamenei by March 31?",
                "Will Mojtaba Khamenei be the next Supreme Leader of Iran?"
            ),
            Some(Field::Form)
        );
        assert_eq!(
            refused(
                "Will Italy qualify for the 2026 FIFA World Cup?",
                "Will Italy qualify for FIFA World Cup Final?"
            ),
            Some(Field::Form)
        );
        assert_eq!(
            refused(
                "Will Belgium win the 2026 FIFA World Cup?",
                "Will Belgium finish first in World Cup Group G?"
            ),
            Some(Field::Form)
        );
        assert_eq!(
            refused(
                "Xi Jinping out before 2027?",
                "Will Xi Jinping leave General Secretary of the Communist Party of China before Jan 1, 2027?"
            ),
            None
        );
    }

    #[test]
    fn a_mention_market_asks_for_the_same_words() {
        let end = (2026, 3, 18);
        let either = features(
            "Will Powell say \"Sorry\" or \"Pardon\" during March press conference?",
            end,
        );
        let pardon = features("Will Powell say Pardon at his Mar 2026 press conference? — Pardon", end);
        assert_eq!(judge(&either, &pardon).refused_by, Some(Field::Form));
        let war = features("Will Powell say \"War\" during March press conference?", end);
        let trade_war = features(
            "Will Powell say Trade War at his Mar 2026 press conference? — Trade War",
            end,
        );
        assert_eq!(judge(&war, &trade_war).refused_by, Some(Field::Form));
        let shutdown = features(
            "Will Powell say \"Shutdown\" or \"Shut Down\" during March press conference?",
            end,
        );
        let kalshi_shutdown = features(
            "Will Powell say Shutdown / Shut Down at his Mar 2026 press conference? — Shutdown / Shut Down",
            end,
        );
        let judgement = judge(&shutdown, &kalshi_shutdown);
        assert_eq!(judgement.refused_by, None);
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
    }

    #[test]
    fn a_bare_count_is_an_exact_count() {
        let end = (2026, 12, 31);
        let one_cut = features("Will 1 Fed rate cut happen in 2026?", end);
        let exactly_one = features("Will the Fed cut rates 1 times? — Exactly 1 cut", (2027, 1, 1));
        let judgement = judge(&one_cut, &exactly_one);
        assert_eq!(judgement.refused_by, None);
        assert!(judgement.similarity >= SERVING_THRESHOLD, "{judgement:?}");
        // A count of rate changes counts hikes too.
        let changes = features(
            "Will the number of rate changes before 2027 be exactly 1?",
            (2027, 1, 1),
        );
        assert!(judge(&one_cut, &changes).refused_by.is_some());
        // "No cuts", written as zero twice, is negated once.
        let none = features("Will no Fed rate cuts happen in 2026?", end);
        let zero = features("Will the Fed cut rates 0 times? — Exactly 0 cuts", (2027, 1, 1));
        assert_eq!(judge(&none, &zero).refused_by, None);
    }

    #[test]
    fn a_year_named_against_an_end_some_days_past_it_is_one_season() {
        let polymarket = features("Will Seattle Sounders FC win the 2026 MLS Cup?", (2026, 12, 19));
        let kalshi = features("Will Seattle win the MLS Cup?", (2027, 1, 8));
        assert_eq!(judge(&polymarket, &kalshi).refused_by, None);
        // A year's later season is not.
        let next_season = features("Will Seattle win the MLS Cup?", (2027, 12, 20));
        assert_eq!(judge(&polymarket, &next_season).refused_by, Some(Field::Date));
    }

    #[test]
    fn a_citys_lettered_team_is_not_its_other_team() {
        let end = (2026, 12, 19);
        let lafc = features("Will Los Angeles FC win the 2026 MLS Cup?", end);
        let galaxy = features("Will Los Angeles G win the MLS Cup?", (2027, 1, 8));
        assert_eq!(judge(&lafc, &galaxy).refused_by, Some(Field::Subject));
        let kalshi_lafc = features("Will Los Angeles F win the MLS Cup?", (2027, 1, 8));
        assert_eq!(judge(&lafc, &kalshi_lafc).refused_by, None);
    }

    #[test]
    fn second_place_is_not_a_win_nor_conceding_scoring() {
        let end = (2026, 5, 15);
        let second = features(
            "Will Rafael López Aliaga finish in second place in the first round of the 2026 Peruvian presidential election?",
            end,
        );
        let first = features(
            "Will Rafael López Aliaga win the first round of the 2026 Peruvian presidential election?",
            end,
        );
        assert_eq!(judge(&second, &first).refused_by, Some(Field::Form));
        let concede = features(
            "Will Uzbekistan concede the most goals in the 2026 FIFA World Cup Group Stage?",
            (2026, 6, 28),
        );
        let score = features(
            "Will Uzbekistan score the most goals in the group stage of the 2026 Men's FIFA World Cup?",
            (2026, 6, 28),
        );
        assert!(judge(&concede, &score).refused_by.is_some());
    }

    #[test]
    fn a_yearless_quarter_and_a_companys_legal_form_are_no_names() {
        let end = (2026, 5, 7);
        let polymarket = features("Uber # of trips above 3.2B in Q1?", end);
        let kalshi = features(
            "Will Uber Technologies, Inc. report above 3.2 billion Trips in Q1 2026?",
            end,
        );
        let keys: Vec<String> = polymarket.entities.subjects.iter().map(Entity::key).collect();
        assert_eq!(keys, ["uber"]);
        let keys: Vec<String> = kalshi.entities.subjects.iter().map(Entity::key).collect();
        assert!(!keys.contains(&"inc".to_owned()), "{keys:?}");
        assert_eq!(judge(&polymarket, &kalshi).refused_by, None);
    }

    #[test]
    fn one_game_of_a_match_is_not_the_match() {
        let end = (2026, 1, 9);
        let game = features("Dota 2: Aurora vs 4Pirates - Game 1 Winner", end);
        let whole = features("Will Aurora win the 4Pirates vs. Aurora Dota 2 match?", (2026, 1, 23));
        assert_eq!(judge(&game, &whole).refused_by, Some(Field::Threshold));
        assert_eq!(judge(&whole, &game).refused_by, Some(Field::Threshold));
    }
}
