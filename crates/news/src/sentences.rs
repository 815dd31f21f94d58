//! Sentence splitting for news prose, just good enough to cut summaries and pick key
//! factors: a sentence ends at a line break, or at `.`, `!`, `?` or `…` (with any closing
//! quotes or brackets) followed by a space and a capital letter, a digit or an opening quote,
//! unless the full stop ends a known abbreviation ("U.S.", "Sen.", "Jan.") or an initial
//! ("Donald J. Trump"). A wrong split costs one odd key factor; no dictionary is worth more.

/// Abbreviations that end in a full stop without ending a sentence, lower-cased and without
/// their last full stop.
const ABBREVIATIONS: &[&str] = &[
    "u.s", "u.k", "u.n", "e.u", "d.c", "mr", "mrs", "ms", "dr", "st", "sen", "rep", "gov", "gen", "lt", "col", "sgt",
    "pres", "prof", "jr", "sr", "inc", "corp", "co", "ltd", "no", "vs", "v", "jan", "feb", "mar", "apr", "aug", "sept",
    "sep", "oct", "nov", "dec", "e.g", "i.e", "etc", "approx", "est", "ft", "mt",
];

/// The sentences of `text`, trimmed, in order; empty pieces are skipped.
pub fn sentences(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .flat_map(split_line)
        .filter(|sentence| !sentence.is_empty())
}

fn split_line(line: &str) -> Vec<&str> {
    let characters: Vec<(usize, char)> = line.char_indices().collect();
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut position = 0;
    while position < characters.len() {
        let (_, character) = characters[position];
        if matches!(character, '.' | '!' | '?' | '…') {
            // Take closing quotes and brackets with the sentence.
            let mut end = position + 1;
            while end < characters.len() && matches!(characters[end].1, '"' | '\'' | '”' | '’' | ')' | ']') {
                end += 1;
            }
            let followed_by_space = end < characters.len() && characters[end].1.is_whitespace();
            let next_word = characters[end..].iter().find(|(_, next)| !next.is_whitespace());
            let opens_sentence = next_word.is_some_and(|&(_, next)| {
                next.is_uppercase() || next.is_ascii_digit() || matches!(next, '"' | '“' | '‘' | '\'' | '(')
            });
            let byte_end = characters.get(end).map_or(line.len(), |&(index, _)| index);
            if followed_by_space && opens_sentence && !(character == '.' && ends_abbreviation(&line[start..byte_end])) {
                pieces.push(line[start..byte_end].trim());
                start = byte_end;
            }
            position = end;
        } else {
            position += 1;
        }
    }
    pieces.push(line[start..].trim());
    pieces
}

/// Whether the full stop that ends `piece` belongs to an abbreviation or an initial.
fn ends_abbreviation(piece: &str) -> bool {
    let trimmed = piece.trim_end_matches(['"', '\'', '”', '’', ')', ']']);
    let without_stop = trimmed.strip_suffix('.').unwrap_or(trimmed);
    let last_word = without_stop
        .rsplit(|character: char| character.is_whitespace() || matches!(character, '(' | '"' | '“'))
        .next()
        .unwrap_or("");
    let is_initial = last_word.chars().count() == 1 && last_word.chars().all(char::is_uppercase);
    is_initial || ABBREVIATIONS.contains(&last_word.to_lowercase().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&str> {
        sentences(text).collect()
    }

    #[test]
    fn splits_at_sentence_ends() {
        assert_eq!(
            split("Bitcoin rose 5%. Ether fell! Why? \"Nobody knows,\" he said. 2025 was big."),
            [
                "Bitcoin rose 5%.",
                "Ether fell!",
                "Why?",
                "\"Nobody knows,\" he said.",
                "2025 was big."
            ]
        );
    }

    #[test]
    fn keeps_abbreviations_initials_and_numbers_together() {
        assert_eq!(
            split("The U.S. Senate met Jan. 5 with Sen. Smith and Donald J. Trump. Rates are 2.5 percent."),
            [
                "The U.S. Senate met Jan. 5 with Sen. Smith and Donald J. Trump.",
                "Rates are 2.5 percent."
            ]
        );
    }

    #[test]
    fn lines_are_sentences() {
        assert_eq!(
            split("A headline without stop\nThe body.\n\n"),
            ["A headline without stop", "The body."]
        );
    }

    #[test]
    fn lower_case_after_a_stop_does_not_split() {
        assert_eq!(split("It was 5 p.m. in the city."), ["It was 5 p.m. in the city."]);
    }
}
