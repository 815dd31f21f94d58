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
/// for no words to be said. Quoted words are the words where the verb is followed by quotes
/// (and by more quotes only as alternatives: `"X" or "Y"`, not `"X" during "Meet the
/// Press"`); otherwise Kalshi's choice, where there is one ("… say Made in America at …? —
/// Made in America"); otherwise the words up to the rest of the question. Alternatives ("X" or
/// "Y", "Shutdown / Shut Down") are each a word of the set; a count ("2+ times", "(10+
/// times)") is the threshold's, not the words'.
pub fn said_words(question: &str) -> Option<Vec<String>> {
    let (title, choice) = super::title_and_choice(question);
    let after_the_verb = after_saying(title)?;
    let quoted = quoted_alternatives(after_the_verb);
    let words = if !quoted.is_empty() {
        quoted.into_iter().flat_map(alternatives).collect()
    } else if let Some(choice) = choice {
        alternatives(choice)
    } else {
        alternatives(up_to_the_rest(after_the_verb))
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

const QUOTES: [char; 3] = ['"', '\u{201c}', '\u{201d}'];

/// The quoted run right after the verb, and those joined to it as alternatives ("or", "/",
/// ","); empty when the verb is not followed by a quote.
fn quoted_alternatives(text: &str) -> Vec<&str> {
    let mut runs = Vec::new();
    let mut rest = text.trim_start();
    while let Some(opened) = rest.strip_prefix(QUOTES) {
        let Some((run, after)) = opened.split_once(QUOTES) else {
            break;
        };
        runs.push(run);
        let after = after.trim_start();
        rest = match after
            .strip_prefix("or ")
            .or_else(|| after.strip_prefix('/'))
            .or_else(|| after.strip_prefix(','))
        {
            Some(joined) => joined.trim_start(),
            None => break,
        };
    }
    runs
}

/// The text up to the first word that starts the rest of the question, or its question mark.
fn up_to_the_rest(text: &str) -> &str {
    let text = text.split('?').next().unwrap_or_default();
    up_to_a_word(text, |word| {
        AFTER_THE_WORDS.iter().any(|after| word.eq_ignore_ascii_case(after))
    })
}

/// The text without a count after the words ("Tariff (10+ times)", "Crypto 3+ times").
fn without_a_count(text: &str) -> &str {
    up_to_a_word(text, |word| {
        word.starts_with(|first: char| first.is_ascii_digit() || first == '(')
    })
}

/// The text up to the first word `ends` (space-separated, so every cut is on a character
/// boundary).
fn up_to_a_word(text: &str, ends: impl Fn(&str) -> bool) -> &str {
    let mut offset = 0;
    for word in text.split(' ') {
        if ends(word) {
            return &text[..offset];
        }
        offset += word.len() + 1;
    }
    text
}

/// Each alternative of "X or Y", "X / Y" or "X, Y", lower-case, trimmed of punctuation and of
/// a count ("Tariff (10+ times)" is "tariff").
fn alternatives(text: &str) -> Vec<String> {
    text.split(" or ")
        .flat_map(|part| part.split(['/', ',']))
        .map(|part| {
            without_a_count(part.trim())
                .trim_matches(|character: char| !character.is_alphanumeric())
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
    fn reads_the_words_alone_not_another_quote_nor_a_count() {
        assert_eq!(
            said_words("Will Trump say \"Sorry\" during \"Meet the Press\" interview?"),
            words(&["sorry"])
        );
        assert_eq!(
            said_words("Will Trump say Made in America at the rally? — Made in America"),
            words(&["made in america"])
        );
        assert_eq!(
            said_words("Will Trump say Tariff 10+ times at the rally? — Tariff (10+ times)"),
            words(&["tariff"])
        );
        assert_eq!(
            said_words("Will Trump say Crypto 3+ times at the rally?"),
            words(&["crypto"])
        );
    }

    #[test]
    fn a_question_asking_for_no_words_has_none() {
        assert_eq!(said_words("Will the Fed cut rates in March?"), None);
        assert_eq!(said_words("Will Trump pardon Ghislaine Maxwell before 2027?"), None);
    }
}
