//! Dates and periods: when a market resolves, as its question states it.
//!
//! Both exchanges put the deciding date in the words ("by December 31, 2025", "before
//! January 2026", "in 2025", "Super Bowl 2026", "Q4 2025"), and their end dates are a poor
//! substitute: Kalshi closes season-long markets years after the season ("2026 Pro
//! Basketball Finals" closes in 2028). So the words decide, and the end date only fills a
//! missing year ("by June 30" in a market ending 2025-06-30) or stands in when the words
//! state nothing. Written here because no maintained crate parses these fragments inside a
//! sentence without also guessing at every stray number.
//!
//! Every bound is a calendar date; a deadline is exclusive: "by December 31, 2025" and
//! "before January 2026" are both the deadline 2026-01-01, which is what makes them equal.

use chrono::{Datelike, Months, NaiveDate};
use std::collections::BTreeSet;

use super::tokens::Token;

/// What a question says about time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timing {
    /// The event must happen before this date ("by", "before", "through", "end of").
    pub deadline: Option<NaiveDate>,
    /// The state on this day decides ("on June 30", "at the end of 2025").
    pub on_date: Option<NaiveDate>,
    /// The event must happen inside `[start, end)` ("in 2025", "in Q3 2025", "for Q4 2025").
    pub period: Option<(NaiveDate, NaiveDate)>,
    /// Every year the question names or implies, edition years included ("2026 NBA Finals").
    pub years: BTreeSet<i32>,
    /// A time phrase that names no date ("during Trump's term", "before GTA VI").
    pub unresolved: Vec<String>,
    /// The time of day a reading or deadline is at, as written ("10am ET"): minutes past
    /// midnight and the zone's abbreviation ("" when none is written).
    pub clock: Option<(u32, &'static str)>,
    /// A date written without its year in a market with no end date to give it one ("enter
    /// Iran by June 30" in a recording that kept no end date): only its month and day are
    /// known, so only they can be compared.
    pub yearless: Option<YearlessDate>,
}

/// The month and day a question's date resolves on, its year unknown; the day is read as
/// [`Timing::resolution_date`] reads a dated one ("by June 30" is July 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct YearlessDate {
    pub month: u32,
    pub day: u32,
    /// The state on that day decides ("on June 30"), not an event before it.
    pub reads_a_moment: bool,
}

impl YearlessDate {
    /// Whether `date` falls on this month and day.
    pub fn falls_on(self, date: NaiveDate) -> bool {
        (date.month(), date.day()) == (self.month, self.day)
    }
}

impl Timing {
    /// The one date by which the question is decided, when it names one.
    pub fn resolution_date(&self) -> Option<NaiveDate> {
        self.deadline.or(self.on_date).or(self.period.map(|(_start, end)| end))
    }

    /// Whether the state on a day decides ("above $100k on December 31"), rather than an
    /// event before it ("reach $100k by December 31").
    pub fn reads_a_moment(&self) -> bool {
        self.deadline.is_none() && self.on_date.is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.resolution_date().is_none()
            && self.years.is_empty()
            && self.unresolved.is_empty()
            && self.yearless.is_none()
    }

    /// A short human description, for `--why`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(deadline) = self.deadline {
            parts.push(format!("before {deadline}"));
        }
        if let Some(on_date) = self.on_date {
            parts.push(format!("on {on_date}"));
        }
        if let Some((start, end)) = self.period {
            parts.push(format!("within {start}..{end}"));
        }
        if parts.is_empty() && !self.years.is_empty() {
            let years: Vec<String> = self.years.iter().map(i32::to_string).collect();
            parts.push(format!("year {}", years.join(", ")));
        }
        if let Some(yearless) = self.yearless {
            let reading = if yearless.reads_a_moment { "on" } else { "before" };
            parts.push(format!(
                "{reading} {:02}-{:02} of a year not stated",
                yearless.month, yearless.day
            ));
        }
        for phrase in &self.unresolved {
            parts.push(format!("\"{phrase}\" (no date)"));
        }
        if parts.is_empty() {
            "none stated".to_owned()
        } else {
            parts.join("; ")
        }
    }
}

/// How long after January 1st a market may close for "by <year>" to mean before that year.
const YEAR_START_TOLERANCE_DAYS: i64 = 7;

const DEADLINE_CUES: [&str; 5] = ["by", "before", "through", "until", "thru"];
const PERIOD_CUES: [&str; 4] = ["in", "for", "during", "of"];

/// Words that start a time phrase naming no date, with the number of words kept.
const UNRESOLVED_PHRASES: [&[&str]; 8] = [
    &["during", "his", "term"],
    &["during", "trump", "s", "term"],
    &["before", "his", "term", "ends"],
    &["before", "trump", "s", "term", "ends"],
    &["during", "trump", "s", "presidency"],
    &["in", "his", "second", "term"],
    &["in", "his", "lifetime"],
    &["after", "launch"],
];

/// Reads the timing of `tokens`, marking the tokens it used. `reference` (the market's end
/// date) completes dates written without a year.
/// What completes a date written without its year.
#[derive(Debug, Clone, Copy)]
pub enum Reference {
    /// A market's end date: a month is the last one on or before it.
    MarketEnd(NaiveDate),
    /// Today, for a query: a month is the next one from today.
    Today(NaiveDate),
}

impl Reference {
    fn date(self) -> NaiveDate {
        match self {
            Reference::MarketEnd(date) | Reference::Today(date) => date,
        }
    }

    /// The year of `month` written without one.
    fn year_of(self, month: u32) -> Option<i32> {
        let date = self.date();
        let first_day = NaiveDate::from_ymd_opt(date.year(), month, 1)?;
        Some(match self {
            Reference::MarketEnd(_) if first_day > date => date.year() - 1,
            Reference::Today(_) if month < date.month() => date.year() + 1,
            _ => date.year(),
        })
    }
}

pub fn extract(tokens: &mut [Token], reference: Option<Reference>) -> Timing {
    // "This year" of a market that closes just after midnight of January 1st (UTC, for a
    // deadline at the end of December in America) is the year that just ended.
    let this_year = reference.map(|reference| {
        let date = reference.date();
        date.pred_opt().unwrap_or(date).year()
    });
    let mut timing = Timing::default();
    claim_clock_times(tokens, &mut timing);
    claim_lone_time_zones(tokens);
    claim_seasons(tokens, &mut timing);
    for phrase in UNRESOLVED_PHRASES {
        for at in 0..tokens.len() {
            if let Some(length) = super::tokens::phrase_at(tokens, at, phrase) {
                timing.unresolved.push(phrase.join(" ").replace(" s ", "'s "));
                for token in &mut tokens[at..at + length] {
                    token.used = true;
                }
            }
        }
    }
    let mut index = 0;
    while index < tokens.len() {
        if tokens[index].used {
            index += 1;
            continue;
        }
        let Some(mut found) = date_at(tokens, index, reference, this_year) else {
            index += 1;
            continue;
        };
        let cue = cue_before(tokens, index);
        // "Before September" of a market closing on August 31 is the September to come: a
        // deadline written as a month is its first day, which falls just after the market's
        // end, not the September before.
        if matches!(cue.as_deref(), Some("before" | "until"))
            && found.year_inferred
            && !found.single_day
            && let Some(Reference::MarketEnd(end)) = reference
        {
            let distance = |date: NaiveDate| (date - end).num_days().abs();
            if let (Some(start), Some(until)) = (
                found.start.checked_add_months(Months::new(12)),
                found.end.checked_add_months(Months::new(12)),
            ) && distance(start) < distance(found.start)
            {
                (found.start, found.end) = (start, until);
            }
        }
        if let Some(cue_index) = found.first.checked_sub(1).filter(|_| cue.is_some()) {
            tokens[cue_index].used = true;
        }
        // "This year" is the whole of the market's year, with or without "in" before it.
        let cue = cue.or_else(|| (tokens[index].lower == "this").then(|| "in".to_owned()));
        // "By 2027" may include 2027 or end where it starts; a market that closes before 2027
        // is under way says which ("Will Satoshi move any Bitcoin by 2027?", closing
        // 2027-01-01, or earlier: it cannot be asking about 2027).
        let whole_year = !found.single_day && found.start.checked_add_months(Months::new(12)) == Some(found.end);
        let cue = match (cue, reference) {
            (Some(cue), Some(Reference::MarketEnd(end)))
                if cue == "by" && whole_year && (end - found.start).num_days() <= YEAR_START_TOLERANCE_DAYS =>
            {
                Some("before".to_owned())
            }
            (cue, _) => cue,
        };
        // A month without a year in a market with no end date: its dates are in
        // `YEAR_UNKNOWN`, and only their month and day mean anything.
        if found.year_inferred && reference.is_none() {
            let mut dated = Timing::default();
            apply(&mut dated, cue.as_deref(), &found);
            timing.yearless = dated.resolution_date().map(|date| YearlessDate {
                month: date.month(),
                day: date.day(),
                reads_a_moment: dated.reads_a_moment(),
            });
        } else {
            apply(&mut timing, cue.as_deref(), &found);
        }
        for token in &mut tokens[found.first..found.first + found.length] {
            token.used = true;
        }
        index = found.first + found.length;
    }
    // "before GTA VI", "before their tour": a deadline cue followed by no date.
    for index in 0..tokens.len() {
        let token = &tokens[index];
        if !token.used
            && (token.lower == "before" || token.lower == "until")
            && tokens
                .get(index + 1)
                .is_some_and(|next| !next.used && next.joined_to_previous())
        {
            let rest: Vec<&str> = tokens[index..]
                .iter()
                .take(3)
                .map(|token| token.text.as_str())
                .collect();
            timing.unresolved.push(rest.join(" "));
        }
    }
    timing
}

/// Time zones written after a clock time.
const TIME_ZONES: [&str; 12] = [
    "et", "est", "edt", "ct", "cst", "cdt", "pt", "pst", "pdt", "utc", "gmt", "z",
];

/// Zones no state or name shares, claimed wherever they stand in capitals ("on January 28,
/// 2026 (ET)"): a zone says how to read a date, and read as a name it is a subject one side
/// names and the other does not. ("CT" and "PT" are also Connecticut and Portugal.) Not where
/// a capitalised word follows in the same phrase: that is a name the letters begin ("UTC
/// Cajamarca", a club, is not "FC Cajamarca").
fn claim_lone_time_zones(tokens: &mut [Token]) {
    for index in 0..tokens.len() {
        let begins_a_name = tokens
            .get(index + 1)
            .is_some_and(|next| next.gap_before == " " && next.is_capitalized());
        let token = &mut tokens[index];
        if !token.used
            && !begins_a_name
            && matches!(
                token.text.as_str(),
                "ET" | "EST" | "EDT" | "CST" | "CDT" | "PST" | "PDT" | "UTC" | "GMT"
            )
        {
            token.used = true;
        }
    }
}

/// Claims clock times ("11:59 PM ET", "5pm EST", "23:59 UTC"), so that their numbers are not
/// read as thresholds nor "PM ET" as a name, and keeps the first as the question's time of day:
/// a price read at 10am is not one read at noon. "By 11:59 PM ET on December 31" is a
/// deadline, as "by December 31" is: the deadline cue before the time is moved to the date.
fn claim_clock_times(tokens: &mut [Token], timing: &mut Timing) {
    let mut index = 0;
    while index < tokens.len() {
        let Some((minutes, end)) = clock_time_at(tokens, index) else {
            index += 1;
            continue;
        };
        let mut end = end;
        let zone = tokens
            .get(end)
            .and_then(|zone| TIME_ZONES.iter().find(|known| **known == zone.lower));
        if zone.is_some() {
            end += 1;
        }
        timing
            .clock
            .get_or_insert((minutes, zone.map_or("", |zone| canonical_zone(zone))));
        let deadline_cue = index
            .checked_sub(1)
            .filter(|&cue| !tokens[cue].used && DEADLINE_CUES.contains(&tokens[cue].lower.as_str()));
        if let Some(cue) = deadline_cue
            && tokens.get(end).is_some_and(|on| on.lower == "on")
        {
            // The date after "on" takes the deadline's cue (see `cue_before`).
            tokens[end].lower = tokens[cue].lower.clone();
            tokens[cue].used = true;
        }
        for token in &mut tokens[index..end] {
            token.used = true;
        }
        index = end;
    }
}

/// A clock time starting at `index`: minutes past midnight and the index after it.
fn clock_time_at(tokens: &[Token], index: usize) -> Option<(u32, usize)> {
    let token = &tokens[index];
    if token.used || token.gap_before.ends_with('$') {
        return None;
    }
    let digits = token.lower.chars().take_while(char::is_ascii_digit).count();
    if !(1..=2).contains(&digits) {
        return None;
    }
    let hour: u32 = token.lower[..digits].parse().ok()?;
    let attached = &token.lower[digits..];
    let mut end = index + 1;
    let mut minute = 0;
    let with_minutes = attached.is_empty()
        && tokens.get(end).is_some_and(|next| {
            next.gap_before == ":" && next.lower.len() >= 2 && next.lower[..2].chars().all(|c| c.is_ascii_digit())
        });
    let mut meridiem = match attached {
        "am" => Some(false),
        "pm" => Some(true),
        "" => None,
        _ => return None,
    };
    if with_minutes {
        let next = &tokens[end];
        minute = next.lower[..2].parse().ok()?;
        meridiem = match &next.lower[2..] {
            "am" => Some(false),
            "pm" => Some(true),
            "" => None,
            _ => return None,
        };
        end += 1;
    }
    if meridiem.is_none() {
        // "PM", "p.m.", "P.M."
        match tokens.get(end).map(|next| next.lower.as_str()) {
            Some("am" | "a")
                if tokens
                    .get(end)
                    .is_some_and(|next| next.lower.len() == 2 || next.gap_after.starts_with('.')) =>
            {
                meridiem = Some(false);
                end += 1;
            }
            Some("pm" | "p")
                if tokens
                    .get(end)
                    .is_some_and(|next| next.lower.len() == 2 || next.gap_after.starts_with('.')) =>
            {
                meridiem = Some(true);
                end += 1;
            }
            _ => {}
        }
        if meridiem.is_some() && tokens.get(end).is_some_and(|m| m.lower == "m" && m.gap_before == ".") {
            end += 1;
        }
    }
    if !with_minutes && meridiem.is_none() {
        return None;
    }
    if hour > 23 || minute > 59 || (meridiem.is_some() && !(1..=12).contains(&hour)) {
        return None;
    }
    let hour = match meridiem {
        Some(true) if hour != 12 => hour + 12,
        Some(false) if hour == 12 => 0,
        _ => hour,
    };
    Some((hour * 60 + minute, end))
}

/// Zones written several ways, as one.
fn canonical_zone(zone: &str) -> &'static str {
    match zone {
        "et" | "est" | "edt" => "ET",
        "ct" | "cst" | "cdt" => "CT",
        "pt" | "pst" | "pdt" => "PT",
        _ => "UTC",
    }
}

/// Claims seasons written across two years ("2025-26", "2025–26 season"): the season is
/// decided in its second year, the edition its championships carry ("2026 NBA Finals").
fn claim_seasons(tokens: &mut [Token], timing: &mut Timing) {
    for index in 0..tokens.len().saturating_sub(1) {
        let Some(first_year) = tokens[index].year() else {
            continue;
        };
        let next = &tokens[index + 1];
        let second = if next.lower.len() == 2 {
            next.lower
                .parse::<i32>()
                .ok()
                .map(|short| first_year - first_year % 100 + short)
        } else {
            next.year()
        };
        if next.gap_before.trim() == "-" && second == Some(first_year + 1) && !tokens[index].used && !next.used {
            timing.years.insert(first_year + 1);
            tokens[index].used = true;
            tokens[index + 1].used = true;
        }
    }
}

/// A date found at `first`: its span and what it covers.
struct FoundDate {
    first: usize,
    length: usize,
    /// The first day covered.
    start: NaiveDate,
    /// The day after the last day covered.
    end: NaiveDate,
    /// True for a single day ("December 31"), false for a month, quarter or year.
    single_day: bool,
    /// A month written without its year ("before September"), the year taken from the
    /// market's end, or [`YEAR_UNKNOWN`] when it has none.
    year_inferred: bool,
}

/// The year a date written without one is placed in when nothing gives it one: not a leap
/// year, as most years are.
const YEAR_UNKNOWN: i32 = 2001;

fn date_at(tokens: &[Token], index: usize, reference: Option<Reference>, this_year: Option<i32>) -> Option<FoundDate> {
    let reference_year = reference.map(|reference| reference.date().year());
    let token = &tokens[index];
    // "end of 2025", "end of June"
    if token.lower == "end"
        && tokens.get(index + 1).is_some_and(|of| of.lower == "of")
        && tokens.get(index + 2).is_some_and(|inner| !inner.used)
        && let Some(inner) = date_at(tokens, index + 2, reference, this_year)
    {
        let last_day = inner.end.pred_opt()?;
        return Some(FoundDate {
            first: index,
            length: inner.length + 2,
            start: last_day,
            end: inner.end,
            single_day: true,
            year_inferred: inner.year_inferred,
        });
    }
    // "this year": the year of the market's end date.
    if token.lower == "this" && tokens.get(index + 1).is_some_and(|next| next.lower == "year") {
        let year = this_year?;
        return Some(FoundDate {
            first: index,
            length: 2,
            start: NaiveDate::from_ymd_opt(year, 1, 1)?,
            end: NaiveDate::from_ymd_opt(year + 1, 1, 1)?,
            single_day: false,
            year_inferred: false,
        });
    }
    // "2026-01-23": a year, month and day joined by hyphens, as Polymarket writes game days.
    if let Some(year) = token.year()
        && token.gap_after == "-"
        && let [month, day] = [index + 1, index + 2].map(|at| tokens.get(at))
        && let (Some(month), Some(day)) = (month, day)
        && month.gap_after == "-"
        && month.text.len() == 2
        && (day.text.len() == 2 || is_day_and_hour(&day.lower))
        && let (Ok(month), Ok(day_of_month)) = (month.text.parse::<u32>(), day.lower[..2].parse::<u32>())
        && let Some(date) = NaiveDate::from_ymd_opt(year, month, day_of_month)
    {
        // An ISO timestamp ("2026-04-01T14:00:00.000Z", as Kalshi's titles carry their
        // deadlines): its minutes and seconds are part of the date, not numbers to read.
        let time_parts = if day.text.len() == 2 {
            0
        } else {
            tokens[index + 3..]
                .iter()
                .take(2)
                .take_while(|part| part.gap_before == ":" && part.starts_with_digit())
                .count()
        };
        return Some(FoundDate {
            first: index,
            length: 3 + time_parts,
            start: date,
            end: date.succ_opt()?,
            single_day: true,
            year_inferred: false,
        });
    }
    // "by 12/31", "on 11/5/2026": the American numeric date, month first.
    if let Some(found) = slashed_date_at(tokens, index, reference) {
        return Some(found);
    }
    if let Some(quarter) = quarter(&token.lower) {
        let (year, length) = match (
            tokens.get(index + 1).and_then(Token::year),
            year_after_of(tokens, index + 1),
        ) {
            (Some(year), _) => (year, 2),
            (None, Some(year)) => (year, 3),
            (None, None) => (reference_year?, 1),
        };
        let start = NaiveDate::from_ymd_opt(year, quarter * 3 - 2, 1)?;
        return Some(FoundDate {
            first: index,
            length,
            start,
            end: start.checked_add_months(Months::new(3))?,
            single_day: false,
            year_inferred: false,
        });
    }
    // A month's letters joined to a word ("Lee Jun-seok", "Mar-a-Lago") are a name.
    if let Some(month) = month(&token.lower).filter(|_| {
        !(token.gap_after == "-"
            && tokens
                .get(index + 1)
                .is_some_and(|next| next.text.starts_with(|first: char| first.is_alphabetic())))
    }) {
        let day = tokens
            .get(index + 1)
            .filter(|candidate| candidate.gap_before.trim().is_empty())
            .and_then(|candidate| day_of_month(&candidate.lower));
        let year_offset = if day.is_some() { 2 } else { 1 };
        let year = tokens
            .get(index + year_offset)
            .filter(|candidate| candidate.gap_before.trim().is_empty() || candidate.gap_before.trim() == ",")
            .and_then(Token::year);
        // "in December of 2026" is "in December 2026".
        let year_of = if year.is_none() && day.is_none() {
            year_after_of(tokens, index + 1)
        } else {
            None
        };
        let of_words = usize::from(year_of.is_some());
        let year = year.or(year_of);
        // "may" is a month only beside a day or a year, or capitalised after a word of
        // time ("before May").
        if token.lower == "may"
            && day.is_none()
            && year.is_none()
            && !(token.text == "May" && cue_before(tokens, index).is_some())
        {
            return None;
        }
        // A capitalised word straight after a bare month makes a name of both ("March
        // Madness"), not a date.
        if day.is_none()
            && year.is_none()
            && tokens.get(index + 1).is_some_and(|next| {
                next.gap_before == " " && next.is_capitalized() && self::month(&next.lower).is_none()
            })
        {
            return None;
        }
        let length = 1 + usize::from(day.is_some()) + usize::from(year.is_some()) + of_words;
        let year_inferred = year.is_none();
        // A month without a year is the last one on or before the market's end ("in
        // December" of a market ending in January is the December before).
        let year = match (year, reference) {
            (Some(year), _) => year,
            (None, Some(reference)) => reference.year_of(month)?,
            (None, None) => YEAR_UNKNOWN,
        };
        return Some(match day {
            Some(day) => {
                let start = NaiveDate::from_ymd_opt(year, month, day)?;
                FoundDate {
                    first: index,
                    length,
                    start,
                    end: start.succ_opt()?,
                    single_day: true,
                    year_inferred,
                }
            }
            None => {
                let start = NaiveDate::from_ymd_opt(year, month, 1)?;
                FoundDate {
                    first: index,
                    length,
                    start,
                    end: start.checked_add_months(Months::new(1))?,
                    single_day: false,
                    year_inferred,
                }
            }
        });
    }
    let year = token.year()?;
    // "$2,025" or "2025 people" are not years; a year stands alone.
    if token.gap_before.ends_with('$') {
        return None;
    }
    // "after the 2024 May meeting": a year written before its month names the month.
    if let Some(next) = tokens
        .get(index + 1)
        .filter(|next| next.gap_before == " " && next.is_capitalized())
        && let Some(month) = month(&next.lower)
        && !tokens
            .get(index + 2)
            .is_some_and(|day| day.gap_before == " " && day_of_month(&day.lower).is_some())
    {
        let start = NaiveDate::from_ymd_opt(year, month, 1)?;
        return Some(FoundDate {
            first: index,
            length: 2,
            start,
            end: start.checked_add_months(Months::new(1))?,
            single_day: false,
            year_inferred: false,
        });
    }
    Some(FoundDate {
        first: index,
        length: 1,
        start: NaiveDate::from_ymd_opt(year, 1, 1)?,
        end: NaiveDate::from_ymd_opt(year + 1, 1, 1)?,
        single_day: false,
        year_inferred: false,
    })
}

/// Whether a token is an ISO timestamp's day and hour ("01t14").
/// "12/31", "11/5/26", "11/5/2026" at `index`: month, day and optional year joined by
/// slashes. Without a year, the year is the market's, as for a month written alone, and a
/// word of time must stand before it.
fn slashed_date_at(tokens: &[Token], index: usize, reference: Option<Reference>) -> Option<FoundDate> {
    let whole = |token: &Token, digits: std::ops::RangeInclusive<usize>| {
        (digits.contains(&token.text.len()) && token.text.bytes().all(|byte| byte.is_ascii_digit()))
            .then(|| token.text.parse::<u32>().ok())
            .flatten()
    };
    let month_token = &tokens[index];
    let day_token = tokens.get(index + 1)?;
    if month_token.gap_after != "/" || month_token.gap_before.ends_with('/') {
        return None;
    }
    let (month, day) = (whole(month_token, 1..=2)?, whole(day_token, 1..=2)?);
    let year_token = tokens
        .get(index + 2)
        .filter(|_| day_token.gap_after == "/")
        .and_then(|year| whole(year, 2..=4).map(|number| (year, number)));
    let (year, length, year_inferred) = match year_token {
        Some((year, number)) if year.text.len() == 4 => (i32::try_from(number).ok()?, 3, false),
        Some((year, number)) if year.text.len() == 2 => (2000 + i32::try_from(number).ok()?, 3, false),
        Some(_) => return None,
        // Without a year, only after a word of time ("by 12/31"): "a 2/3 majority" and "3/4
        // of the vote" are fractions.
        None if cue_before(tokens, index).is_some() => match reference {
            Some(reference) => (reference.year_of(month)?, 2, true),
            None => (YEAR_UNKNOWN, 2, true),
        },
        None => return None,
    };
    let date = NaiveDate::from_ymd_opt(year, month, day)?;
    Some(FoundDate {
        first: index,
        length,
        start: date,
        end: date.succ_opt()?,
        single_day: true,
        year_inferred,
    })
}

fn is_day_and_hour(lower: &str) -> bool {
    let bytes = lower.as_bytes();
    bytes.len() == 5 && bytes[2] == b't' && [0, 1, 3, 4].iter().all(|&at| bytes[at].is_ascii_digit())
}

fn cue_before(tokens: &[Token], index: usize) -> Option<String> {
    let mut previous = tokens.get(index.checked_sub(1)?)?;
    // "by the end of 2026" is "by end of 2026". Only there: "before the 2026 World Cup" names
    // an event, not the year, and "at the December meeting" a meeting, not a day.
    if previous.lower == "the" && !previous.used && tokens[index].lower == "end" {
        previous = tokens.get(index.checked_sub(2)?)?;
        if !DEADLINE_CUES.contains(&previous.lower.as_str()) {
            return None;
        }
    }
    let cue = previous.lower.as_str();
    (!previous.used && (DEADLINE_CUES.contains(&cue) || PERIOD_CUES.contains(&cue) || cue == "on" || cue == "at"))
        .then(|| cue.to_owned())
}

fn apply(timing: &mut Timing, cue: Option<&str>, found: &FoundDate) {
    timing.years.insert(found.start.year());
    match cue {
        Some(cue) if DEADLINE_CUES.contains(&cue) => {
            // "before January 2026" ends where January starts; "by January 2026" includes it.
            let deadline = if cue == "before" { found.start } else { found.end };
            timing.deadline = Some(deadline);
            timing.years = BTreeSet::from([deadline.pred_opt().unwrap_or(deadline).year()]);
        }
        Some("on" | "at") => timing.on_date = Some(found.start),
        _ if found.single_day => {
            timing.on_date.get_or_insert(found.start);
        }
        Some(_) => timing.period = Some((found.start, found.end)),
        // A bare month or quarter is a period ("the September 2026 meeting"); a bare year
        // names an edition ("2026 NBA Finals"), already counted above.
        None if found.end <= found.start.checked_add_months(Months::new(3)).unwrap_or(found.end) => {
            timing.period.get_or_insert((found.start, found.end));
        }
        None => {}
    }
}

/// The year in "of 2026" starting at `index` ("December of 2026", "Q4 of 2026").
fn year_after_of(tokens: &[Token], index: usize) -> Option<i32> {
    tokens
        .get(index)
        .filter(|of| of.lower == "of")
        .and_then(|_| tokens.get(index + 1))
        .and_then(Token::year)
}

/// The month a word names ("march", "mar"), if any.
pub(super) fn month(word: &str) -> Option<u32> {
    Some(match word {
        "january" | "jan" => 1,
        "february" | "feb" => 2,
        "march" | "mar" => 3,
        "april" | "apr" => 4,
        "may" => 5,
        "june" | "jun" => 6,
        "july" | "jul" => 7,
        "august" | "aug" => 8,
        "september" | "sep" | "sept" => 9,
        "october" | "oct" => 10,
        "november" | "nov" => 11,
        "december" | "dec" => 12,
        _ => return None,
    })
}

fn quarter(word: &str) -> Option<u32> {
    match word {
        "q1" => Some(1),
        "q2" => Some(2),
        "q3" => Some(3),
        "q4" => Some(4),
        _ => None,
    }
}

/// "31", "31st", "4th".
fn day_of_month(word: &str) -> Option<u32> {
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    let suffix = &word[digits.len()..];
    if !matches!(suffix, "" | "st" | "nd" | "rd" | "th") || digits.is_empty() || digits.len() > 2 {
        return None;
    }
    digits.parse().ok().filter(|day| (1..=31).contains(day))
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenize;
    use super::*;

    fn timing(question: &str, reference_year: Option<i32>) -> Timing {
        extract(
            &mut tokenize(question),
            reference_year
                .and_then(|year| NaiveDate::from_ymd_opt(year, 6, 30))
                .map(Reference::MarketEnd),
        )
    }

    fn timing_of(question: &str) -> Timing {
        timing(question, Some(2026))
    }

    fn date(year: i32, month: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(year, month, day).unwrap()
    }

    #[test]
    fn clock_times_are_part_of_the_deadline_not_thresholds() {
        let mut tokens = tokenize("Will XRP be above $6.00 by 11:59 PM ET on Dec 31, 2026?");
        let timing = extract(
            &mut tokens,
            NaiveDate::from_ymd_opt(2026, 6, 30).map(Reference::MarketEnd),
        );
        assert_eq!(timing.deadline, Some(date(2027, 1, 1)), "{timing:?}");
        assert_eq!(timing.clock, Some((23 * 60 + 59, "ET")));
        let unclaimed: Vec<&str> = tokens
            .iter()
            .filter(|token| !token.used)
            .map(|token| token.lower.as_str())
            .collect();
        assert_eq!(unclaimed, ["will", "xrp", "be", "above", "6.00"]);
        let mut tokens = tokenize("Bitcoin above $100,000 at 5pm EST on Jan 3?");
        let timing = extract(
            &mut tokens,
            NaiveDate::from_ymd_opt(2026, 6, 30).map(Reference::MarketEnd),
        );
        assert!(tokens.iter().all(|token| token.lower != "5pm" || token.used));
        assert_eq!(timing.clock, Some((17 * 60, "ET")));
        assert_eq!(timing.on_date, Some(date(2026, 1, 3)));
        assert_eq!(
            timing_of("Bitcoin price at 10:00 a.m. ET on Jan 3, 2026?").clock,
            Some((600, "ET"))
        );
        assert_eq!(
            timing_of("Bitcoin price at 12pm ET on Jan 3, 2026?").clock,
            Some((720, "ET"))
        );
        assert_eq!(timing_of("Will 3 people attend?").clock, None);
    }

    #[test]
    fn iso_dates_are_days_not_ranges() {
        let mut tokens = tokenize("Will Fulham FC win on 2026-01-24?");
        let timing = extract(&mut tokens, None);
        assert_eq!(timing.on_date, Some(date(2026, 1, 24)), "{timing:?}");
        assert!(
            tokens
                .iter()
                .filter(|token| token.starts_with_digit())
                .all(|token| token.used)
        );
        assert_eq!(timing_of("Released by 2026-13-01?").on_date, None);
    }

    #[test]
    fn american_numeric_dates_are_days() {
        let end = NaiveDate::from_ymd_opt(2026, 12, 31).map(Reference::MarketEnd);
        let mut tokens = tokenize("Will Trump visit China by 12/31?");
        let timing = extract(&mut tokens, end);
        assert_eq!(timing.deadline, Some(date(2027, 1, 1)), "{timing:?}");
        assert!(
            tokens
                .iter()
                .filter(|token| token.starts_with_digit())
                .all(|token| token.used)
        );
        assert_eq!(
            extract(&mut tokenize("Will the race be called on 11/5/2026?"), None).on_date,
            Some(date(2026, 11, 5))
        );
        assert_eq!(
            extract(&mut tokenize("Will the race be called on 11/5/26?"), None).on_date,
            Some(date(2026, 11, 5))
        );
        // Not a date: a fraction, a ratio of scores, a month past twelve.
        assert_eq!(extract(&mut tokenize("Will 13/5 happen?"), end).on_date, None);
        assert_eq!(extract(&mut tokenize("Will it be 3/4 of the vote?"), end).on_date, None);
        assert_eq!(
            extract(&mut tokenize("Will a 2/3 majority vote for it?"), end).on_date,
            None
        );
    }

    #[test]
    fn this_year_is_the_markets_year() {
        let kalshi = timing("How high will Bitcoin get this year? — $130,000 or above", Some(2025));
        let polymarket = timing("Will Bitcoin reach $130,000 by December 31, 2025?", Some(2025));
        assert_eq!(kalshi.resolution_date(), polymarket.resolution_date());
        assert_eq!(timing("Will it happen this year?", None).resolution_date(), None);
        let mut tokens = tokenize("Will Trump try to fire Jerome Powell this year?");
        extract(
            &mut tokens,
            NaiveDate::from_ymd_opt(2025, 12, 31).map(Reference::MarketEnd),
        );
        assert!(tokens.iter().any(|token| token.lower == "powell" && !token.used));
        // Closed at 05:54 UTC on January 1st: the year asked about is the one that ended.
        let closing = extract(
            &mut tokenize("Will Pam Bondi leave this year?"),
            NaiveDate::from_ymd_opt(2026, 1, 1).map(Reference::MarketEnd),
        );
        assert_eq!(closing.resolution_date(), NaiveDate::from_ymd_opt(2026, 1, 1));
    }

    #[test]
    fn a_month_without_a_year_is_the_last_before_the_end() {
        let december = extract(
            &mut tokenize("Will annual inflation increase by 3.2% in December?"),
            NaiveDate::from_ymd_opt(2026, 1, 13).map(Reference::MarketEnd),
        );
        assert_eq!(december.period, Some((date(2025, 12, 1), date(2026, 1, 1))));
        let june = extract(
            &mut tokenize("Will it happen by June 30?"),
            NaiveDate::from_ymd_opt(2025, 6, 30).map(Reference::MarketEnd),
        );
        assert_eq!(june.deadline, Some(date(2025, 7, 1)));
    }

    #[test]
    fn an_iso_timestamp_is_a_date_and_none_of_its_numbers_a_threshold() {
        let mut tokens = tokenize("Will Ali Khamenei leave office before 2026-04-01T14:00:00.000Z?");
        let timing = extract(&mut tokens, None);
        assert_eq!(timing.deadline, Some(date(2026, 4, 1)));
        assert!(
            tokens
                .iter()
                .filter(|token| token.starts_with_digit())
                .all(|token| token.used),
            "{tokens:?}"
        );
    }

    #[test]
    fn a_deadline_month_without_a_year_is_the_one_the_market_closes_before() {
        let september = extract(
            &mut tokenize("Will Reza Pahlavi enter Iran before September?"),
            NaiveDate::from_ymd_opt(2025, 8, 31).map(Reference::MarketEnd),
        );
        assert_eq!(september.deadline, Some(date(2025, 9, 1)));
        // A month the market closes after is still the one before its end.
        let july = extract(
            &mut tokenize("Will Trump acquire Greenland before July?"),
            NaiveDate::from_ymd_opt(2025, 7, 1).map(Reference::MarketEnd),
        );
        assert_eq!(july.deadline, Some(date(2025, 7, 1)));
    }

    #[test]
    fn a_bare_month_is_a_period_and_a_bare_year_an_edition() {
        let september = timing(
            "Will the Federal Reserve Cut rates by 25bps at their September 2026 meeting?",
            Some(2026),
        );
        let october = timing(
            "Will the Fed decrease interest rates by 25 bps after the October 2026 meeting?",
            Some(2026),
        );
        assert_eq!(september.period, Some((date(2026, 9, 1), date(2026, 10, 1))));
        assert_ne!(september.resolution_date(), october.resolution_date());
        assert_eq!(timing("Will the Thunder win the 2026 NBA Finals?", None).period, None);
    }

    #[test]
    fn by_a_year_ends_where_it_starts_in_a_market_closing_then() {
        let closing =
            |question: &str, end: NaiveDate| extract(&mut tokenize(question), Some(Reference::MarketEnd(end)));
        let by_2027 = "Will Satoshi move any Bitcoin by 2027?";
        assert_eq!(closing(by_2027, date(2027, 1, 1)).deadline, Some(date(2027, 1, 1)));
        assert_eq!(closing(by_2027, date(2026, 12, 31)).deadline, Some(date(2027, 1, 1)));
        assert_eq!(closing(by_2027, date(2026, 12, 15)).deadline, Some(date(2027, 1, 1)));
        // Closing at the end of 2027, it includes 2027; so without a close, as before.
        assert_eq!(closing(by_2027, date(2027, 12, 31)).deadline, Some(date(2028, 1, 1)));
        assert_eq!(timing(by_2027, None).deadline, Some(date(2028, 1, 1)));
        // A month is not a year: "by January 2027" includes January.
        assert_eq!(
            closing("Will it happen by January 2027?", date(2027, 1, 1)).deadline,
            Some(date(2027, 2, 1))
        );
    }

    #[test]
    fn a_season_is_its_second_year() {
        let mut tokens = tokenize("Will Atletico Madrid win the 2025–26 Champions League?");
        let timing = extract(&mut tokens, None);
        assert_eq!(timing.years, BTreeSet::from([2026]));
        assert!(
            tokens
                .iter()
                .filter(|token| token.starts_with_digit())
                .all(|token| token.used)
        );
    }

    #[test]
    fn polymarket_and_kalshi_deadlines_of_the_same_day_are_equal() {
        // Polymarket 516864 and Kalshi KXBTCMAX150-25-DEC31.
        let polymarket = timing("Will Bitcoin reach $150,000 by December 31, 2025?", Some(2025));
        let kalshi = timing("When will Bitcoin hit $150k? — Before January 2026", Some(2025));
        assert_eq!(polymarket.deadline, Some(date(2026, 1, 1)));
        assert_eq!(kalshi.deadline, polymarket.deadline);
        assert_eq!(kalshi.years, BTreeSet::from([2025]));
    }

    #[test]
    fn a_month_before_is_another_deadline() {
        let kalshi = timing("When will Bitcoin hit $150k? — Before December 2025", Some(2025));
        assert_eq!(kalshi.deadline, Some(date(2025, 12, 1)));
    }

    #[test]
    fn fills_a_missing_year_from_the_end_date() {
        // Polymarket 514503, ending 2025-06-30.
        let polymarket = timing("Will GPT-5 be released by June 30?", Some(2025));
        assert_eq!(polymarket.deadline, Some(date(2025, 7, 1)));
        assert_eq!(
            timing("Will a nuclear weapon detonate by March 31?", None).deadline,
            None
        );
    }

    #[test]
    fn reads_periods_quarters_and_edition_years() {
        assert_eq!(
            timing("US recession in 2025?", None).period,
            Some((date(2025, 1, 1), date(2026, 1, 1)))
        );
        assert_eq!(
            timing("Brazil unemployment below 6.3% for Q4 2025?", None).period,
            Some((date(2025, 10, 1), date(2026, 1, 1)))
        );
        let kalshi = timing("Will the Cleveland win the 2026 Pro Basketball Finals?", Some(2028));
        assert_eq!(kalshi.years, BTreeSet::from([2026]));
        assert_eq!(kalshi.resolution_date(), None);
        let polymarket = timing("Will the New England Patriots win Super Bowl 2026?", Some(2026));
        assert_eq!(polymarket.years, BTreeSet::from([2026]));
    }

    #[test]
    fn reads_days_and_year_ends() {
        assert_eq!(
            timing("Will Google have the top AI model on June 30?", Some(2025)).on_date,
            Some(date(2025, 6, 30))
        );
        assert_eq!(
            timing("Will Gold close at $2,600-2,700 at the end of 2025?", None).on_date,
            Some(date(2025, 12, 31))
        );
        assert_eq!(
            timing("Putin out as President of Russia by end of 2026?", None).deadline,
            Some(date(2027, 1, 1))
        );
        assert_eq!(
            timing("Will China invade Taiwan by the end of 2026?", None).deadline,
            Some(date(2027, 1, 1))
        );
        // An article before anything else keeps its date what it was.
        assert_eq!(
            timing("Will Lionel Messi retire before the 2026 World Cup?", None).deadline,
            None
        );
        assert_eq!(
            timing("Will the Fed cut rates at the December 2025 FOMC meeting?", None).on_date,
            None
        );
        assert_eq!(
            timing(
                "Will Jerome Powell be charged with a any crime before Jan 1, 2027?",
                None
            )
            .deadline,
            Some(date(2027, 1, 1))
        );
    }

    #[test]
    fn keeps_phrases_that_name_no_date() {
        // Kalshi KXUSAKIM-29 and Polymarket 540844.
        let kalshi = timing("Will Kim Jong-Un visit the US during Trump's term?", None);
        assert_eq!(kalshi.unresolved, ["during trump's term"]);
        let polymarket = timing("Will bitcoin hit $1m before GTA VI?", Some(2026));
        assert_eq!(polymarket.unresolved, ["before GTA VI"]);
        assert_eq!(polymarket.deadline, None);
    }

    #[test]
    fn a_month_joined_to_a_word_is_a_name() {
        assert!(timing_of("Will Lee Jun-seok be arrested?").is_empty());
        assert!(timing_of("Will Trump visit Mar-a-Lago?").is_empty());
    }

    #[test]
    fn a_zone_beginning_a_name_is_the_name() {
        let mut club = tokenize("Will UTC Cajamarca win Peru Liga 1?");
        extract(&mut club, None);
        assert!(club.iter().any(|token| token.lower == "utc" && !token.used));
        let mut deadline = tokenize("Will it happen by January 28, 2026 (UTC)?");
        extract(&mut deadline, None);
        assert!(deadline.iter().any(|token| token.lower == "utc" && token.used));
    }

    #[test]
    fn may_is_a_month_only_beside_a_day_or_year() {
        assert!(timing("Trump may sign the bill", Some(2025)).is_empty());
        assert_eq!(
            timing("Will GPT-5 be released by May 31?", Some(2025)).deadline,
            Some(date(2025, 6, 1))
        );
    }

    #[test]
    fn a_year_before_its_month_names_the_month() {
        let timing = timing_of("No change in Fed interest rates after 2024 May meeting?");
        assert_eq!(timing.period, Some((date(2024, 5, 1), date(2024, 6, 1))), "{timing:?}");
        // A year before a day still reads as the year, the day after it as a day.
        assert_eq!(timing_of("2026 March 3 rally?").period, None);
    }

    #[test]
    fn a_month_starting_a_name_is_no_date_and_a_lone_zone_no_name() {
        let mut tokens = tokenize("Will Illinois win the March Madness?");
        let timing = extract(&mut tokens, None);
        assert_eq!(timing.resolution_date(), None, "{timing:?}");
        assert!(
            tokens
                .iter()
                .filter(|token| token.lower == "march")
                .all(|token| !token.used)
        );
        let mut tokens = tokenize("Will the US next strike Iran on January 28, 2026 (ET)?");
        let timing = extract(&mut tokens, None);
        assert_eq!(timing.on_date, Some(date(2026, 1, 28)));
        assert!(tokens.iter().filter(|token| token.text == "ET").all(|token| token.used));
        // A month with a day or year, or before a lower-case word, is still a date.
        assert!(
            timing_of("Will Bitcoin hit $100k in March?")
                .resolution_date()
                .is_some()
        );
        assert!(
            timing_of("Will Bitcoin hit $100k by March 31?")
                .resolution_date()
                .is_some()
        );
    }
}
