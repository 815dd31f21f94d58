//! Splitting a question into tokens that remember their case and the punctuation before
//! them. The extractors need both: capitals tell names from words ("Will the New York win"),
//! and punctuation tells "$150k" from "150k" and "250-500k" from "250 500k". The shared
//! [`crate::text::words`] throws both away, which is right for search and wrong here.

/// One run of letters and digits, folded to ASCII but keeping its case.
#[derive(Debug, Clone)]
pub struct Token {
    /// As written, transliterated to ASCII ("Yeşilgöz" → "Yesilgoz").
    pub text: String,
    /// Lower-cased `text`.
    pub lower: String,
    /// The characters between the previous token and this one, spaces included.
    pub gap_before: String,
    /// The characters between this token and the next (or the end of the text).
    pub gap_after: String,
    /// Claimed by an extractor; later extractors skip it.
    pub used: bool,
}

impl Token {
    pub fn is_capitalized(&self) -> bool {
        self.text.chars().next().is_some_and(|first| first.is_ascii_uppercase())
    }

    pub fn starts_with_digit(&self) -> bool {
        self.text.chars().next().is_some_and(|first| first.is_ascii_digit())
    }

    /// True when only spaces separate this token from the previous one, so the two can be
    /// parts of one name or one phrase.
    pub fn joined_to_previous(&self) -> bool {
        self.gap_before
            .chars()
            .all(|character| matches!(character, ' ' | '.' | '-' | '\''))
            && !self.gap_before.contains(". ")
    }

    /// A four-digit year between 1990 and 2100, written without separators.
    pub fn year(&self) -> Option<i32> {
        if self.text.len() == 4 && self.text.chars().all(|character| character.is_ascii_digit()) {
            let year: i32 = self.text.parse().ok()?;
            (1990..=2100).contains(&year).then_some(year)
        } else {
            None
        }
    }
}

/// `text` without nicknames quoted inside a name ("Dwayne 'The Rock' Johnson" → "Dwayne
/// Johnson"): the exchanges write them on one side only. A quoted run counts as a nickname
/// when it holds at most three words and sits between two capitalised words.
pub fn without_nicknames(text: &str) -> std::borrow::Cow<'_, str> {
    const OPENING: [char; 4] = ['\'', '"', '\u{2018}', '\u{201c}'];
    const CLOSING: [char; 4] = ['\'', '"', '\u{2019}', '\u{201d}'];
    let starts_capitalised = |text: &str| text.starts_with(|c: char| c.is_uppercase());
    let mut cleaned = String::new();
    let mut copied = 0;
    for (space, _) in text.match_indices(' ') {
        if space < copied {
            continue;
        }
        let after_space = &text[space + 1..];
        let Some(quote) = after_space.chars().next().filter(|c| OPENING.contains(c)) else {
            continue;
        };
        let inner_start = space + 1 + quote.len_utf8();
        let Some(close) = text[inner_start..].find(CLOSING) else {
            continue;
        };
        let inner = &text[inner_start..inner_start + close];
        let closing = text[inner_start + close..].chars().next().map_or(1, char::len_utf8);
        let after = &text[inner_start + close + closing..];
        // After a name, not after the question's first word ("Will \"Hollow Knight: Silksong\"
        // Metascore 95+" quotes a title).
        let previous_capitalised = text[..space].split_whitespace().last().is_some_and(|previous| {
            starts_capitalised(previous)
                && !matches!(
                    previous,
                    "Will" | "Who" | "Which" | "What" | "When" | "Does" | "Is" | "Can"
                )
        });
        let next_capitalised = after.strip_prefix(' ').is_some_and(starts_capitalised);
        if !inner.is_empty() && inner.split_whitespace().count() <= 3 && previous_capitalised && next_capitalised {
            cleaned.push_str(&text[copied..space]);
            copied = inner_start + close + closing;
        }
    }
    if copied == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    cleaned.push_str(&text[copied..]);
    std::borrow::Cow::Owned(cleaned)
}

/// An office's adjective read as its noun: "the NYC mayoral election" is the election of the
/// NYC Mayor, "the Virginia gubernatorial race" the Governor's, as the exchanges write them one
/// way or the other.
fn office_noun(lower: String) -> String {
    match lower.as_str() {
        "mayoral" => "mayor".to_owned(),
        "gubernatorial" => "governor".to_owned(),
        _ => lower,
    }
}

/// The tokens of `text`. Digits keep their inner commas and points ("1,000,000", "3.25")
/// and a letter suffix ("100k", "16th").
pub fn tokenize(text: &str) -> Vec<Token> {
    let folded = deunicode::deunicode(text);
    let characters: Vec<char> = folded.chars().collect();
    // About one token in five characters: one allocation for most questions.
    let mut tokens = Vec::with_capacity(characters.len() / 5 + 1);
    let mut gap = String::new();
    let mut index = 0;
    while index < characters.len() {
        let character = characters[index];
        if !character.is_ascii_alphanumeric() {
            gap.push(character);
            index += 1;
            continue;
        }
        let start = index;
        if character.is_ascii_digit() {
            while index < characters.len() {
                let current = characters[index];
                let inner_separator = (current == ',' || current == '.')
                    && characters.get(index + 1).is_some_and(char::is_ascii_digit)
                    && index > start;
                if current.is_ascii_alphanumeric() || inner_separator {
                    index += 1;
                } else {
                    break;
                }
            }
        } else {
            while index < characters.len() && characters[index].is_ascii_alphanumeric() {
                index += 1;
            }
        }
        let text: String = characters[start..index].iter().collect();
        tokens.push(Token {
            lower: office_noun(text.to_ascii_lowercase()),
            text,
            gap_before: std::mem::take(&mut gap),
            gap_after: String::new(),
            used: false,
        });
    }
    for index in 1..tokens.len() {
        tokens[index - 1].gap_after = tokens[index].gap_before.clone();
    }
    if let Some(last) = tokens.last_mut() {
        last.gap_after = gap;
    }
    tokens
}

/// Whether `tokens[at..]` begins with the lower-case words of `phrase`, each joined to the
/// previous one. Returns the number of tokens matched.
pub fn phrase_at(tokens: &[Token], at: usize, phrase: &[&str]) -> Option<usize> {
    if at + phrase.len() > tokens.len() {
        return None;
    }
    for (offset, word) in phrase.iter().enumerate() {
        let token = &tokens[at + offset];
        if token.used || token.lower != *word || (offset > 0 && !token.joined_to_previous()) {
            return None;
        }
    }
    Some(phrase.len())
}

#[cfg(test)]
mod nickname_tests {
    use super::without_nicknames;

    #[test]
    fn drops_a_quoted_nickname_inside_a_name_only() {
        assert_eq!(
            without_nicknames("Will Dwayne 'The Rock' Johnson win the 2028 Democratic presidential nomination?"),
            "Will Dwayne Johnson win the 2028 Democratic presidential nomination?"
        );
        assert_eq!(
            without_nicknames("Will \"Wicked\" gross $500m?"),
            "Will \"Wicked\" gross $500m?"
        );
        assert_eq!(without_nicknames("Will O'Rourke win?"), "Will O'Rourke win?");
        assert_eq!(
            without_nicknames("Will \"Hollow Knight: Silksong\" Metascore 95+"),
            "Will \"Hollow Knight: Silksong\" Metascore 95+"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_case_numbers_and_the_punctuation_before_each_token() {
        let tokens = tokenize("Will Bitcoin reach $1,000,000 by December 31, 2025?");
        let texts: Vec<&str> = tokens.iter().map(|token| token.text.as_str()).collect();
        assert_eq!(
            texts,
            ["Will", "Bitcoin", "reach", "1,000,000", "by", "December", "31", "2025"]
        );
        assert_eq!(tokens[3].gap_before, " $");
        assert_eq!(tokens[7].year(), Some(2025));
        assert!(tokens[1].is_capitalized());
    }

    #[test]
    fn folds_accents_and_splits_hyphens() {
        let tokens = tokenize("Will Dilan Yeşilgöz-Zegerius become PM? 250-500k");
        assert_eq!(tokens[2].text, "Yesilgoz");
        assert_eq!(tokens[3].gap_before, "-");
        assert_eq!(tokens[6].text, "250");
        assert_eq!(tokens[7].text, "500k");
    }
}
