//! Word splitting shared by search, matching, category inference and explain, so that all
//! of them agree on what a word is: a maximal run of letters and digits after folding case
//! and accents ("Pokémon" and "pokemon" are the same word). The stores index the question
//! already split and folded by this function, so a word extracted from a query is exactly a
//! word the index holds, whatever the database's own tokenizer would have done.

use smallvec::{SmallVec, smallvec};
use std::borrow::Cow;

/// The words of `text`, lower-cased and stripped of accents.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    word_slices(text).map(Cow::into_owned)
}

/// [`words`], borrowed from `text` where a word already stands in it as it is folded (ASCII,
/// lower case): for a caller that only compares the words, such as explain's ranking of a
/// hundred questions per call.
pub fn word_slices(text: &str) -> impl Iterator<Item = Cow<'_, str>> {
    text.split(|character: char| !character.is_alphanumeric())
        .filter(|piece| !piece.is_empty())
        .flat_map(piece_words)
}

/// The words of one run of letters and digits. An ASCII run is one word as it stands, only
/// lower-cased (transliteration keeps ASCII as it is): at most one allocation, where folding
/// takes three. Explain and search split hundreds of questions per call, nearly all ASCII.
fn piece_words(piece: &str) -> SmallVec<[Cow<'_, str>; 1]> {
    if piece.is_ascii() {
        let word = if piece.bytes().any(|byte| byte.is_ascii_uppercase()) {
            Cow::Owned(piece.to_ascii_lowercase())
        } else {
            Cow::Borrowed(piece)
        };
        return smallvec![word];
    }
    // Folding can turn one word into several ("Æsir" → "AEsir" stays one; "½" → "1/2"
    // becomes two), so split again on what folding produced.
    fold(piece)
        .split(|character: char| !character.is_ascii_alphanumeric())
        .filter(|piece| !piece.is_empty())
        .map(|word| Cow::Owned(word.to_owned()))
        .collect()
}

/// Lower-case ASCII transliteration of a piece of text.
pub fn fold(text: &str) -> String {
    deunicode::deunicode(text).to_ascii_lowercase()
}

/// Words too common in market questions to say anything about the subject.
pub fn is_stopword(word: &str) -> bool {
    matches!(
        word,
        "a" | "an"
            | "the"
            | "will"
            | "be"
            | "is"
            | "are"
            | "was"
            | "of"
            | "in"
            | "on"
            | "at"
            | "by"
            | "to"
            | "for"
            | "and"
            | "or"
            | "with"
            | "from"
            | "as"
            | "this"
            | "that"
            | "it"
            | "its"
            | "than"
            | "more"
            | "less"
            | "any"
            | "what"
            | "who"
            | "which"
            | "how"
            | "many"
            | "much"
            | "does"
            | "do"
            | "did"
            | "has"
            | "have"
            | "before"
            | "after"
            | "end"
            | "market"
            | "markets"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_folds_and_lowercases() {
        let collected: Vec<String> = words("Will Pokémon's $100k ETF launch?").collect();
        assert_eq!(collected, ["will", "pokemon", "s", "100k", "etf", "launch"]);
    }

    proptest::proptest! {
        /// The ASCII shortcut gives what folding gives.
        #[test]
        fn ascii_runs_are_split_as_folding_splits_them(text in "[ -~]{0,40}") {
            let folded: Vec<String> = text
                .split(|character: char| !character.is_ascii_alphanumeric())
                .flat_map(|piece| fold(piece).split(|character: char| !character.is_ascii_alphanumeric()).map(str::to_owned).collect::<Vec<_>>())
                .filter(|word| !word.is_empty())
                .collect();
            proptest::prop_assert_eq!(words(&text).collect::<Vec<_>>(), folded);
        }
    }

    #[test]
    fn handles_empty_and_punctuation_only_text() {
        assert_eq!(words("").count(), 0);
        assert_eq!(words("?!—…").count(), 0);
    }
}
