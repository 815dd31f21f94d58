//! Kalshi's game tickers: which day a game is played and who plays it.
//!
//! A Kalshi market on one game carries both in its ticker, where its title may name only the
//! chosen side ("Tommy Paul wins", ticker `KXATPMATCH-26AUG20PAUCOB-PAU`): a segment of the
//! day (`26AUG20`, year, month, day; Kalshi sometimes adds the time, `26AUG201900`) followed
//! by the two sides' codes run together (`PAUCOB`), and a last segment with the chosen side's
//! code (`PAU`), which begins or ends the pair. The other code is the opponent (`COB`). A
//! player reaches several games of one tournament, so the opponent and the day are what tell
//! this game from the next; the title alone cannot.
//!
//! Codes are abbreviations of the sides' names (the start of a surname, a country's or
//! team's letters), read here loosely ([`code_fits`]): the first letter begins a word of the
//! name and the others follow in order. Tickers of anything else (a leader's exit by a date,
//! `KXKHAMENEIOUT-AKHA-26FEB01`; a round, `KXWCROUND-26FINAL-ESP`) name no game and read as
//! none.

use chrono::NaiveDate;

use super::entities::Entity;

/// One game as its Kalshi ticker names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TickerGame {
    /// The day of the game (the exchange's local date).
    pub day: NaiveDate,
    /// Both sides' codes run together, lower-case ("paucob").
    pub sides: String,
    /// The chosen side's code, lower-case ("pau"); empty for a market that backs no side (a
    /// total, `KXNFLTOTAL-26JAN25KCJAC-45`), whose ticker names the day and both sides only.
    pub chosen: String,
    /// The other side's code, lower-case ("cob"); empty with `chosen`.
    pub opponent: String,
}

impl TickerGame {
    /// Reads a Kalshi ticker; `None` when it names no game of two sides.
    pub fn read(ticker: &str) -> Option<TickerGame> {
        let (series_and_event, last) = ticker.rsplit_once('-')?;
        // A spread's last segment adds its line to the side's code (`KC7`); a total's is the
        // line alone (`45`).
        let letters = last.trim_end_matches(|character: char| character.is_ascii_digit());
        let line = letters.len() < last.len();
        if !letters.bytes().all(|byte| byte.is_ascii_uppercase()) || (letters.is_empty() && !line) {
            return None;
        }
        // A soccer game's draw (`…-26APR08BARATM-TIE`) and both teams scoring
        // (`…-26MAY13DALVAN-BTTS`) back neither side, as a total does: the question's form
        // says what they ask of the game. Other codes that are neither side's are not read:
        // their markets ask something else of the game, which no form may say.
        let chosen = if letters == "TIE" || letters == "BTTS" {
            String::new()
        } else {
            letters.to_ascii_lowercase()
        };
        series_and_event.split('-').skip(1).find_map(|segment| {
            let (day, sides) = day_and_rest(segment)?;
            let sides = sides.to_ascii_lowercase();
            if chosen.is_empty() {
                return Some(TickerGame {
                    day,
                    sides,
                    chosen: String::new(),
                    opponent: String::new(),
                });
            }
            let opponent = sides
                .strip_prefix(chosen.as_str())
                .or_else(|| sides.strip_suffix(chosen.as_str()))?;
            (!opponent.is_empty()).then(|| TickerGame {
                day,
                sides: sides.clone(),
                chosen: chosen.clone(),
                opponent: opponent.to_owned(),
            })
        })
    }
}

/// When a Kalshi ticker says its event is decided: the day its event segment starts with
/// (`KXVISITIRAN-26JUL01-MRUB`, `KXUCLGAME-26APR08BARATM-BAR`), or only the year it is
/// (`KXPRESNOMR-28-GN`, `PRESPARTYTN-24-R`). Kalshi's convention, read where a recording kept
/// the ticker but not the market's close.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TickerDate {
    Day(NaiveDate),
    Year(i32),
}

/// The years a Kalshi event can be about: its markets since it opened, and a few terms ahead.
const KALSHI_YEARS: std::ops::RangeInclusive<i32> = 2018..=2040;

impl TickerDate {
    /// Reads the event segment (the second) of a ticker; `None` when it states no date.
    pub fn read(ticker: &str) -> Option<TickerDate> {
        let event = ticker.split('-').nth(1)?;
        // Two digits are a year (`KXECTIE-24`, `KXPRESNOMR-28-GN`) when they can be one of the
        // exchange's: a level in their place (`KXMCHKSILKSONG-94`, a score of 95 or more) is
        // not.
        if event.len() == 2 && event.bytes().all(|byte| byte.is_ascii_digit()) {
            let year = 2000 + event.parse::<i32>().ok()?;
            return KALSHI_YEARS.contains(&year).then_some(TickerDate::Year(year));
        }
        day_of(event).map(TickerDate::Day)
    }
}

/// Splits `26AUG20PAUCOB` (or `26AUG201900PAUCOB`) into the day and the letters after it.
fn day_and_rest(segment: &str) -> Option<(NaiveDate, &str)> {
    let day = day_of(segment)?;
    let rest = &segment[7..];
    // An optional time of day (four digits) before the sides.
    let rest = match rest.as_bytes() {
        [a, b, c, d, ..] if [a, b, c, d].iter().all(|byte| byte.is_ascii_digit()) => &rest[4..],
        _ => rest,
    };
    (!rest.is_empty() && rest.bytes().all(|byte| byte.is_ascii_uppercase())).then_some((day, rest))
}

/// The day a segment starts with (`26AUG20…`: year, month, day).
fn day_of(segment: &str) -> Option<NaiveDate> {
    let bytes = segment.as_bytes();
    if bytes.len() < 7 || !bytes[..2].iter().all(u8::is_ascii_digit) || !bytes[5..7].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let month = match &segment[2..5] {
        "JAN" => 1,
        "FEB" => 2,
        "MAR" => 3,
        "APR" => 4,
        "MAY" => 5,
        "JUN" => 6,
        "JUL" => 7,
        "AUG" => 8,
        "SEP" => 9,
        "OCT" => 10,
        "NOV" => 11,
        "DEC" => 12,
        _ => return None,
    };
    let year = 2000 + segment[..2].parse::<i32>().ok()?;
    NaiveDate::from_ymd_opt(year, month, segment[5..7].parse().ok()?)
}

/// Whether `code` (lower-case) can abbreviate `name`: its first letter begins a word of the
/// name and its other letters follow in order ("cob" / Flavio Cobolli, "dej" / Jesper de Jong,
/// "nzl" / New Zealand, "kc" / Kansas City Chiefs). Loose on purpose: a code that does not fit
/// is good evidence the ticker names someone else. (No allocation: run per candidate pair.)
pub fn code_fits(code: &str, name: &Entity) -> bool {
    // A surname's particle may lead the code ("dej" for Jesper de Jong) where the name, read,
    // has lost it; a school's code may end in the University its name leaves unsaid ("sjsu"
    // for San Jose State).
    letters_fit(code, name)
        || PARTICLES.iter().any(|particle| {
            code.strip_prefix(particle)
                .is_some_and(|rest| !rest.is_empty() && letters_fit(rest, name))
        })
        || code
            .strip_suffix('u')
            .is_some_and(|rest| rest.len() >= 2 && letters_fit(rest, name))
}

/// Whether the ticker's two codes are the two sides `names` names, in either order: a
/// market whose question names no side ("Full Game: over 45.5 points scored?") is on the game
/// its ticker names, which the other market's sides then confirm.
pub fn codes_fit_both(game: &TickerGame, names: [&Entity; 2]) -> bool {
    let sides = game.sides.as_str();
    (2..sides.len().saturating_sub(1)).any(|at| {
        let (first, second) = sides.split_at(at);
        (code_fits(first, names[0]) && code_fits(second, names[1]))
            || (code_fits(first, names[1]) && code_fits(second, names[0]))
    })
}

/// Surname particles a code may begin with.
const PARTICLES: &[&str] = &["de", "da", "di", "du", "del", "van", "von", "le", "la", "dos", "das"];

fn letters_fit(code: &str, name: &Entity) -> bool {
    let Some(first) = code.chars().next() else {
        return false;
    };
    name.words.iter().enumerate().any(|(at, word)| {
        if !word.starts_with(first) {
            return false;
        }
        let mut rest = code.chars().skip(1).peekable();
        let letters = name.words[at..]
            .iter()
            .flat_map(|word| word.chars())
            .skip(1)
            .filter(char::is_ascii_alphanumeric);
        for letter in letters {
            if rest.peek() == Some(&letter) {
                rest.next();
            }
        }
        rest.peek().is_none()
    })
}

#[cfg(test)]
mod tests {
    use super::super::entities::EntityKind;
    use super::*;

    fn name(text: &str) -> Entity {
        Entity {
            kind: EntityKind::Name,
            words: text.split_whitespace().map(str::to_lowercase).collect(),
        }
    }

    #[test]
    fn reads_the_day_and_both_sides_of_a_game() {
        let game = TickerGame::read("KXATPMATCH-26AUG20PAUCOB-COB").unwrap();
        assert_eq!(game.day, NaiveDate::from_ymd_opt(2026, 8, 20).unwrap());
        assert_eq!((game.chosen.as_str(), game.opponent.as_str()), ("cob", "pau"));
        let first = TickerGame::read("KXWCGAME-26JUN21BELIRI-BEL").unwrap();
        assert_eq!(first.opponent, "iri");
        let timed = TickerGame::read("KXMLBGAME-25AUG071905NYYTEX-NYY").unwrap();
        assert_eq!(
            (timed.day.to_string().as_str(), timed.opponent.as_str()),
            ("2025-08-07", "tex")
        );
    }

    #[test]
    fn reads_the_game_of_a_spread_or_a_total() {
        let spread = TickerGame::read("KXNFLSPREAD-26JAN25KCJAC-KC7").unwrap();
        assert_eq!(spread.day, NaiveDate::from_ymd_opt(2026, 1, 25).unwrap());
        assert_eq!((spread.chosen.as_str(), spread.opponent.as_str()), ("kc", "jac"));
        let total = TickerGame::read("KXNFLTOTAL-26JAN25KCJAC-45").unwrap();
        assert_eq!(total.day, NaiveDate::from_ymd_opt(2026, 1, 25).unwrap());
        assert!(total.chosen.is_empty() && total.opponent.is_empty());
        // Its two codes are the game's two sides, in either order.
        let (chiefs, jaguars) = (name("Kansas City Chiefs"), name("Jacksonville Jaguars"));
        assert!(codes_fit_both(&total, [&jaguars, &chiefs]));
        assert!(!codes_fit_both(&total, [&chiefs, &name("Denver Broncos")]));
    }

    #[test]
    fn a_draw_or_both_scoring_backs_neither_side_of_its_game() {
        let draw = TickerGame::read("KXUCLGAME-26APR08BARATM-TIE").unwrap();
        assert_eq!(draw.day, NaiveDate::from_ymd_opt(2026, 4, 8).unwrap());
        assert!(draw.chosen.is_empty() && draw.opponent.is_empty());
        let both_score = TickerGame::read("KXMLSBTTS-26MAY13DALVAN-BTTS").unwrap();
        assert_eq!(both_score.day, NaiveDate::from_ymd_opt(2026, 5, 13).unwrap());
        assert_eq!(both_score.sides, "dalvan");
        assert!(both_score.chosen.is_empty());
        // Another code that is neither side's is not read as a game backing no side: what it
        // asks of the game, no form may say.
        assert!(TickerGame::read("KXMLSGOALS-26MAY13DALVAN-XYZ").is_none());
    }

    #[test]
    fn a_markets_own_level_is_no_year() {
        assert_eq!(TickerDate::read("KXMCHKSILKSONG-94"), None);
        assert_eq!(TickerDate::read("KXECTIE-24"), Some(TickerDate::Year(2024)));
        assert_eq!(TickerDate::read("KXPRESNOMR-28-GN"), Some(TickerDate::Year(2028)));
    }

    #[test]
    fn reads_the_date_of_an_event() {
        let day = |year, month, day| Some(TickerDate::Day(NaiveDate::from_ymd_opt(year, month, day).unwrap()));
        assert_eq!(TickerDate::read("KXVISITIRAN-26JUL01-MRUB"), day(2026, 7, 1));
        assert_eq!(TickerDate::read("KXUCLGAME-26APR08BARATM-BAR"), day(2026, 4, 8));
        assert_eq!(TickerDate::read("KXRATECUTCOUNT-25DEC31-T2"), day(2025, 12, 31));
        assert_eq!(TickerDate::read("KXPRESNOMR-28-GN"), Some(TickerDate::Year(2028)));
        for ticker in [
            "KXSWINGSTATES24DJT-0",
            "KXKHAMENEIOUT-AKHA-26FEB01",
            "KXBTC2025100",
            "558946",
            "",
        ] {
            assert_eq!(TickerDate::read(ticker), None, "{ticker}");
        }
    }

    #[test]
    fn other_tickers_name_no_game() {
        for ticker in [
            "KXKHAMENEIOUT-AKHA-26FEB01",
            "KXLEADERSOUT-27JAN01-XJINCHI",
            "KXWCROUND-26FINAL-ESP",
            "KXATP-26CINCIN-TIA",
            "558946",
            "",
        ] {
            assert_eq!(TickerGame::read(ticker), None, "{ticker}");
        }
    }

    #[test]
    fn a_code_fits_the_names_it_can_abbreviate() {
        assert!(code_fits("cob", &name("Flavio Cobolli")));
        assert!(code_fits("dej", &name("Jesper de Jong")));
        assert!(code_fits("dej", &name("Jesper Jong")));
        assert!(code_fits("nzl", &name("New Zealand")));
        assert!(code_fits("kc", &name("Kansas City Chiefs")));
        assert!(code_fits("iri", &name("IR Iran")));
        assert!(code_fits("sjsu", &name("San Jose State")));
        assert!(!code_fits("sjsu", &name("San Diego State")));
        assert!(!code_fits("cob", &name("Alexander Zverev")));
        assert!(!code_fits("fil", &name("Jakub Mensik")));
        assert!(!code_fits("", &name("Jakub Mensik")));
    }
}
