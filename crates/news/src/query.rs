//! What a market is about, as the news index asks it: the words that score, and the subject
//! entities an article must name to be news about the market at all.
//!
//! Sharing words is not enough: "price", "election", "win" and "2025" are in thousands of
//! articles, and an article about Bitcoin shares "price", "reach" and "$100,000" with an
//! Ethereum market. So a query carries subject entities (names, tickers, teams), each with
//! its spellings ("Bitcoin" or "BTC"; "Fed" or "Federal Reserve"), and the index refuses
//! articles that do not name them (see [`crate::index`]).
//!
//! [`NewsQuery::for_market`] derives them with a simple rule: runs of capitalized words and
//! tickers (`$BTC`, `ETH`, `GTA`) in the question and event title, split at and stripped of
//! words that are capitalized only by position or convention ("Will", "Which",
//! "Presidential", "Election", "US", month names). A question with no such word has no
//! subject, and the index then finds no news for it rather than guess.
//!
//! Why not the cross-exchange matcher's entities (`marketlens_domain::matching::extract`),
//! which decide "what is this market about" too: measured on the labelled relevance sample
//! (`tests/relevance.rs`, 53 pairs) on 2026-11-25, this rule gives precision 0.933 and recall
//! 0.560; the matcher's subjects give 0.929 and 0.520, and the two together 0.929 and 0.520.
//! The matcher folds names to canonical forms (a team's full name, "bitcoin" for "BTC") that
//! suit comparing two questions, while articles must be found by the spellings they use.

use marketlens_domain::text::{fold, is_stopword, words};

/// Spellings of one subject, folded: the first is the name as derived or given.
const ALIASES: &[&[&str]] = &[
    &["bitcoin", "btc"],
    &["ethereum", "eth", "ether"],
    &["solana", "sol"],
    &["binance coin", "bnb"],
    &["ripple", "xrp"],
    &["cardano", "ada"],
    &["dogecoin"],
    &["fed", "federal reserve"],
    &["nyc", "new york city"],
    &["gop", "republican party"],
];

/// Capitalized words that do not name a subject: sentence openers, office and contest
/// words, and abbreviations too common in questions to tell markets apart. Folded.
const NOT_SUBJECTS: &[&str] = &[
    // Openers and function words that questions capitalize.
    "will",
    "which",
    "what",
    "who",
    "whom",
    "whose",
    "when",
    "where",
    "why",
    "how",
    "does",
    "do",
    "did",
    "is",
    "are",
    "was",
    "were",
    "can",
    "could",
    "should",
    "would",
    "has",
    "have",
    "the",
    "a",
    "an",
    "in",
    "on",
    "at",
    "by",
    "for",
    "of",
    "to",
    "and",
    "or",
    "not",
    "no",
    "yes",
    "before",
    "after",
    "between",
    "above",
    "below",
    "over",
    "under",
    "more",
    "less",
    "than",
    "any",
    "top",
    "next",
    "first",
    "last",
    "new",
    "this",
    "that",
    "if",
    "as",
    "up",
    "down",
    // Offices, contests, parties and generic institutions.
    "president",
    "presidential",
    "presidency",
    "vice",
    "election",
    "elections",
    "primary",
    "primaries",
    "nomination",
    "nominee",
    "candidate",
    "party",
    "democratic",
    "democrat",
    "democrats",
    "republican",
    "republicans",
    "senate",
    "senator",
    "sen",
    "house",
    "congress",
    "governor",
    "gov",
    "mayor",
    "minister",
    "prime",
    "chancellor",
    "ceo",
    "chair",
    "champion",
    "championship",
    "winner",
    "mvp",
    "game",
    "match",
    "round",
    "season",
    "week",
    "day",
    "final",
    "finals",
    "semifinals",
    "quarterfinals",
    "series",
    "tournament",
    "cup",
    "league",
    "world",
    // Places too broad to be a subject, and common abbreviations.
    "us",
    "u",
    "s",
    "u.s",
    "u.s.a",
    "u.k",
    "usa",
    "america",
    "american",
    "united",
    "states",
    "uk",
    "eu",
    "ai",
    "etf",
    "ipo",
    "fdv",
    "q1",
    "q2",
    "q3",
    "q4",
    "am",
    "pm",
    "et",
    "est",
    "utc",
    "vs",
    "v",
];

/// How questions and news speak of prices: a market asks whether Bitcoin will "reach" or
/// "dip to" a price, the news says it "soars", "slumps" or "regains" one. A predicate with
/// one of these words is satisfied by any of them (and their inflections).
const PRICE_MOVES: &[&str] = &[
    "price", "reach", "hit", "dip", "above", "below", "rise", "rose", "risen", "soar", "fall", "fell", "fallen",
    "drop", "slump", "slide", "slid", "climb", "rally", "rallies", "tumble", "surge", "plunge", "jump", "regain",
    "tops", "sink", "sank", "gain", "lose", "lost", "retrace", "high", "low", "bounce", "batter", "crash", "recover",
    "peak", "worth",
];

/// Calendar words: capitalized but no subject, and in too many articles to score either.
const CALENDAR: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// One subject: its spellings, each a sequence of folded words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entity {
    pub spellings: Vec<Vec<String>>,
}

impl Entity {
    /// The entity named `name` ("Hillary Clinton", "$BTC"), with the spellings [`ALIASES`]
    /// knows for it. `None` when the name has no word.
    pub fn named(name: &str) -> Option<Entity> {
        let name_words: Vec<String> = words(name).collect();
        if name_words.is_empty() {
            return None;
        }
        let joined = name_words.join(" ");
        let mut spellings = vec![name_words];
        if let Some(aliases) = ALIASES.iter().find(|aliases| aliases.contains(&joined.as_str())) {
            for alias in aliases.iter().filter(|alias| **alias != joined) {
                spellings.push(words(alias).collect());
            }
        }
        Some(Entity { spellings })
    }
}

/// A market as a question to the news index.
#[derive(Debug, Clone, PartialEq)]
pub struct NewsQuery {
    /// Informative words of the question and event title, and of the entities' spellings,
    /// folded and unique: what BM25 scores.
    pub terms: Vec<String>,
    /// The subjects an article must name. Empty means no subject, and so no news.
    pub entities: Vec<Entity>,
    /// Whether the first entity is the market's grammatical subject ("Will **X** win Y?"),
    /// which weighs double in the subject gate: of "New England Patriots" and "Super Bowl",
    /// the Patriots are what the market is about.
    pub leading_subject: bool,
    /// What the question says of its subject: its informative words that name no entity and
    /// are no number ("out", "president" in "Putin out as President of Russia?"). An article
    /// must hold one of them (or a plural or tense of it), unless there are none.
    pub predicate: Vec<String>,
}

impl NewsQuery {
    /// The query for a market, with subject entities derived from its question and event
    /// title by the rule in the module documentation.
    /// The event title is read only when the question names no subject: event titles are
    /// headline-cased ("Largest Company end of 2025?") and would add subjects that are not.
    pub fn for_market(question: &str, event_title: Option<&str>) -> NewsQuery {
        let mut names = subject_names(question);
        let mut leading_subject = starts_with_opener(question) && !names.is_empty();
        if names.is_empty() {
            names = event_title.map(subject_names).unwrap_or_default();
            leading_subject = event_title.is_some_and(starts_with_opener) && !names.is_empty();
        }
        NewsQuery {
            leading_subject,
            ..NewsQuery::with_entities(question, event_title, &names)
        }
    }

    /// The query for a market whose subject entities the caller knows (names, tickers, team
    /// names, as written), the market's own subject first.
    pub fn with_entities(question: &str, event_title: Option<&str>, names: &[String]) -> NewsQuery {
        let mut entities: Vec<Entity> = Vec::new();
        for entity in names.iter().filter_map(|name| Entity::named(name)) {
            // "Ethereum (ETH)" names one subject twice.
            let same_subject = |other: &Entity| {
                let mut left = entity.spellings.clone();
                let mut right = other.spellings.clone();
                left.sort();
                right.sort();
                left == right
            };
            if !entities.iter().any(same_subject) {
                entities.push(entity);
            }
        }
        let mut terms: Vec<String> = std::iter::once(question)
            .chain(event_title)
            .flat_map(words)
            .chain(
                entities
                    .iter()
                    .flat_map(|entity| entity.spellings.iter().flatten().cloned()),
            )
            .filter(|word| is_scoring_word(word))
            .collect();
        terms.sort();
        terms.dedup();
        let entity_words: Vec<&String> = entities
            .iter()
            .flat_map(|entity| entity.spellings.iter().flatten())
            .collect();
        let mut predicate: Vec<String> = std::iter::once(question)
            .chain(event_title)
            .flat_map(words)
            .filter(|word| is_scoring_word(word) && !word.chars().all(|c| c.is_ascii_digit()))
            .filter(|word| !entity_words.contains(&word))
            .collect();
        if predicate.iter().any(|word| PRICE_MOVES.contains(&word.as_str())) {
            predicate.extend(PRICE_MOVES.iter().map(|word| (*word).to_owned()));
        }
        predicate.sort();
        predicate.dedup();
        NewsQuery {
            terms,
            entities,
            predicate,
            leading_subject: true,
        }
    }
}

/// Whether `text` opens as a question does ("Will", "Which", "Who"…), so that the first
/// name after the opener is its subject. A text that opens with a name ("Putin out as
/// President…", "Negative GDP growth…") gives no such clue.
fn starts_with_opener(text: &str) -> bool {
    const OPENERS: &[&str] = &[
        "will", "which", "what", "who", "whom", "whose", "when", "where", "how", "does", "do", "did", "is", "are",
        "was", "were", "can", "could", "should", "would", "has", "have",
    ];
    words(text)
        .next()
        .is_some_and(|first| OPENERS.contains(&first.as_str()))
}

/// Whether a word of the question says something about its subject: not a stopword, not a
/// calendar word, not a lone letter, not the zeros of a thousands group ("4,000").
fn is_scoring_word(word: &str) -> bool {
    let is_number = word.chars().all(|character| character.is_ascii_digit());
    !is_stopword(word)
        && !CALENDAR.contains(&word)
        && (word.len() > 1 || is_number)
        && !(is_number && word.chars().all(|digit| digit == '0'))
}

/// The subject names in `text` by the capitalization rule: runs of capitalized words or
/// tickers, split at words that are no subject and before a parenthesis. A possessive `'s`
/// is dropped. The text's first word is capitalized whatever it is ("Negative GDP growth"),
/// so unless it is a ticker it is a name of its own, never the start of a longer one.
pub fn subject_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for (position, raw) in text.split_whitespace().enumerate() {
        if raw.starts_with('(') && !run.is_empty() {
            names.push(run.join(" "));
            run.clear();
        }
        let ends_clause = raw.ends_with([',', ':', ';', '?', '!', ')', '"', '”']) || raw.ends_with(". ");
        let token = raw
            .trim_start_matches(['(', '"', '“', '\'', '‘', '$'])
            .trim_end_matches([',', ':', ';', '?', '!', ')', '"', '”', '\'', '’', '.'])
            .trim_end_matches("'s")
            .trim_end_matches("’s");
        let folded = fold(token);
        let names_subject = is_capitalized_or_ticker(token)
            && !NOT_SUBJECTS.contains(&folded.as_str())
            && !CALENDAR.contains(&folded.as_str());
        if names_subject {
            run.push(token);
        } else if !run.is_empty() {
            names.push(run.join(" "));
            run.clear();
        }
        let is_ticker = token.len() > 1 && token.chars().all(|character| !character.is_lowercase());
        let first_word_alone = position == 0 && names_subject && !is_ticker;
        if (ends_clause || first_word_alone) && !run.is_empty() {
            names.push(run.join(" "));
            run.clear();
        }
    }
    if !run.is_empty() {
        names.push(run.join(" "));
    }
    names
}

/// "Bitcoin", "BTC", "McCarthy", "COVID-19", "Ocasio-Cortez": the first letter is a capital.
fn is_capitalized_or_ticker(token: &str) -> bool {
    token
        .chars()
        .find(|character| character.is_alphanumeric())
        .is_some_and(char::is_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<String> {
        subject_names(text)
    }

    #[test]
    fn derives_names_and_tickers() {
        assert_eq!(names("Will Bitcoin reach $150,000 by December 31, 2025?"), ["Bitcoin"]);
        assert_eq!(names("Will $BTC break $20k before 2021?"), ["BTC"]);
        assert_eq!(names("Will Trump jail Hillary Clinton?"), ["Trump", "Hillary Clinton"]);
        assert_eq!(
            names("Will Alexandria Ocasio-Cortez win the 2028 US Presidential Election?"),
            ["Alexandria Ocasio-Cortez"]
        );
        assert_eq!(names("Senator Eichorn guilty of soliciting a child?"), ["Eichorn"]);
        assert_eq!(
            names("Will Bad Bunny perform during the Super Bowl LX halftime show?"),
            ["Bad Bunny", "Super Bowl LX"]
        );
        assert_eq!(
            names("NFL: Will the Chiefs beat the Bengals by more than 3.5 points?"),
            ["NFL", "Chiefs", "Bengals"]
        );
        assert_eq!(
            names("Will Apple, Amazon, or Twitter announce a Bitcoin purchase?"),
            ["Apple", "Amazon", "Twitter", "Bitcoin"]
        );
        assert_eq!(
            names("How many people will have initiated vaccination by Biden’s 100th day?"),
            ["Biden"]
        );
        assert!(names("Will the U.S. collect less than $100b in revenue in 2025?").is_empty());
        assert_eq!(names("Negative GDP growth in 2025?"), ["Negative", "GDP"]);
        assert_eq!(names("Tim Cook out as Apple CEO in 2025?"), ["Tim", "Cook", "Apple"]);
        assert_eq!(
            names("Will Binance Coin (BNB) beat Ethereum (ETH)?"),
            ["Binance Coin", "BNB", "Ethereum", "ETH"]
        );
        assert_eq!(names("NFL: Will the Chiefs win?"), ["NFL", "Chiefs"]);
    }

    #[test]
    fn entities_know_their_aliases() {
        let bitcoin = Entity::named("$BTC").unwrap();
        assert_eq!(bitcoin.spellings, [vec!["btc".to_owned()], vec!["bitcoin".to_owned()]]);
        let fed = Entity::named("Fed").unwrap();
        assert_eq!(fed.spellings[1], ["federal", "reserve"]);
        assert_eq!(
            Entity::named("Hillary Clinton").unwrap().spellings,
            [["hillary", "clinton"]]
        );
        assert_eq!(Entity::named("?!"), None);
    }

    #[test]
    fn event_titles_are_read_only_for_questions_without_a_subject() {
        let apple = NewsQuery::for_market(
            "Will Apple be the largest company in the world by market cap on December 31?",
            Some("Largest Company end of 2025?"),
        );
        assert_eq!(apple.entities, [Entity::named("Apple").unwrap()]);
        assert!(apple.leading_subject);
        assert!(!NewsQuery::for_market("Putin out as President of Russia in 2025?", None).leading_subject);
        let bnb = NewsQuery::for_market("Will Binance Coin (BNB) beat Ethereum (ETH)?", None);
        // "Binance Coin" and "BNB" are one subject, as are "Ethereum" and "ETH".
        assert_eq!(bnb.entities.len(), 2);
        let untitled = NewsQuery::for_market("Will it happen in 2025?", Some("Bitcoin reserve"));
        assert_eq!(untitled.entities, [Entity::named("Bitcoin").unwrap()]);
    }

    #[test]
    fn queries_score_informative_words_and_alias_spellings() {
        let query = NewsQuery::for_market(
            "Will Ethereum hit $4,000 by December 31?",
            Some("What price will Ethereum hit?"),
        );
        assert_eq!(query.entities.len(), 1);
        assert_eq!(query.terms, ["31", "4", "eth", "ether", "ethereum", "hit", "price"]);
    }
}
