//! The words a mention market asks to be said: Polymarket's `Will Powell say "Sorry" or
//! "Pardon" during March press conference?`, Kalshi's "Will Powell say Pardon at his Mar
//! 2026 press conference? — Pardon".
//!
//! Such a market resolves on those words and no others, so the words must be the same on
//! both sides: "Sorry" or "Pardon" is Yes on a "sorry" alone, which Kalshi's "Pardon" is not,
//! and "War" is said in "trade war" where "Trade War" is not said in "war". The subjects
//! cannot tell this: they see the speaker, and words that overlap.

/// Verbs that open what is to be said.
const SAYING: [&str; 5] = ["say", "says", "said", "mention", "mentions"];

/// Words after the said words that start the rest of the question ("… during March press
/// conference", "… at his Mar 2026 press conference").
const AFTER_THE_WORDS: [&str; 7] = ["during", "at", "in", "on", "by", "before", "when"];

/// The words a mention market asks for, lower-case, sorted; `None` when the question asks
/// for no words to be said. Quoted words are the words where there are quotes; otherwise
/// the words up to the rest of the question; where the title leaves them to the choice
/// ("What will JD Vance say during …? — Marine"), the choice. Alternatives ("X" or "Y",
/// "Shutdown / Shut Down") are each a word of the set.
pub fn said_words(question: &str) -> Option<Vec<String>> {
    let (title, choice) = match question.rsplit_once(" \u{2014} ") {
        Some((title, choice)) => (title, Some(choice)),
        None => (question, None),
    };
    let after_the_verb = after_saying(title)?;
    let quoted = quoted_runs(after_the_verb);
    let words = if quoted.is_empty() {
        let unquoted = up_to_the_rest(after_the_verb);
        if unquoted.trim().is_empty() {
            alternatives(choice?)
        } else {
            alternatives(unquoted)
        }
    } else {
        quoted.into_iter().flat_map(alternatives).collect()
    };
    let mut words: Vec<String> = words.into_iter().filter(|word| !word.is_empty()).collect();
    words.sort_unstable();
    words.dedup();
    (!words.is_empty()).then_some(words)
}

/// The text after the first verb of saying, if the question has one.
fn after_saying(title: &str) -> Option<&str> {
    let mut offset = 0;
    for word in title.split(' ') {
        let end = offset + word.len();
        let bare = word.trim_matches(|character: char| !character.is_alphanumeric());
        if SAYING.iter().any(|verb| bare.eq_ignore_ascii_case(verb)) {
            return Some(title.get(end..).unwrap_or_default());
        }
        offset = end + 1;
    }
    None
}

/// The runs between double quotes, straight or curly.
fn quoted_runs(text: &str) -> Vec<&str> {
    text.split(['"', '\u{201c}', '\u{201d}']).skip(1).step_by(2).collect()
}

/// The text up to the first word that starts the rest of the question, or its question mark.
fn up_to_the_rest(text: &str) -> &str {
    let text = text.split('?').next().unwrap_or_default();
    let mut offset = 0;
    for word in text.split(' ') {
        if AFTER_THE_WORDS.contains(&word.to_lowercase().as_str()) {
            return &text[..offset];
        }
        offset += word.len() + 1;
    }
    text
}

/// Each alternative of "X or Y", "X / Y" or "X, Y", lower-case, trimmed of punctuation.
fn alternatives(text: &str) -> Vec<String> {
    text.split(" or ")
        .flat_map(|part| part.split(['/', ',']))
        .map(|part| {
            part.trim_matches(|character: char| !character.is_alphanumeric())
                .to_lowercase()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::said_words;

    fn words(list: &[&str]) -> Option<Vec<String>> {
        Some(list.iter().map(|word| (*word).to_owned()).collect())
    }

    #[test]
    fn reads_quoted_words_and_their_alternatives() {
        assert_eq!(
            said_words("Will Powell say \"Sorry\" or \"Pardon\" during March press conference?"),
            words(&["pardon", "sorry"])
        );
        assert_eq!(
            said_words("Will Powell say \"Dollar\" 2+ times during March press conference?"),
            words(&["dollar"])
        );
    }

    #[test]
    fn reads_unquoted_words_up_to_the_rest_of_the_question() {
        assert_eq!(
            said_words("Will Powell say Trade War at his Mar 2026 press conference? — Trade War"),
            words(&["trade war"])
        );
        assert_eq!(
            said_words("Will Powell say Shutdown / Shut Down at his Mar 2026 press conference? — Shutdown / Shut Down"),
            words(&["shut down", "shutdown"])
        );
    }

    #[test]
    fn reads_the_choice_where_the_title_leaves_the_words_to_it() {
        assert_eq!(
            said_words("What will JD Vance say during Commencement Address at the U.S. Air Force Academy? — Marine"),
            words(&["marine"])
        );
    }

    #[test]
    fn a_question_asking_for_no_words_has_none() {
        assert_eq!(said_words("Will the Fed cut rates in March?"), None);
        assert_eq!(said_words("Will Trump pardon Ghislaine Maxwell before 2027?"), None);
    }
}
