//! Numbers with their units and direction: the threshold or range a market resolves on.
//!
//! "$150k", "$150,000" and "149999.99" are one threshold; "above 5%" and "below 5%" are two
//! markets; "$250-500b" is a range whose unit is written once. Written here because the
//! fragments are too irregular for a general number parser and too few to need one.

use super::tokens::Token;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    Usd,
    Percent,
    BasisPoints,
    /// A plain count: people, launches, rate cuts, seeds.
    Count,
}

/// Which side of the number resolves Yes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bound {
    /// At or above ("reach $150k", "more than 3%", "8+").
    Above,
    /// At or below ("dip to $90,000", "less than 250,000").
    Below,
    /// Inside `[low, high]` ("$2,600-2,700", "between 100 and 119").
    Between,
    /// The number itself, or a direction the question leaves to its rules.
    Unstated,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quantity {
    pub low: f64,
    pub high: f64,
    pub unit: Unit,
    pub bound: Bound,
}

impl Quantity {
    pub fn describe(&self) -> String {
        let value = |number: f64| match self.unit {
            Unit::Usd => format!("${}", trim(number)),
            Unit::Percent => format!("{}%", trim(number)),
            Unit::BasisPoints => format!("{} bps", trim(number)),
            Unit::Count => trim(number),
        };
        match self.bound {
            Bound::Above => format!("≥ {}", value(self.low)),
            Bound::Below => format!("≤ {}", value(self.low)),
            Bound::Between => format!("{} to {}", value(self.low), value(self.high)),
            Bound::Unstated => value(self.low),
        }
    }

    /// Same unit, same value (to a thousandth: Kalshi writes $150k as 149999.99) and
    /// directions that do not contradict.
    pub fn agrees_with(&self, other: &Quantity) -> bool {
        let close = |left: f64, right: f64| (left - right).abs() <= 1e-3 * left.abs().max(right.abs()).max(1.0);
        let bounds_agree = match (self.bound, other.bound) {
            (Bound::Unstated, bound) | (bound, Bound::Unstated) => bound != Bound::Between,
            (left, right) => left == right,
        };
        self.unit == other.unit && close(self.low, other.low) && close(self.high, other.high) && bounds_agree
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

/// Reads the quantities among the unused tokens, marking the tokens it used.
pub fn extract(tokens: &mut [Token]) -> Vec<Quantity> {
    let mut quantities = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        let is_year = tokens[index].year().is_some() && !tokens[index].gap_before.ends_with('$');
        if tokens[index].used || !tokens[index].starts_with_digit() || is_year {
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
                .is_some_and(|token| !token.used && token.starts_with_digit())
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
            quantity.bound = Bound::Between;
            last = second.last_token;
        } else {
            quantity.bound = bound_around(tokens, index, last);
        }
        for token in &mut tokens[index..=last] {
            token.used = true;
        }
        quantities.push(quantity);
        index = last + 1;
    }
    quantities
}

struct Parsed {
    value: f64,
    unit: Unit,
    /// The multiplier of a suffix or scale word (1 when none).
    scale: f64,
    explicit_scale: bool,
    last_token: usize,
}

fn parse(tokens: &[Token], index: usize) -> Option<Parsed> {
    let token = &tokens[index];
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
    let mut last_token = index;
    let mut scale = match suffix {
        "" => 1.0,
        "k" => 1e3,
        "m" | "mm" => 1e6,
        "b" | "bn" => 1e9,
        "t" | "tn" => 1e12,
        "bps" | "bp" => 1.0,
        _ => return None,
    };
    let mut unit = if suffix == "bps" || suffix == "bp" {
        Unit::BasisPoints
    } else {
        Unit::Count
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
        unit,
        scale,
        explicit_scale: scale != 1.0,
        last_token,
    })
}

/// The direction stated around a single number: words before it, or "+", "or more" after.
fn bound_around(tokens: &[Token], first: usize, last: usize) -> Bound {
    let plus = |index: usize| tokens[index].gap_after.trim_start().starts_with('+');
    if plus(first) || plus(last) {
        return Bound::Above;
    }
    let before = tokens[first].gap_before.trim_end();
    if before.ends_with('>') || before.ends_with(">$") {
        return Bound::Above;
    }
    if before.ends_with('<') || before.ends_with("<$") {
        return Bound::Below;
    }
    let following: Vec<&str> = tokens[last + 1..]
        .iter()
        .take(2)
        .map(|token| token.lower.as_str())
        .collect();
    match following.as_slice() {
        ["or", "more" | "higher" | "greater" | "above"] | ["or", "more", ..] => return Bound::Above,
        ["or", "less" | "fewer" | "lower" | "below"] => return Bound::Below,
        _ => {}
    }
    let ends_before = |phrase: &[&str]| {
        first >= phrase.len()
            && tokens[first - phrase.len()..first]
                .iter()
                .zip(phrase)
                .all(|(token, word)| token.lower == *word)
    };
    if ABOVE_WORDS.iter().any(|phrase| ends_before(phrase)) {
        Bound::Above
    } else if BELOW_WORDS.iter().any(|phrase| ends_before(phrase)) {
        Bound::Below
    } else {
        Bound::Unstated
    }
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenize;
    use super::*;

    fn quantities(question: &str) -> Vec<Quantity> {
        extract(&mut tokenize(question))
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

    #[test]
    fn skips_ordinals() {
        assert!(quantities("on the 16th").is_empty());
    }
}
