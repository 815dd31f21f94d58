//! Word splitting shared by search, matching, category inference and explain, so that all
//! of them agree on what a word is: a maximal run of letters and digits after folding case
//! and accents ("Pokémon" and "pokemon" are the same word). The stores index the question
//! already split and folded by this function, so a word extracted from a query is exactly a
//! word the index holds, whatever the database's own tokenizer would have done.

/// The words of `text`, lower-cased and stripped of accents.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|character: char| !character.is_alphanumeric())
        .filter(|piece| !piece.is_empty())
        .map(fold)
        .flat_map(|folded| {
            // Folding can turn one word into several ("Æsir" → "AEsir" stays one; "½" → "1/2"
            // becomes two), so split again on what folding produced.
            folded
                .split(|character: char| !character.is_ascii_alphanumeric())
                .filter(|piece| !piece.is_empty())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
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

    #[test]
    fn handles_empty_and_punctuation_only_text() {
        assert_eq!(words("").count(), 0);
        assert_eq!(words("?!—…").count(), 0);
    }
}
