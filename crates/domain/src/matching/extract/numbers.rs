//! Numbers with their units and direction: the threshold or range a market resolves on.
//!
//! "$150k", "$150,000" and "149999.99" are one threshold; "above 5%" and "below 5%" are two
//! markets; "$250-500b" is a range whose unit is written once. Written here because the
//! fragments are too irregular for a general number parser and too few to need one.
//!
//! A bare number that names which one rather than how many ("Game 4", "Round 1", "week 10",
//! "Super Bowl 55", "iPhone 18") is a [`Label`], not a threshold: the exchanges
//! write it on one side only as often as on both ("Nets vs. Celtics: Game 4" against the
//! game's date), so it refuses a pair only when both sides label the same kind of thing
//! differently.

use super::tokens::Token;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    Usd,
    Percent,
    BasisPoints,
    /// A plain count: people, launches, rate cuts, seeds.
    Count,
    /// Degrees of temperature ("72°F", "72°", "72 degrees").
    Degrees,
}

/// The step a rate move is settled in: Polymarket's rate-decision markets round a move that
/// is not a multiple of 25 bps up to the next one ("a cut of 12.5 bps … will be considered
/// to be 25 bps"), so Kalshi's "more than 25bps" resolves as Polymarket's "50+ bps" does.
const RATE_STEP_BPS: f64 = 25.0;

/// Which side of the number resolves Yes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bound {
    /// At or above ("reach $150k", "more than 3%", "8+").
    Above,
    /// At or below ("dip to $90,000", "less than 250,000").
    Below,
    /// Inside `[low, high]` ("$2,600-2,700", "between 100 and 119").
    Between,
    /// The number exactly ("be 4.6%", "exactly 5").
    Exact,
    /// The number itself, or a direction the question leaves to its rules.
    Unstated,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quantity {
    pub low: f64,
    pub high: f64,
    pub unit: Unit,
    pub bound: Bound,
    /// For an open end, whether the number itself resolves Yes: `Some(true)` for "at least",
    /// "or more", "≥", "+"; `Some(false)` for "above", "more than", ">", "below", "less
    /// than"; `None` when the words leave it to the rules ("reach", "hit").
    pub inclusive: Option<bool>,
    /// Digits written after the decimal point: a figure published as "4.6%" moves by 0.1.
    pub decimals: u8,
    /// What a game's line counts, when the number is one.
    pub counted: Counted,
    /// Whether the words say it counts whole things ("goals", "seats", "launches", a game's
    /// total): only such a number moves in whole steps. An index level, a magnitude ("above
    /// 20.5") or an election's margin does not.
    pub counts_whole_things: bool,
    /// Whether it is a central bank's move on its policy rate in basis points (the words name
    /// rates, and no yield or spread, which move in any step).
    pub moves_a_policy_rate: bool,
}

/// What a sports line counts. A game's markets are its winner, a winning margin (a spread)
/// and a total, often on the same number: "Rockets win by over 8.5" is not "over 8.5 goals
/// scored", and one side's margin is not the other's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counted {
    /// No line the words name: whatever the question counts.
    Unsaid,
    /// By how much the question's subject wins: Kalshi's "Houston wins by over 8.5 points",
    /// Polymarket's "Spread: Rockets (-8.5)" (outcomes the two teams, the first covering).
    Margin,
    /// A sum over the line: Polymarket's "Colts vs. Commanders: O/U 46.5" (outcomes Over and
    /// Under), Kalshi's "over 46.5 points scored".
    Total,
}

/// A number that says which one: the thing it numbers (the word before it, lower-cased) and
/// the number.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub noun: String,
    pub number: f64,
}

impl Label {
    pub fn describe(&self) -> String {
        format!("{} {}", self.noun, trim(self.number))
    }
}

/// What [`extract`] reads: thresholds, and numbers that are labels.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Numbers {
    pub quantities: Vec<Quantity>,
    pub labels: Vec<Label>,
}

/// Words a number after them labels rather than counts: "Game 4" is the fourth game, not four
/// games.
const LABELLED_NOUNS: [&str; 26] = [
    "game",
    "round",
    "week",
    "season",
    "episode",
    "chapter",
    "part",
    "phase",
    "stage",
    "group",
    "pool",
    "day",
    "leg",
    "heat",
    "race",
    "district",
    "ward",
    "proposition",
    "prop",
    "article",
    "section",
    "title",
    "amendment",
    "version",
    "matchday",
    "gameweek",
];

/// What a bare number labels, if it is a label: the word before it when that is one of
/// [`LABELLED_NOUNS`], or a word with a capital that neither opens the question nor is a
/// month ("Super Bowl 55", "iPhone 18", "Ethereum 2.0"; not "Will 4 ..." or "December 18").
/// Only for a number written with no direction or unit, which a threshold always has and a
/// count can lack. A rank ("#1 album", "a 1 seed") stays a count: it is the condition itself.
fn label_noun(tokens: &[Token], index: usize) -> Option<String> {
    let token = &tokens[index];
    let previous = index.checked_sub(1).map(|previous| &tokens[previous])?;
    if token.gap_before != " " || is_rank_cutoff(tokens, index - 1) {
        return None;
    }
    let opens_the_question = index == 1
        && matches!(
            previous.lower.as_str(),
            "will" | "who" | "what" | "when" | "which" | "how" | "is" | "are" | "does" | "do" | "did" | "can" | "has"
        );
    let names_something = !opens_the_question
        && super::dates::month(&previous.lower).is_none()
        && previous.text.chars().any(|character| character.is_ascii_uppercase());
    (LABELLED_NOUNS.contains(&previous.lower.as_str()) || names_something).then(|| previous.lower.clone())
}

/// Whether `tokens[at]` is "top" before a whole number in a place ("finish in the top 4",
/// "finish Top 4", "a top 10 finish", "Masters Top 10 finish?", "Kane: Top 3 in"): a cutoff of ranks, read as a
/// threshold in either case, not a name. "Will Bitcoin top $100k?" (a verb, before an
/// amount) is not one.
pub fn is_rank_cutoff(tokens: &[Token], at: usize) -> bool {
    let follows = |words: &[&str]| at > 0 && words.contains(&tokens[at - 1].lower.as_str());
    let finish_after = tokens.get(at + 2).is_some_and(|next| next.lower == "finish");
    // Kalshi's "Harry Kane: Top 3 in the 2026 men's Ballon d'Or?" opens a clause with it.
    let opens_a_clause = at == 0 || tokens[at].gap_before.contains(':');
    tokens[at].lower == "top"
        && (follows(&["the", "a", "in", "finish", "finishes", "place"]) || finish_after || opens_a_clause)
        && tokens.get(at + 1).is_some_and(|number| {
            number.gap_before == " " && number.text.chars().all(|character| character.is_ascii_digit())
        })
}

/// The value of a Roman numeral of two letters or more written in capitals ("LX", "VIII"),
/// strictly formed, of I, V, X and L only: editions and sequels stay below 90, and "DC",
/// "MD" and "CD" are far more often a place or a word.
pub fn roman_numeral(text: &str) -> Option<u32> {
    if text.len() < 2 || !text.bytes().all(|byte| b"IVXL".contains(&byte)) {
        return None;
    }
    let value = |byte: u8| match byte {
        b'I' => 1,
        b'V' => 5,
        b'X' => 10,
        _ => 50,
    };
    let bytes = text.as_bytes();
    let total = bytes.iter().enumerate().fold(0i64, |total, (at, &byte)| {
        let this = value(byte);
        if bytes.get(at + 1).is_some_and(|&next| value(next) > this) {
            total - this
        } else {
            total + this
        }
    });
    // Only the canonical spelling counts ("IIII", "VV", "IC" are words or typos, not numerals).
    let number = u32::try_from(total).ok().filter(|number| (1..90).contains(number))?;
    (to_roman(number) == text).then_some(number)
}

fn to_roman(mut number: u32) -> String {
    const NUMERALS: [(u32, &str); 7] = [
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut text = String::new();
    for (value, numeral) in NUMERALS {
        while number >= value {
            text.push_str(numeral);
            number -= value;
        }
    }
    text
}

/// How two thresholds that agree compare at their boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    /// The same number, the same side of it.
    Same,
    /// Different numbers that are one step of the published figure apart, the strict one
    /// below the inclusive one ("above 4.6%" and "4.7% or more" when the figure has one
    /// decimal): the same outcomes for any figure published at that precision.
    OneStepApart,
}

impl Quantity {
    pub fn describe(&self) -> String {
        let value = |number: f64| match self.unit {
            Unit::Usd => format!("${}", trim(number)),
            Unit::Percent => format!("{}%", trim(number)),
            Unit::BasisPoints => format!("{} bps", trim(number)),
            Unit::Count => trim(number),
            Unit::Degrees => format!("{}°", trim(number)),
        };
        let strict = self.inclusive == Some(false);
        match self.bound {
            Bound::Above if strict => format!("> {}", value(self.low)),
            Bound::Below if strict => format!("< {}", value(self.low)),
            Bound::Above => format!("≥ {}", value(self.low)),
            Bound::Below => format!("≤ {}", value(self.low)),
            Bound::Exact => format!("exactly {}", value(self.low)),
            Bound::Between => format!("{} to {}", value(self.low), value(self.high)),
            Bound::Unstated => value(self.low),
        }
    }

    /// Same unit, same value (to a thousandth: Kalshi writes $150k as 149999.99) and
    /// directions that do not contradict.
    pub fn agrees_with(&self, other: &Quantity) -> bool {
        self.boundary_with(other).is_some()
    }

    /// How the two agree at their boundary, or `None` when they do not agree: another
    /// number, unit or direction, or the same number included on one side and excluded on
    /// the other ("above 72" and "72 or above" resolve apart at exactly 72).
    pub fn boundary_with(&self, other: &Quantity) -> Option<Boundary> {
        // A margin is not a total, and neither is a number the words name no line for ("Will
        // Arsenal score over 1.5 goals?" is a team's, not the game's).
        if self.counted != other.counted {
            return None;
        }
        let close = |left: f64, right: f64| (left - right).abs() <= 1e-3 * left.abs().max(right.abs()).max(1.0);
        // A bare number ("increase by 0.1%") includes itself, whether it means exactly or at
        // least: it cannot be an excluded bound ("more than 0.1%").
        let bounds_agree = match (self.bound, other.bound) {
            (Bound::Unstated, Bound::Unstated) => true,
            (Bound::Unstated, bound) | (bound, Bound::Unstated) => {
                let inclusive = if self.bound == Bound::Unstated {
                    other.inclusive
                } else {
                    self.inclusive
                };
                // A bare count is exact where the other writes an open end: "cut rates 8
                // times" is not "8+ cuts", "hike by 25bps" not "by 25+ bps", but it is
                // "exactly 8 cuts". Only an open end the words state ("+", "or more", "at
                // least", "≥", "above") counts; a verb of reaching leaves it open to either
                // reading. A bare sum of money is a level to reach, not an exact figure: "be
                // worth $1 billion" is "$1b+".
                bound != Bound::Between
                    && (inclusive.is_none()
                        || (self.unit == Unit::Count && bound == Bound::Exact)
                        || (self.unit == Unit::Usd && bound == Bound::Above && inclusive == Some(true)))
            }
            (left, right) => left == right,
        };
        if self.unit != other.unit || !bounds_agree {
            return None;
        }
        if close(self.low, other.low) && close(self.high, other.high) {
            return match (self.inclusive, other.inclusive) {
                (Some(left), Some(right)) if left != right => None,
                _ => Some(Boundary::Same),
            };
        }
        self.one_step_from(other).then_some(Boundary::OneStepApart)
    }

    /// A threshold excluding `v` on one side and including `v` plus one step of the published
    /// precision on the other (for "above"; minus, for "below"): percentages as published,
    /// counts (which are whole: "more than 5 goals" is "6+ goals"), temperatures (which
    /// the weather service reports in whole degrees: "above 72°" is "73° or above") and rate
    /// moves (settled in quarter points: "more than 25bps" is "50+ bps").
    fn one_step_from(&self, other: &Quantity) -> bool {
        if self.unit == Unit::Usd || self.bound != other.bound || !matches!(self.bound, Bound::Above | Bound::Below) {
            return false;
        }
        let (strict, inclusive) = match (self.inclusive, other.inclusive) {
            (Some(false), Some(true)) => (self, other),
            (Some(true), Some(false)) => (other, self),
            _ => return false,
        };
        if !self.moves_in_steps(other) {
            return false;
        }
        let step = match self.unit {
            Unit::BasisPoints => RATE_STEP_BPS,
            _ => 10f64.powi(-i32::from(self.decimals.max(other.decimals))),
        };
        let expected = match self.bound {
            Bound::Above => strict.low + step,
            _ => strict.low - step,
        };
        (inclusive.low - expected).abs() < step / 100.0 || strict.same_whole_counts(inclusive)
    }

    /// Whether the figure of two thresholds moves in published steps: a percentage written
    /// with decimals ("4.6%": an unemployment rate, a CPI print; "above 4%" is not "5% or
    /// more"), whole degrees, counts where the words say on one side at least that they
    /// count whole things ("goals", "seats"; an index level or an election's margin moves in
    /// fractions), and a rate move in basis points on quarter points.
    fn moves_in_steps(&self, other: &Quantity) -> bool {
        match self.unit {
            Unit::Percent => self.decimals.max(other.decimals) >= 1,
            Unit::Degrees => self.decimals == 0 && other.decimals == 0,
            Unit::Count => self.counts_whole_things || other.counts_whole_things,
            Unit::BasisPoints => {
                self.moves_a_policy_rate
                    && other.moves_a_policy_rate
                    && [self.low, other.low].iter().all(|bps| bps % RATE_STEP_BPS == 0.0)
            }
            Unit::Usd => false,
        }
    }

    /// The inclusive threshold a strict one equals where its figure moves in steps ("above
    /// 4.6%" is "4.7% or more" at one decimal, "over 2.5 goals" and "more than 2 goals" are "3
    /// or more", "above 72°" is "73° or above"): the index lists the market under it too, so
    /// that the two meet. `None` where no step is known.
    pub fn inclusive_equivalent(&self) -> Option<f64> {
        if self.inclusive != Some(false) || !matches!(self.bound, Bound::Above | Bound::Below) {
            return None;
        }
        let above = self.bound == Bound::Above;
        if !self.moves_in_steps(self) {
            return None;
        }
        match self.unit {
            Unit::Percent | Unit::Degrees => {
                let step = 10f64.powi(-i32::from(self.decimals));
                Some(if above { self.low + step } else { self.low - step })
            }
            Unit::Count => Some(if above {
                self.low.floor() + 1.0
            } else {
                self.low.ceil() - 1.0
            }),
            Unit::BasisPoints => Some(if above {
                self.low + RATE_STEP_BPS
            } else {
                self.low - RATE_STEP_BPS
            }),
            Unit::Usd => None,
        }
    }

    /// For a count, the strict threshold at a half ("over 2.5 goals", the books' line) and the
    /// inclusive whole one next to it ("3 or more goals"): a count is whole, so both say
    /// "at least 3" ("under 2.5" and "2 or fewer" both "at most 2").
    fn same_whole_counts(&self, inclusive: &Quantity) -> bool {
        let is_whole = |value: f64| value.fract() == 0.0;
        if self.unit != Unit::Count || !is_whole(inclusive.low) || self.low.fract() != 0.5 {
            return false;
        }
        let nearest_whole = match self.bound {
            Bound::Above => self.low.ceil(),
            _ => self.low.floor(),
        };
        nearest_whole == inclusive.low
    }
}

fn trim(number: f64) -> String {
    if number.fract() == 0.0 && number.abs() < 1e15 {
        format!("{}", number as i64)
    } else {
        format!("{number:.2}")
    }
}

const ABOVE_WORDS: [&[&str]; 14] = [
    &["above"],
    &["over"],
    &["more", "than"],
    &["greater", "than"],
    &["higher", "than"],
    &["at", "least"],
    &["exceed"],
    &["exceeds"],
    &["surpass"],
    &["reach"],
    &["hit"],
    &["hits"],
    &["break"],
    &["top"],
];
const BELOW_WORDS: [&[&str]; 10] = [
    &["below"],
    &["under"],
    &["less", "than"],
    &["fewer", "than"],
    &["lower", "than"],
    &["at", "most"],
    &["dip", "to"],
    &["fall", "to"],
    &["drop", "to"],
    &["dip", "below"],
];

/// Reads the quantities and labels among the unused tokens, marking the tokens it used.
pub fn extract(tokens: &mut [Token]) -> Numbers {
    let mut numbers = Numbers::default();
    let names = |words: &[&str]| tokens.iter().any(|token| words.contains(&token.lower.as_str()));
    let names_a_policy_rate =
        names(&["rate", "rates"]) && !names(&["yield", "yields", "spread", "spreads", "mortgage", "treasury"]);
    let mut index = 0;
    while index < tokens.len() {
        let is_year = tokens[index].year().is_some() && !tokens[index].gap_before.ends_with('$');
        // "U-3", "COVID-19", "F-35": a number hyphened to a word is part of a name.
        let names_something = tokens[index].gap_before == "-" && index > 0 && !tokens[index - 1].starts_with_digit();
        // "Round of 16": which match, not a threshold.
        let names_a_round = index >= 2 && tokens[index - 2].lower == "round" && tokens[index - 1].lower == "of";
        // "12-month inflation", "30-day average", "within 2 weeks", "in his first 100 days":
        // a span the question is asked over, not a threshold. ("Will the shutdown last more
        // than 30 days?" keeps its threshold: no window word stands before it.)
        let before_a_time_unit = tokens.get(index + 1).is_some_and(|next| {
            matches!(
                next.lower.as_str(),
                "month" | "months" | "year" | "years" | "week" | "weeks" | "day" | "days" | "hour" | "hours"
            )
        });
        let after_a_window_word = index
            .checked_sub(1)
            .is_some_and(|previous| matches!(tokens[previous].lower.as_str(), "within" | "next" | "first" | "past"));
        let names_a_span = before_a_time_unit && (tokens[index].gap_after == "-" || after_a_window_word);
        // "Super Bowl LX" is "Super Bowl 60".
        if !tokens[index].used
            && let Some(number) = roman_numeral(&tokens[index].text)
            && let Some(noun) = label_noun(tokens, index)
        {
            numbers.labels.push(Label {
                noun,
                number: f64::from(number),
            });
            tokens[index].used = true;
            index += 1;
            continue;
        }
        if tokens[index].used
            || !(tokens[index].starts_with_digit() || spelled_with_a_direction(tokens, index))
            || is_year
            || names_something
            || names_a_span
            || names_a_round
        {
            index += 1;
            continue;
        }
        let Some(first) = parse(tokens, index) else {
            index += 1;
            continue;
        };
        let mut quantity = Quantity {
            low: first.value,
            high: first.value,
            unit: first.unit,
            bound: Bound::Unstated,
            inclusive: None,
            decimals: first.decimals,
            counted: Counted::Unsaid,
            counts_whole_things: false,
            moves_a_policy_rate: first.unit == Unit::BasisPoints && names_a_policy_rate,
        };
        let mut last = first.last_token;
        // "250-500k", "$2,500-2,600", "between 100 and 119", "10 to 20"
        let range_joiner = |token: &Token| {
            let gap = token.gap_after.trim();
            gap == "-"
        };
        let second_at = if range_joiner(&tokens[last]) {
            Some(last + 1)
        } else {
            tokens
                .get(last + 1)
                .filter(|joiner| joiner.lower == "and" || joiner.lower == "to")
                .map(|_| last + 2)
        };
        if let Some(second_at) = second_at
            && tokens
                .get(second_at)
                .is_some_and(|token| !token.used && (token.starts_with_digit() || spelled(&token.lower).is_some()))
            && let Some(second) = parse(tokens, second_at)
        {
            let scale = if first.explicit_scale { 1.0 } else { second.scale };
            quantity.low = first.value * scale;
            quantity.high = second.value;
            quantity.unit = if second.unit == Unit::Count {
                first.unit
            } else {
                second.unit
            };
            // Kalshi's buckets of one value ("Will 2 to 2 bills become law?") are that value.
            quantity.bound = if quantity.low == quantity.high {
                Bound::Exact
            } else {
                Bound::Between
            };
            quantity.decimals = first.decimals.max(second.decimals);
            last = second.last_token;
        } else if let Some((counted, sign)) = line_before(tokens, index) {
            // Over the line: the total's Over, the favourite's margin over 8.5, the
            // underdog's "(+8.5)" a margin over -8.5 (it wins, or loses by less).
            (quantity.counted, quantity.bound, quantity.inclusive) = (counted, Bound::Above, Some(false));
            (quantity.low, quantity.high) = (sign * quantity.low, sign * quantity.high);
        } else {
            (quantity.bound, quantity.inclusive) = bound_around(tokens, index, last);
            quantity.counted = counted_after_a_bound(tokens, index, last);
        }
        // A game's total counts points, goals or runs; a margin may be an election's, in
        // fractions of a point.
        quantity.counts_whole_things = quantity.counted == Counted::Total
            || (quantity.counted == Counted::Unsaid && counts_things_after(tokens, last));
        let bare = quantity.unit == Unit::Count && quantity.bound == Bound::Unstated && !first.explicit_scale;
        match bare.then(|| label_noun(tokens, index)).flatten() {
            Some(noun) => numbers.labels.push(Label {
                noun,
                number: quantity.low,
            }),
            None => numbers.quantities.push(quantity),
        }
        for token in &mut tokens[index..=last] {
            token.used = true;
        }
        index = last + 1;
    }
    numbers
}

struct Parsed {
    value: f64,
    decimals: u8,
    unit: Unit,
    /// The multiplier of a suffix or scale word (1 when none).
    scale: f64,
    explicit_scale: bool,
    last_token: usize,
}

/// A number written as a word ("two", "ten"), as questions spell small counts.
fn spelled(word: &str) -> Option<f64> {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    ];
    WORDS
        .iter()
        .position(|spelled| *spelled == word)
        .map(|value| value as f64)
}

/// Whether `tokens[index]` is a spelled number with a direction or range around it ("two or
/// more", "at least three", "between two and four", "fewer than ten") or before "times": a
/// count the question turns on. A spelled number alone is read as no threshold: "the two
/// leaders", "one of the candidates" describe, and the other exchange's words rarely repeat
/// them.
fn spelled_with_a_direction(tokens: &[Token], index: usize) -> bool {
    if spelled(&tokens[index].lower).is_none() {
        return false;
    }
    let in_a_range = |at: usize| {
        tokens
            .get(at)
            .is_some_and(|joiner| matches!(joiner.lower.as_str(), "and" | "to"))
            && tokens.get(at + 1).is_some_and(|other| spelled(&other.lower).is_some())
    };
    let after_between = index > 0 && tokens[index - 1].lower == "between";
    // "cut rates three times": how many times is the question.
    let times = tokens.get(index + 1).is_some_and(|next| next.lower == "times");
    after_between || times || in_a_range(index + 1) || bound_around(tokens, index, index).0 != Bound::Unstated
}

fn parse(tokens: &[Token], index: usize) -> Option<Parsed> {
    let token = &tokens[index];
    if let Some(value) = spelled(&token.lower) {
        return Some(Parsed {
            value,
            decimals: 0,
            unit: Unit::Count,
            scale: 1.0,
            explicit_scale: false,
            last_token: index,
        });
    }
    let digits: String = token
        .lower
        .chars()
        .take_while(|character| character.is_ascii_digit() || *character == ',' || *character == '.')
        .collect();
    let suffix = &token.lower[digits.len()..];
    if matches!(suffix, "st" | "nd" | "rd" | "th") {
        return None;
    }
    let value: f64 = digits.replace(',', "").parse().ok()?;
    let decimals = digits
        .split_once('.')
        .map_or(0, |(_whole, fraction)| fraction.len().min(9) as u8);
    let mut last_token = index;
    let mut scale = match suffix {
        "" => 1.0,
        "k" => 1e3,
        "m" | "mm" => 1e6,
        "b" | "bn" => 1e9,
        "t" | "tn" => 1e12,
        "bps" | "bp" => 1.0,
        // "°", "°F", "°C", transliterated.
        "deg" | "degf" | "degc" => 1.0,
        _ => return None,
    };
    let mut unit = match suffix {
        "bps" | "bp" => Unit::BasisPoints,
        "deg" | "degf" | "degc" => Unit::Degrees,
        _ => Unit::Count,
    };
    if let Some(next) = tokens
        .get(index + 1)
        .filter(|next| next.gap_before.trim_matches([' ', '+']).is_empty())
    {
        let word_scale = match next.lower.as_str() {
            "thousand" => Some(1e3),
            "million" => Some(1e6),
            "billion" => Some(1e9),
            "trillion" => Some(1e12),
            _ => None,
        };
        if let Some(word_scale) = word_scale.filter(|_| scale == 1.0) {
            scale = word_scale;
            last_token = index + 1;
        } else if next.lower == "percent" {
            unit = Unit::Percent;
            last_token = index + 1;
        } else if matches!(next.lower.as_str(), "degrees" | "degree" | "deg" | "degf" | "degc") {
            unit = Unit::Degrees;
            last_token = index + 1;
        } else if next.lower == "bps" || next.lower == "bp" || next.lower == "basis" {
            unit = Unit::BasisPoints;
            last_token = index + 1 + usize::from(next.lower == "basis");
        }
    }
    if token.gap_before.ends_with('$') {
        unit = Unit::Usd;
    } else if token.gap_after.starts_with('%') {
        unit = Unit::Percent;
    }
    Some(Parsed {
        value: value * scale,
        decimals,
        unit,
        scale,
        explicit_scale: scale != 1.0,
        last_token,
    })
}

/// The direction stated around a single number (words before it, or "+", "or more" after),
/// and whether the number itself is included.
fn bound_around(tokens: &[Token], first: usize, last: usize) -> (Bound, Option<bool>) {
    let plus = |index: usize| tokens[index].gap_after.trim_start().starts_with('+');
    if plus(first) || plus(last) {
        return (Bound::Above, Some(true));
    }
    let before = tokens[first].gap_before.trim_end().trim_end_matches('$').trim_end();
    for (sign, bound) in [('>', Bound::Above), ('<', Bound::Below)] {
        if let Some(rest) = before.strip_suffix('=') {
            if rest.ends_with(sign) {
                return (bound, Some(true));
            }
        } else if before.ends_with(sign) {
            return (bound, Some(false));
        }
    }
    let exact_before = |phrase: &[&str]| {
        first >= phrase.len()
            && tokens[first - phrase.len()..first]
                .iter()
                .zip(phrase)
                .all(|(token, word)| token.lower == *word)
    };
    if let Some(open_end) = open_end_after(tokens, last) {
        return (open_end, Some(true));
    }
    let ends_before = |phrase: &[&str]| {
        first >= phrase.len()
            && tokens[first - phrase.len()..first]
                .iter()
                .zip(phrase)
                .all(|(token, word)| token.lower == *word)
    };
    if first > 0 && is_rank_cutoff(tokens, first - 1) {
        // The top 4 are places 1 to 4.
        (Bound::Below, Some(true))
    } else if let Some(phrase) = ABOVE_WORDS.iter().find(|phrase| ends_before(phrase)) {
        (Bound::Above, inclusion_of(phrase))
    } else if let Some(phrase) = BELOW_WORDS.iter().find(|phrase| ends_before(phrase)) {
        (Bound::Below, inclusion_of(phrase))
    } else if [&["be"][..], &["exactly"], &["is"], &["equal", "to"]]
        .iter()
        .any(|phrase| exact_before(phrase))
    {
        (Bound::Exact, Some(true))
    } else {
        (Bound::Unstated, None)
    }
}

/// Whether a noun of whole things follows the number, within three words ("2+ goals", "over
/// 24.5 points", "50 or more Senate seats", "3 Fed rate cuts").
fn counts_things_after(tokens: &[Token], last: usize) -> bool {
    const WHOLE_THINGS: &[&str] = &[
        "goal",
        "goals",
        "point",
        "points",
        "run",
        "runs",
        "seat",
        "seats",
        "vote",
        "votes",
        "touchdowns",
        "yards",
        "strikeouts",
        "assists",
        "rebounds",
        "hits",
        "wins",
        "games",
        "sets",
        "maps",
        "launches",
        "cuts",
        "hikes",
        "people",
        "deaths",
        "medals",
        "tweets",
        "posts",
        "bills",
        "orders",
        "pardons",
        "states",
        "delegates",
        "candidates",
        "upsets",
        "shots",
        "aces",
        "birdies",
        "laps",
    ];
    // Not "percentage points", a figure's fraction; not "rounds" ("over 2.5 rounds" is a
    // time within the third) nor "times" ("2 times higher" multiplies).
    let following = || tokens[last + 1..].iter().take(3);
    following().any(|token| WHOLE_THINGS.contains(&token.lower.as_str()))
        && !following().any(|token| token.lower == "percentage")
}

/// The line Polymarket writes before its number, with the sign of the margin: "O/U 46.5" or
/// "Over/Under 46.5" (a total), "Spread: Rockets (-8.5)" (a margin the named side wins by,
/// over 8.5), "Spread: Mavericks (+8.5)" (a margin over -8.5: it does not lose by more).
fn line_before(tokens: &[Token], first: usize) -> Option<(Counted, f64)> {
    let over_under = first >= 2 && {
        let (over, under) = (&tokens[first - 2], &tokens[first - 1]);
        matches!(
            (over.lower.as_str(), under.lower.as_str()),
            ("o", "u") | ("over", "under")
        ) && under.gap_before == "/"
    };
    let gap = tokens[first].gap_before.trim_start();
    // "Arsenal vs. Chelsea: Arsenal O/U 1.5" is Arsenal's goals, not the game's: a name right
    // before the line says whose total it is.
    let whose = first >= 3
        && tokens[first - 3].gap_after == " "
        && tokens[first - 3].is_capitalized()
        && !matches!(tokens[first - 3].lower.as_str(), "total" | "game" | "points" | "match");
    if over_under && !gap.contains('(') && !whose {
        return Some((Counted::Total, 1.0));
    }
    let a_spread = tokens[..first].iter().any(|token| token.lower == "spread");
    match (a_spread, gap.strip_prefix('(')) {
        (true, Some("-")) => Some((Counted::Margin, 1.0)),
        (true, Some("+")) => Some((Counted::Margin, -1.0)),
        _ => None,
    }
}

/// What a number with its direction counts, from the words around it: a margin after a
/// win and "by" ("wins by over 8.5 points", "beat the Packers by more than 3.5 points"), a
/// total before points, goals or runs "scored".
fn counted_after_a_bound(tokens: &[Token], first: usize, last: usize) -> Counted {
    let mut before = tokens[..first].iter().rev().map(|token| token.lower.as_str());
    let by_at = before.by_ref().take(3).position(|word| word == "by").is_some();
    let after_a_win = by_at
        && tokens[..first].iter().any(|token| {
            matches!(
                token.lower.as_str(),
                "win" | "wins" | "won" | "beat" | "beats" | "defeat" | "defeats"
            )
        });
    if after_a_win {
        return Counted::Margin;
    }
    let after: Vec<&str> = tokens[last + 1..]
        .iter()
        .take(4)
        .map(|token| token.lower.as_str())
        .collect();
    // "combine for more than 45.5 points": both sides' points together.
    let combined = tokens[..first]
        .iter()
        .any(|token| matches!(token.lower.as_str(), "combine" | "combined"));
    match after.as_slice() {
        // Not by someone named ("goals scored by Arsenal"): that side's.
        ["points" | "goals" | "runs", "scored", "by", ..] | ["points" | "goals" | "runs", "be", "scored", "by"] => {
            Counted::Unsaid
        }
        // Scored by no one named, in the passive ("Will over 1.5 goals be scored?"), too.
        ["points" | "goals" | "runs", "scored", ..]
        | ["points" | "goals" | "runs", "be", "scored", ..]
        | ["total", "points" | "goals" | "runs", ..] => Counted::Total,
        ["points" | "goals" | "runs", ..] if combined => Counted::Total,
        _ => Counted::Unsaid,
    }
}

/// The open end written after a number ("or more", "and above"), directly or after the
/// words naming what is counted ("2 goals or more", "$15 per hour or higher", "5 points or
/// fewer"): at most three plain words, none a number, with no punctuation between them.
fn open_end_after(tokens: &[Token], last: usize) -> Option<Bound> {
    const UNIT_WORDS_AT_MOST: usize = 3;
    for at in last + 1..=last + 1 + UNIT_WORDS_AT_MOST {
        let (word, next) = (tokens.get(at)?, tokens.get(at + 1));
        // The unit's sign may sit between the number and the words ("4.5% or more").
        if tokens[at - 1]
            .gap_after
            .chars()
            .any(|character| ",;:?!()".contains(character))
        {
            return None;
        }
        if matches!(word.lower.as_str(), "or" | "and")
            && let Some(next) = next
        {
            match (word.lower.as_str(), next.lower.as_str()) {
                ("or", "more" | "higher" | "greater" | "above" | "over")
                | ("and", "above" | "over" | "up" | "higher") => return Some(Bound::Above),
                ("or", "less" | "fewer" | "lower" | "below" | "under") | ("and", "below" | "under" | "lower") => {
                    return Some(Bound::Below);
                }
                _ => return None,
            }
        }
        if word.used || !word.text.chars().all(|character| character.is_ascii_alphabetic()) {
            return None;
        }
    }
    None
}

/// Whether a direction word includes its number: "at least" and "at most" do; "above",
/// "over", "more than", "below", "under", "less than" do not; verbs of reaching leave it to
/// the rules.
fn inclusion_of(phrase: &[&str]) -> Option<bool> {
    match phrase {
        ["at", "least"] | ["at", "most"] => Some(true),
        ["above"]
        | ["over"]
        | ["more", "than"]
        | ["greater", "than"]
        | ["higher", "than"]
        | ["below"]
        | ["under"]
        | ["less", "than"]
        | ["fewer", "than"]
        | ["lower", "than"] => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenize;
    use super::*;

    fn quantities(question: &str) -> Vec<Quantity> {
        extract(&mut tokenize(question)).quantities
    }

    fn labels(question: &str) -> Vec<String> {
        extract(&mut tokenize(question))
            .labels
            .iter()
            .map(Label::describe)
            .collect()
    }

    fn one(question: &str) -> Quantity {
        let found = quantities(question);
        assert_eq!(found.len(), 1, "{question}: {found:?}");
        found[0]
    }

    #[test]
    fn reads_dollar_thresholds_in_both_exchanges_spellings() {
        // Polymarket 516864 and Kalshi KXBTCMAX150-25 (title and rules).
        let polymarket = one("Will Bitcoin reach $150,000 by December");
        let kalshi = one("When will Bitcoin hit $150k?");
        let rules = one("If the price of Bitcoin is above 149999.99 by");
        assert_eq!(polymarket.bound, Bound::Above);
        assert!(polymarket.agrees_with(&kalshi));
        assert_eq!(rules.unit, Unit::Count);
        assert!(!polymarket.agrees_with(&one("Will Bitcoin reach $130,000 by December")));
        assert!(!polymarket.agrees_with(&one("Will Bitcoin dip to $150,000 by December")));
    }

    #[test]
    fn reads_ranges_with_the_unit_written_once() {
        // Polymarket 516484, 516929 and 517311.
        let spending = one("Will federal spending decrease by $500-750b between");
        assert_eq!((spending.low, spending.high, spending.unit), (500e9, 750e9, Unit::Usd));
        assert_eq!(spending.bound, Bound::Between);
        let gold = one("Will Gold close at $2,600-2,700 at the end");
        assert_eq!((gold.low, gold.high), (2600.0, 2700.0));
        let deport = one("Will Trump deport 250,000-500,000 people?");
        assert_eq!(
            (deport.low, deport.high, deport.unit),
            (250_000.0, 500_000.0, Unit::Count)
        );
        let launches = one("Will SpaceX have between 100-119 launches");
        assert_eq!((launches.low, launches.high), (100.0, 119.0));
    }

    #[test]
    fn reads_percentages_basis_points_and_open_ends() {
        let unemployment = one("Brazil unemployment below 6.3% for");
        assert_eq!(
            (unemployment.low, unemployment.unit, unemployment.bound),
            (6.3, Unit::Percent, Bound::Below)
        );
        let cuts = one("Fed cuts 50+ bps");
        assert_eq!(
            (cuts.low, cuts.unit, cuts.bound),
            (50.0, Unit::BasisPoints, Bound::Above)
        );
        let many = one("Will 8+ Fed rate cuts happen");
        assert_eq!((many.low, many.bound), (8.0, Bound::Above));
        let more = one("Will Trump deport 2,000,000 or more people?");
        assert_eq!(more.bound, Bound::Above);
        let tariffs = one("Will tariffs generate >$250b in 2025?");
        assert_eq!(
            (tariffs.low, tariffs.bound, tariffs.unit),
            (250e9, Bound::Above, Unit::Usd)
        );
        let fewer = one("Will Trump deport less than 250,000?");
        assert_eq!(fewer.bound, Bound::Below);
    }

    fn above_four_six() -> Quantity {
        one("Will the unemployment rate (U-3) be above 4.6% in January?")
    }

    #[test]
    fn an_included_boundary_is_not_an_excluded_one_unless_a_step_apart() {
        let at_least = one("Will the January 2026 unemployment rate be ≥4.7%?");
        assert_eq!(
            (at_least.bound, at_least.inclusive, at_least.decimals),
            (Bound::Above, Some(true), 1)
        );
        let above = one("Will the unemployment rate (U-3) be above 4.6% in January?");
        assert_eq!((above.bound, above.inclusive), (Bound::Above, Some(false)));
        assert_eq!(at_least.boundary_with(&above), Some(Boundary::OneStepApart));
        assert_eq!(above.boundary_with(&at_least), Some(Boundary::OneStepApart));
        // The same number included on one side and not on the other differs at it.
        assert_eq!(
            one("Will it be above 4.6%?").boundary_with(&one("Will it be 4.6% or more?")),
            None
        );
        // Two steps apart, or the strict one above the inclusive one: other thresholds.
        assert_eq!(one("above 4.5%").boundary_with(&one("at least 4.7%")), None);
        assert_eq!(one("above 4.7%").boundary_with(&one("at least 4.6%")), None);
        assert_eq!(
            one("more than 0.4%").boundary_with(&one("0.5% or more")),
            Some(Boundary::OneStepApart)
        );
        // Counts are whole, and temperatures reported in whole degrees.
        assert_eq!(
            one("more than 5 goals").boundary_with(&one("6+ goals")),
            Some(Boundary::OneStepApart)
        );
        assert_eq!(
            one("above 72°").boundary_with(&one("73° or above")),
            Some(Boundary::OneStepApart)
        );
        assert_eq!(one("more than 5 goals").boundary_with(&one("7+ goals")), None);
        // Dollars are not published in steps: "above $149,999" is not "$150,000 or more".
        assert_eq!(one("above $149,999").boundary_with(&one("$150,000 or more")), None);
        assert_eq!(
            one("reach $150,000").boundary_with(&one("above $150,000")),
            Some(Boundary::Same)
        );
        // "Exactly" is not "above"; a bare number is not "more than" itself.
        let exactly = one("Will the January 2026 unemployment rate be 4.6%?");
        assert_eq!(exactly.bound, Bound::Exact);
        assert_eq!(exactly.boundary_with(&above_four_six()), None);
        assert_eq!(
            one("Will monthly inflation increase by 0.1% in February?")
                .boundary_with(&one("Will CPI rise more than 0.1% in February 2026?")),
            None
        );
    }

    #[test]
    fn rate_moves_step_by_quarter_points() {
        let more_than_25 = one("Will the Federal Reserve Hike rates by >25bps at their June 2026 meeting?");
        let fifty_or_more = one("Will the Fed increase interest rates by 50+ bps after the June 2026 meeting?");
        assert_eq!(more_than_25.boundary_with(&fifty_or_more), Some(Boundary::OneStepApart));
        assert_eq!(more_than_25.inclusive_equivalent(), Some(50.0));
        // A yield or a spread moves in any step.
        assert_eq!(
            one("Will the 10-year Treasury yield rise by 50+ bps in 2025?").boundary_with(&one(
                "Will the 10-year Treasury yield rise by more than 25 bps in 2025?"
            )),
            None
        );
        // Not two steps, nor off the quarter points, nor the same number on both sides.
        assert_eq!(
            more_than_25.boundary_with(&one("Fed increases rates by 75+ bps?")),
            None
        );
        assert_eq!(
            one("cut by more than 10bps").boundary_with(&one("cut by 35+ bps")),
            None
        );
        assert_eq!(
            more_than_25.boundary_with(&one("Fed increases rates by 25+ bps?")),
            None
        );
    }

    #[test]
    fn a_bare_count_is_exact_against_a_stated_open_end() {
        // "8 times" is exactly 8; "8+" is 8 or more: nine cuts resolve them apart.
        let times = one("Will the Fed cut rates 8 times?");
        assert_eq!(times.bound, Bound::Unstated);
        assert_eq!(times.boundary_with(&one("Will 8+ Fed rate cuts happen in 2025?")), None);
        assert_eq!(
            one("Will the Federal Reserve Hike rates by 25bps at their October 2025 meeting?").boundary_with(&one(
                "Fed increases interest rates by 25+ bps after October 2025 meeting?"
            )),
            None
        );
        assert_eq!(times.boundary_with(&one("at least 8")), None);
        // Two bare counts, or a bare number against a verb of reaching, still agree.
        assert_eq!(
            times.boundary_with(&one("Will 8 Fed rate cuts happen in 2025?")),
            Some(Boundary::Same)
        );
        assert_eq!(
            one("Bitcoin $150,000 in 2025").boundary_with(&one("Will Bitcoin reach $150,000")),
            Some(Boundary::Same)
        );
    }

    #[test]
    fn reads_temperatures_with_their_degrees() {
        let tail = one("Highest temperature in NYC? — 72° or above");
        assert_eq!((tail.low, tail.unit, tail.bound), (72.0, Unit::Degrees, Bound::Above));
        let fahrenheit = one("Will the highest temperature in NYC be 72°F or higher?");
        assert_eq!(fahrenheit.boundary_with(&tail), Some(Boundary::Same));
        let band = one("Will the highest temperature in NYC be between 72-73°F?");
        assert_eq!(
            (band.low, band.high, band.unit, band.bound),
            (72.0, 73.0, Unit::Degrees, Bound::Between)
        );
        // A band is not a tail.
        assert_eq!(band.boundary_with(&tail), None);
        assert_eq!(one("at least 72 degrees").unit, Unit::Degrees);
    }

    #[test]
    fn a_hyphened_span_is_not_a_threshold() {
        assert_eq!(
            one("Brazil's 12-month inflation below 5.50% for December 2025?").low,
            5.5
        );
    }

    #[test]
    fn skips_ordinals() {
        assert!(quantities("on the 16th").is_empty());
    }

    #[test]
    fn a_number_that_says_which_one_is_a_label() {
        assert_eq!(labels("Who will win Nets vs. Celtics: Game 4?"), ["game 4"]);
        assert_eq!(
            labels("Will the Seahawks or the Rams win their week 10 NFL matchup?"),
            ["week 10"]
        );
        assert_eq!(labels("Will Apple Inc. release iPhone 18 in 2027?"), ["iphone 18"]);
        assert_eq!(
            labels("What will the final score points spread be for Super Bowl 55?"),
            ["bowl 55"]
        );
        assert!(quantities("Who will win Nets vs. Celtics: Game 4?").is_empty());
        assert_eq!(labels("Will Bad Bunny perform at Super Bowl LX?"), ["bowl 60"]);
        assert_eq!(roman_numeral("LXXXIX"), Some(89));
        assert_eq!(roman_numeral("XIV"), Some(14));
        assert_eq!(roman_numeral("IIII"), None);
        assert_eq!(roman_numeral("DC"), None);
        assert_eq!(roman_numeral("I"), None);
    }

    #[test]
    fn a_bare_sum_of_money_is_a_level_to_reach() {
        assert!(one("Will El Salvador hold $1b+ of BTC?").agrees_with(&one("Will its holdings be worth $1 billion?")));
        assert!(!one("Will the Fed cut rates 8+ times?").agrees_with(&one("Will the Fed cut rates 8 times?")));
        // A level to reach, not one to stay under.
        assert!(!one("Will Bitcoin be worth $80,000?").agrees_with(&one("Will Bitcoin be $80,000 or less?")));
    }

    #[test]
    fn an_open_end_may_follow_what_is_counted() {
        for (question, bound) in [
            ("Will Mbappe score 2 goals or more?", Bound::Above),
            ("Will Harris win by 5 points or more?", Bound::Above),
            ("Will the minimum wage be $15 per hour or higher?", Bound::Above),
            ("Will the high be 90° and above?", Bound::Above),
            ("Will SpaceX have 100 launches or fewer in 2026?", Bound::Below),
        ] {
            let quantity = one(question);
            assert_eq!((quantity.bound, quantity.inclusive), (bound, Some(true)), "{question}");
        }
        assert!(one("Will Mbappe score 2 goals or more?").agrees_with(&one("Will Mbappe score 2+ goals?")));
        // Not across punctuation, another number or a long phrase: those say something else.
        for question in [
            "Will Mbappe score 2 goals, or more assists?",
            "Will Mbappe score 2 goals in the final or more?",
        ] {
            assert_eq!(one(question).bound, Bound::Unstated, "{question}");
        }
    }

    #[test]
    fn a_window_of_time_is_no_threshold() {
        for question in [
            "Will Trump be impeached in the next 2 years?",
            "Will Harris be the nominee within 2 weeks?",
            "Will it pass in his first 100 days?",
            "Will 12-month inflation rise?",
        ] {
            assert!(quantities(question).is_empty(), "{question}");
        }
        assert_eq!(one("Will the shutdown last more than 30 days?").bound, Bound::Above);
    }

    #[test]
    fn a_spelled_count_is_read_where_a_direction_or_range_turns_on_it() {
        assert!(
            one("Will there be two or more Fed cuts in 2026?").agrees_with(&one("Will there be 2+ Fed cuts in 2026?"))
        );
        assert_eq!(one("Will fewer than ten candidates qualify?").bound, Bound::Below);
        let range = one("Will Trump pardon between two and four people?");
        assert_eq!((range.low, range.high, range.bound), (2.0, 4.0, Bound::Between));
        let bucket = one("Will 2 to 2 bills become law in Mar 2026?");
        assert_eq!((bucket.low, bucket.high, bucket.bound), (2.0, 2.0, Bound::Exact));
        assert!(
            one("Will the Fed cut rates three times in 2026?")
                .agrees_with(&one("Will the Fed cut rates 3 times in 2026?"))
        );
        // Alone, a spelled number describes.
        assert!(quantities("Will the two leaders meet in 2026?").is_empty());
        assert!(quantities("Will one of them win?").is_empty());
    }

    #[test]
    fn the_top_places_are_a_cutoff_in_either_case() {
        let lower = one("Will Arsenal finish in the top 4?");
        assert_eq!(
            (lower.low, lower.bound, lower.inclusive),
            (4.0, Bound::Below, Some(true))
        );
        let mut capitals = tokenize("Will Arsenal finish Top 4 in the Premier League?");
        assert!(
            super::super::entities::extract(&mut capitals)
                .subjects
                .iter()
                .all(|subject| subject.words != ["top", "4"])
        );
        let capitals = extract(&mut capitals).quantities;
        assert_eq!(capitals.len(), 1);
        assert_eq!(capitals[0].boundary_with(&lower), Some(Boundary::Same));
        assert!(!lower.agrees_with(&one("Will Arsenal finish in the top 6?")));
        // A verb before an amount is a threshold reached, a title's capital no rank.
        assert_eq!(one("Will Bitcoin top $100k?").bound, Bound::Above);
        assert!(quantities("Will Top Gun 3 be released?").is_empty());
        let mut masters = tokenize("Masters Top 10 finish? — Scottie Scheffler");
        super::super::entities::extract(&mut masters);
        assert_eq!(extract(&mut masters).quantities[0].bound, Bound::Below);
        // Kalshi opens a clause with it after the name.
        let mut kane = tokenize("Harry Kane: Top 3 in the 2026 men's Ballon d'Or?");
        let kane_entities = super::super::entities::extract(&mut kane);
        assert!(
            kane_entities
                .subjects
                .iter()
                .all(|subject| subject.words != ["top", "3"])
        );
        let kane = extract(&mut kane).quantities;
        assert_eq!((kane[0].low, kane[0].bound), (3.0, Bound::Below));
    }

    #[test]
    fn reads_what_a_games_line_counts() {
        for (question, counted, bound) in [
            ("Colts vs. Commanders: O/U 46.5", Counted::Total, Bound::Above),
            ("Colts vs. Commanders: Over/Under 46.5", Counted::Total, Bound::Above),
            ("Full Game: over 46.5 points scored?", Counted::Total, Bound::Above),
            ("Spread: Rockets (-8.5)", Counted::Margin, Bound::Above),
            ("Spread: Mavericks (+8.5)", Counted::Margin, Bound::Above),
            ("Houston wins by over 8.5 points?", Counted::Margin, Bound::Above),
            (
                "NFL: Will the Falcons beat the Panthers by more than 3.5 points in their October 31st matchup?",
                Counted::Margin,
                Bound::Above,
            ),
            (
                "Will there be more than 56 points in Super Bowl 55?",
                Counted::Unsaid,
                Bound::Above,
            ),
            ("Will CPI rise by more than 0.3%?", Counted::Unsaid, Bound::Above),
            (
                "Will the Chiefs and Jaguars combine for more than 45.5 points?",
                Counted::Total,
                Bound::Above,
            ),
            (
                "Chiefs vs. Jaguars: Will there be more than 45.5 total points?",
                Counted::Total,
                Bound::Above,
            ),
            ("Rockets vs. Mavericks: Total O/U 229.5", Counted::Total, Bound::Above),
            ("Will over 1.5 goals be scored?", Counted::Total, Bound::Above),
            ("Will Arsenal score over 1.5 goals?", Counted::Unsaid, Bound::Above),
            (
                "Will over 1.5 goals be scored by Arsenal against Chelsea?",
                Counted::Unsaid,
                Bound::Above,
            ),
        ] {
            let quantity = one(question);
            assert_eq!((quantity.counted, quantity.bound), (counted, bound), "{question}");
        }
        let total = one("Colts vs. Commanders: O/U 46.5");
        assert!(total.agrees_with(&one("Full Game: over 46.5 points scored?")));
        assert!(!total.agrees_with(&one("Will there be more than 46.5 points?")));
        assert!(
            quantities("Arsenal vs. Chelsea: Arsenal O/U 46.5")
                .iter()
                .all(|team| team.counted != Counted::Total)
        );
        // The underdog's line is its margin over -8.5: not the favourite's, nor "fewer than".
        let underdog = one("Spread: Mavericks (+8.5)");
        assert_eq!(underdog.low, -8.5);
        assert!(!underdog.agrees_with(&one("Will Dallas win by fewer than 8.5 points?")));
        assert!(!total.agrees_with(&one("Indianapolis wins by over 46.5 points?")));
    }

    #[test]
    fn a_line_at_a_half_is_the_whole_count_next_to_it() {
        let over = one("Will the Lakers score over 110.5 points?");
        assert_eq!(
            over.boundary_with(&one("Will the Lakers score 111 or more points?")),
            Some(Boundary::OneStepApart)
        );
        assert_eq!(one("111+ points").boundary_with(&over), Some(Boundary::OneStepApart));
        assert_eq!(
            one("under 2.5 goals").boundary_with(&one("2 or fewer goals")),
            Some(Boundary::OneStepApart)
        );
        // The next whole count only, and counts only.
        assert_eq!(over.boundary_with(&one("112 or more points")), None);
        assert_eq!(over.boundary_with(&one("110 or more points")), None);
        assert_eq!(one("under 2.5 goals").boundary_with(&one("3 or fewer goals")), None);
        assert_eq!(one("above 4.5%").boundary_with(&one("5% or more")), None);
        assert_eq!(one("above $2.5").boundary_with(&one("$3 or more")), None);
        // Not a percentage written whole, a temperature with decimals, an election's margin,
        // percentage points, rounds of a fight, a multiplier.
        for (strict, inclusive) in [
            (
                "Will the unemployment rate be above 4%?",
                "Will the unemployment rate be 5% or more?",
            ),
            ("Will the anomaly be above 1.5°?", "Will the anomaly be 1.6° or more?"),
            (
                "Will Mamdani win by more than 10 points?",
                "Will Mamdani win by 11 points or more?",
            ),
            (
                "Will he win by more than 10 percentage points?",
                "Will he win by 11 percentage points or more?",
            ),
            (
                "Will the fight go over 2.5 rounds?",
                "Will the fight last 3 rounds or more?",
            ),
            (
                "Will Bitcoin be more than 2 times higher?",
                "Will Bitcoin be 3 times higher or more?",
            ),
        ] {
            assert_eq!(
                one(strict).boundary_with(&one(inclusive)),
                None,
                "{strict} | {inclusive}"
            );
            assert_eq!(one(strict).inclusive_equivalent(), None, "{strict}");
        }
        // Only where the words count whole things: an index level moves in fractions.
        assert_eq!(
            one("Will the VIX close above 20.5?").boundary_with(&one("Will the VIX close at 21 or above?")),
            None
        );
        assert_eq!(
            one("Will the VIX close above 20?").boundary_with(&one("Will the VIX close at 21 or above?")),
            None
        );
    }

    #[test]
    fn a_count_or_a_stated_direction_stays_a_threshold() {
        // A number before what it counts, or with a direction or unit, is how many.
        assert!(labels("Will 4 Fed rate cuts happen in 2025?").is_empty());
        assert_eq!(quantities("Will 4 Fed rate cuts happen in 2025?").len(), 1);
        assert!(labels("Will the U.S. State Department issue a level 3 or lower warning?").is_empty());
        assert!(labels("Will Bitcoin Top 100k?").is_empty());
        assert!(labels("Will there be over 56 points scored in Super Bowl 55?").len() == 1);
        assert_eq!(
            quantities("Will there be over 56 points scored in Super Bowl 55?").len(),
            1
        );
        assert!(labels("Artturi Lehkonen: 2+ goals").is_empty());
        // A rank is the condition ("a #1 album" is not any album), and a month's day a date.
        assert!(labels("Drake has a #1 album in 2025?").is_empty());
        assert!(labels("Will a #2 seed be the 2026 Men's College Basketball champion?").is_empty());
        assert!(labels("Will Trump release the Epstein files by December 18?").is_empty());
    }
}
