//! Entities: who or what a market is about (people, teams, parties, assets, countries) and
//! the contest or office it is decided in.
//!
//! Two sources, in this order. A small gazetteer of the aliases both exchanges use for the
//! same thing: Kalshi writes "Pro Basketball Finals" where Polymarket writes "NBA Finals",
//! "BTC" and "Bitcoin" are one asset, "GOP" is the Republicans. Then every run of capitalised
//! words not claimed by the gazetteer is a name: "Oklahoma City", "Kim Jong Un", "Los
//! Angeles L". Names of the two exchanges are compared loosely (see
//! [`Entity::corresponds_to`]) because Kalshi names teams by city and abbreviates. Written
//! here because named-entity models need weights and a runtime this crate cannot carry,
//! and the questions are short and capitalised carefully.

use smallvec::SmallVec;
use std::collections::HashMap;
use std::sync::LazyLock;

use super::tokens::{Token, phrase_at};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntityKind {
    /// A person, team, company, product or place named in capitals.
    Name,
    /// A crypto asset, metal or index.
    Asset,
    /// A political party.
    Party,
    /// A country or union of countries.
    Country,
    /// An institution (the Fed).
    Institution,
    /// An economic figure (the unemployment rate, inflation, GDP).
    Indicator,
}

/// Who or what a market is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entity {
    pub kind: EntityKind,
    /// Lower-case words; for gazetteer entities, the canonical name.
    pub words: Vec<String>,
}

impl Entity {
    pub fn key(&self) -> String {
        self.words.join(" ")
    }

    /// Whether two spellings name the same thing: equal, or the shorter is a run of words at
    /// the start or end of the longer ("Oklahoma City" / "Oklahoma City Thunder", "Trump" /
    /// "Donald Trump"), where a single letter stands for a word it starts ("Los Angeles L" /
    /// "Los Angeles Lakers", but not "Los Angeles Clippers"). A person's middle initial may be
    /// left out ("Donald J. Trump"), a long word may be spelled one letter apart when another
    /// word matches in full ("Hilary Clinton"), but a generational suffix must be on both
    /// sides ("Donald Trump" is not "Donald Trump Jr.").
    pub fn corresponds_to(&self, other: &Entity) -> bool {
        if self.kind != other.kind && self.kind != EntityKind::Name && other.kind != EntityKind::Name {
            return false;
        }
        if self.words == other.words {
            return true;
        }
        let letters = |words: &[String]| words.iter().map(String::len).sum::<usize>();
        let shares_a_word = self.words.iter().any(|word| other.words.contains(word));
        if shares_a_word {
            // The same words in another order ("Xi Jinping" / "Jinping Xi"); letters are
            // counted last, as most pairs the index compares never get that far.
            if same_words_reordered(&self.words, &other.words) && letters(&self.words) == letters(&other.words) {
                return true;
            }
            if leads_with_initials(&self.words, &other.words) || leads_with_initials(&other.words, &self.words) {
                return true;
            }
        } else {
            // With no word in common, an acronym ("BOA" / Bank of America), the same letters
            // spaced otherwise ("MrBeast" / "Mr Beast") or one long word a doubled letter
            // apart ("Zelensky" / "Zelenskyy") can still be one name; nothing else can, and
            // most pairs the index compares stop here.
            if is_acronym_of(&self.words, &other.words)
                || is_acronym_of(&other.words, &self.words)
                || joined_alike(&self.words, &other.words)
            {
                return true;
            }
            let one_long_word = |words: &[String]| matches!(words, [word] if word.len() >= 8);
            if !(one_long_word(&self.words) || one_long_word(&other.words)) {
                return false;
            }
        }
        if closing_initial_left_over(&self.words, &other.words) || closing_initial_left_over(&other.words, &self.words)
        {
            return false;
        }
        if (leaves_out_middle_names(&self.words, &other.words) || leaves_out_middle_names(&other.words, &self.words))
            && suffixes_agree(&self.words, &other.words)
        {
            return true;
        }
        // Most names have no middle initial to drop: compare their words as they are.
        let runs_match = if has_middle_initial(&self.words) || has_middle_initial(&other.words) {
            names_run_alike(
                &without_middle_initials(&self.words),
                &without_middle_initials(&other.words),
            )
        } else {
            names_run_alike(&self.words, &other.words)
        };
        runs_match && suffixes_agree(&self.words, &other.words)
    }
}

/// Whether `long` is `short` (of two words or more, as a city's name is; not "Malcolm X") and
/// one closing letter more: Kalshi's letter telling apart two teams of one city ("Los Angeles
/// G", the Galaxy) is not the city's other team written without it ("Los Angeles FC", read
/// "Los Angeles"), unless the letter is that of the club word dropped from the other ("Los
/// Angeles F" is Los Angeles FC).
fn closing_initial_left_over(long: &[String], short: &[String]) -> bool {
    matches!(long.split_last(), Some((last, rest)) if last.len() == 1 && rest.len() >= 2 && !matches!(last.as_str(), "f" | "s") && rest == short)
}

/// Whether `short` opens with the initials of the words `long` opens with, and goes on with
/// the same words ("SL Benfica" / "Sport Lisboa e Benfica"); connectors ("e", "de") have no
/// initial.
fn leads_with_initials(short: &[String], long: &[String]) -> bool {
    let Some((initials, rest)) = short.split_first() else {
        return false;
    };
    // A word many names end in ("SD State": South Dakota State or San Diego State) leaves
    // the initials ambiguous.
    const COMMON_ENDINGS: [&str; 8] = [
        "state",
        "city",
        "united",
        "county",
        "university",
        "college",
        "club",
        "fc",
    ];
    if rest.is_empty()
        || initials.len() < 2
        || long.len() <= rest.len() + 1
        || rest.iter().any(|word| COMMON_ENDINGS.contains(&word.as_str()))
    {
        return false;
    }
    let (lead, long_rest) = long.split_at(long.len() - rest.len());
    long_rest == rest
        && lead
            .iter()
            .filter(|word| !is_name_connector(word))
            .filter_map(|word| word.chars().next())
            .eq(initials.chars())
}

/// Whether two names are the same letters with the spaces between words put elsewhere
/// ("MrBeast" / "Mr Beast", "LaLiga" / "La Liga"). Compared byte by byte, without joining.
fn joined_alike(left: &[String], right: &[String]) -> bool {
    left.len() != right.len()
        && left
            .iter()
            .flat_map(|word| word.bytes())
            .eq(right.iter().flat_map(|word| word.bytes()))
}

/// Whether two names of two words or more are the same words in another order ("Korea
/// Republic" / "Republic Korea", a family name first or last). Without allocation: each word
/// of one is found in the other, and the lengths are equal, the words distinct.
fn same_words_reordered(left: &[String], right: &[String]) -> bool {
    left.len() >= 2
        && left.len() == right.len()
        && left.iter().all(|word| right.contains(word))
        && right.iter().all(|word| left.contains(word))
}

/// Whether `short` is a person's first and last name and `long` the same with middle names
/// between them ("Zohran Mamdani" / "Zohran Kwame Mamdani"): both names in full, three
/// letters or more, the suffix aside ("Robert Kennedy Jr." / "Robert Francis Kennedy Jr.").
fn leaves_out_middle_names(short: &[String], long: &[String]) -> bool {
    let (short, long) = (without_suffix(short), without_suffix(long));
    let [first, last] = short else {
        return false;
    };
    // Schools and places are named by the words between, which a person's middle names are
    // not ("Mississippi Valley State" is not
    // Mississippi State, nor "New South Wales" "New Wales"): a person's name only. So are an
    // award's categories ("Best Supporting Actress" is not "Best Actress", nor "Outstanding
    // Lead Actress in a Drama Series" "Outstanding Drama Series").
    long.len() > 2
        && !matches!(first.as_str(), "best" | "most" | "outstanding")
        && first.len() >= 3
        && last.len() >= 3
        && long.first() == Some(first)
        && long.last() == Some(last)
        && !long[1..long.len() - 1]
            .iter()
            .any(|word| PLACE_WORDS.contains(&word.as_str()))
}

/// Words of the names of schools, places and clubs, which a person's name lacks.
const PLACE_WORDS: &[&str] = &[
    "state",
    "st",
    "tech",
    "city",
    "county",
    "university",
    "college",
    "valley",
    "bay",
    "island",
    "islands",
    "republic",
    "united",
    "new",
    "north",
    "south",
    "east",
    "west",
    "northern",
    "southern",
    "eastern",
    "western",
    "central",
    "saint",
    "san",
    "santa",
    "los",
    "las",
    "fort",
    "lake",
    "park",
    "beach",
    "port",
];

fn without_suffix(words: &[String]) -> &[String] {
    match suffix_of(words) {
        Some(_suffix) => &words[..words.len() - 1],
        None => words,
    }
}

/// Whether `short` is one word of three to five letters that spells the initials of `long`'s
/// words, with or without its small words ("BOA" = Bank of America, "NYC" = New York City).
/// Compared letter by letter: this runs for every pair of names the index compares.
fn is_acronym_of(short: &[String], long: &[String]) -> bool {
    let [acronym] = short else {
        return false;
    };
    if !(3..=5).contains(&acronym.len()) || long.len() < 2 || long.len() > acronym.len() {
        return false;
    }
    let spells = |skip_small_words: bool| {
        let mut letters = acronym.bytes();
        long.iter()
            .filter(|word| !(skip_small_words && matches!(word.as_str(), "of" | "the" | "and" | "de" | "for")))
            .all(|word| word.bytes().next() == letters.next())
            && letters.next().is_none()
    };
    spells(false) || spells(true)
}

/// Whether two words are one, or one transliterated with a letter doubled where the other
/// writes it once ("Zelenskyy" / "Zelensky", "Hillary" / "Hilary"), in words of five letters
/// or more.
fn same_word(left: &str, right: &str) -> bool {
    fn single_letters(word: &str) -> impl Iterator<Item = u8> + '_ {
        let bytes = word.as_bytes();
        bytes
            .iter()
            .enumerate()
            .filter(move |(at, byte)| *at == 0 || bytes[at - 1] != **byte)
            .map(|(_at, byte)| *byte)
    }
    left == right
        || (left.len() != right.len()
            && left.len().min(right.len()) >= 5
            && left.as_bytes()[0] == right.as_bytes()[0]
            && left.as_bytes().last() == right.as_bytes().last()
            && single_letters(left).eq(single_letters(right)))
}

/// Whether the shorter of two names is a run at the start or end of the longer (see
/// [`Entity::corresponds_to`]).
fn names_run_alike<S: AsRef<str>>(left: &[S], right: &[S]) -> bool {
    let (shorter, longer) = if left.len() <= right.len() {
        (left, right)
    } else {
        (right, left)
    };
    if shorter.is_empty() {
        return false;
    }
    let initial_of = |initial: &str, word: &str| initial.len() == 1 && word.starts_with(initial);
    let spelled_alike = |short: &str, long: &str| short.len() >= 5 && long.len() >= 5 && within_one_edit(short, long);
    let word_matches = |short: &str, long: &str| {
        same_word(short, long)
            || initial_of(short, long)
            || initial_of(long, short)
            || abbreviates(short, long)
            || abbreviates(long, short)
    };
    // Every word matches, at least one in full (an initial alone names nothing: "Texas A" is
    // not "Apple"); one word may instead be spelled a letter apart, tested last since it is
    // the dearest test.
    let runs_at = |offset: usize| {
        let pairs = || {
            shorter
                .iter()
                .map(AsRef::as_ref)
                .zip(longer[offset..].iter().map(AsRef::as_ref))
        };
        let mut misspelled = None;
        for (short, long) in pairs() {
            if !word_matches(short, long) {
                if misspelled.is_some() {
                    return false;
                }
                misspelled = Some((short, long));
            }
        }
        // A single word a doubled letter apart must be long ("Zelensky", not "Cameron" for
        // "Cameroon"); in a longer name another word matches exactly.
        pairs().any(|(short, long)| {
            short == long || (shorter.len() == 1 && short.len().min(long.len()) >= 8 && same_word(short, long))
        }) && misspelled.is_none_or(|(short, long)| spelled_alike(short, long))
    };
    // "New Mexico" is not Mexico, nor "South Korea" Korea, nor core inflation inflation, nor
    // Western Michigan Michigan, nor Mount St. Mary's Saint Mary's, nor the British Virgin
    // Islands the (US) Virgin Islands, nor DR Congo Congo: a qualifier before the shorter name
    // makes another thing.
    let qualified = longer[..longer.len() - shorter.len()].iter().any(|word| {
        matches!(
            word.as_ref(),
            "new"
                | "north"
                | "south"
                | "east"
                | "west"
                | "northern"
                | "southern"
                | "eastern"
                | "western"
                | "central"
                | "mount"
                | "mt"
                | "core"
                | "british"
        ) || (word.as_ref() == "dr" && shorter.last().is_some_and(|last| last.as_ref() == "congo"))
    });
    // Nor is Michigan State Michigan: a school's "State", "Tech", "Southern", "Atlantic",
    // "International" or "A&M" after the shorter name makes another school.
    let qualified_after = longer.get(shorter.len()).is_some_and(|word| {
        matches!(
            word.as_ref(),
            "state" | "st" | "tech" | "southern" | "atlantic" | "international"
        ) || (word.as_ref() == "a" && is_the_a_of_a_and_m(shorter, &longer[shorter.len() + 1..]))
    });
    (runs_at(0) && (shorter.len() == longer.len() || !qualified_after))
        || (!qualified && runs_at(longer.len() - shorter.len()))
}

/// Whether the "A" after a one-word name is the A of "A&M" (the name reads "Texas A", the "M"
/// after the ampersand a name of its own, or "Texas A M" where it is kept): a school of its
/// own. Kalshi's lettered locations ("Los Angeles A") follow names of two words or more.
fn is_the_a_of_a_and_m<S: AsRef<str>>(shorter: &[S], after_the_a: &[S]) -> bool {
    shorter.len() == 1 && after_the_a.first().is_none_or(|next| next.as_ref() == "m")
}

/// Whether `short` is the usual written abbreviation of the word `long` ("Ohio St." for Ohio
/// State, "St. Louis" for Saint Louis, "Mt." for Mount, "Ft." for Fort).
fn abbreviates(short: &str, long: &str) -> bool {
    matches!(
        (short, long),
        ("st", "state" | "saint") | ("mt", "mount") | ("ft", "fort")
    )
}

/// Words that say a name is a club's rather than which club it is: Polymarket writes clubs'
/// full names ("Associação Chapecoense de Futebol", "Fulham FC", "AFC Bournemouth"), Kalshi
/// their short ones ("Chapecoense", "Fulham", "Bournemouth").
const CLUB_WORDS: [&str; 17] = [
    "fc",
    "rcd",
    "afc",
    "cf",
    "sc",
    "ac",
    "ca",
    "cd",
    "ud",
    "ssc",
    "club",
    "clube",
    "de",
    "futebol",
    "football",
    "calcio",
    "associacao",
];

/// Drops the [`CLUB_WORDS`] from a name, unless nothing else would be left of it.
pub fn drop_club_words(entity: &mut Entity) {
    if entity.kind == EntityKind::Name
        && entity.words.len() > 1
        && entity.words.iter().any(|word| CLUB_WORDS.contains(&word.as_str()))
        && entity.words.iter().any(|word| !CLUB_WORDS.contains(&word.as_str()))
    {
        entity.words.retain(|word| !CLUB_WORDS.contains(&word.as_str()));
    }
}

/// Nationality adjectives and the place they name: "the Bolivian presidential election" is
/// Bolivia's, "the Irish Presidential Election" Ireland's. The exchanges write one or the
/// other ("Bolivia presidential election" / "Bolivian presidential election"), so a name that
/// is only an adjective of nationality is read as its country. (Adjectives of the United
/// States are not here: "American" names teams and companies more often than the country.)
const DEMONYMS: &[(&str, &str)] = &[
    ("afghan", "afghanistan"),
    ("albanian", "albania"),
    ("algerian", "algeria"),
    ("argentine", "argentina"),
    ("argentinian", "argentina"),
    ("armenian", "armenia"),
    ("australian", "australia"),
    ("austrian", "austria"),
    ("belarusian", "belarus"),
    ("belgian", "belgium"),
    ("bolivian", "bolivia"),
    ("brazilian", "brazil"),
    ("british", "uk"),
    ("bulgarian", "bulgaria"),
    ("canadian", "canada"),
    ("chilean", "chile"),
    ("chinese", "china"),
    ("colombian", "colombia"),
    ("croatian", "croatia"),
    ("czech", "czech republic"),
    ("danish", "denmark"),
    ("dutch", "netherlands"),
    ("ecuadorian", "ecuador"),
    ("egyptian", "egypt"),
    ("estonian", "estonia"),
    ("finnish", "finland"),
    ("french", "france"),
    ("georgian", "georgia"),
    ("german", "germany"),
    ("greek", "greece"),
    ("honduran", "honduras"),
    ("hungarian", "hungary"),
    ("icelandic", "iceland"),
    ("indian", "india"),
    ("indonesian", "indonesia"),
    ("iranian", "iran"),
    ("iraqi", "iraq"),
    ("irish", "ireland"),
    ("israeli", "israel"),
    ("italian", "italy"),
    ("japanese", "japan"),
    ("kenyan", "kenya"),
    ("latvian", "latvia"),
    ("lebanese", "lebanon"),
    ("lithuanian", "lithuania"),
    ("malawian", "malawi"),
    ("mexican", "mexico"),
    ("moldovan", "moldova"),
    ("nigerian", "nigeria"),
    ("norwegian", "norway"),
    ("pakistani", "pakistan"),
    ("peruvian", "peru"),
    ("philippine", "philippines"),
    ("polish", "poland"),
    ("portuguese", "portugal"),
    ("romanian", "romania"),
    ("russian", "russia"),
    ("saudi", "saudi arabia"),
    ("scottish", "scotland"),
    ("serbian", "serbia"),
    ("slovak", "slovakia"),
    ("slovenian", "slovenia"),
    ("korean", "korea"),
    ("spanish", "spain"),
    ("swedish", "sweden"),
    ("swiss", "switzerland"),
    ("syrian", "syria"),
    ("taiwanese", "taiwan"),
    ("thai", "thailand"),
    ("turkish", "turkey"),
    ("ukrainian", "ukraine"),
    ("venezuelan", "venezuela"),
    ("vietnamese", "vietnam"),
    ("welsh", "wales"),
];

/// Countries under their other names, and the name the rest of the matcher knows them by.
/// Kalshi's World Cup markets use FIFA's names for its members ("Korea Republic", "Czechia",
/// "Congo DR", "Türkiye", "Cabo Verde", "IR Iran"), Polymarket's the common English ones;
/// news and politics markets write the older or official forms. Source: FIFA's member
/// association list (inside.fifa.com/associations) and the ISO 3166-1 short names.
const COUNTRY_SPELLINGS: &[(&str, &str)] = &[
    ("korea republic", "south korea"),
    ("republic of korea", "south korea"),
    ("korea dpr", "north korea"),
    ("dpr korea", "north korea"),
    ("czechia", "czech republic"),
    ("congo dr", "dr congo"),
    ("congo republic", "congo"),
    ("republic of congo", "congo"),
    ("turkiye", "turkey"),
    ("cabo verde", "cape verde"),
    ("cote d ivoire", "ivory coast"),
    ("china pr", "china"),
    ("chinese taipei", "taiwan"),
    ("holland", "netherlands"),
    ("the netherlands", "netherlands"),
    ("burma", "myanmar"),
    ("swaziland", "eswatini"),
    ("russian federation", "russia"),
    ("viet nam", "vietnam"),
    ("great britain", "uk"),
    ("britain", "uk"),
    ("republic of ireland", "ireland"),
];

/// Whether `words` (lower case) name a country: one of [`DEMONYMS`]' or the United States.
fn is_country(words: &str) -> bool {
    matches!(words, "us" | "u s" | "usa" | "united states" | "america")
        || DEMONYMS.iter().any(|(_adjective, country)| *country == words)
}

/// Reads a group named by its members in the plural ("the Conservatives", "the Liberals",
/// "the Socialists") as the one word the other exchange writes ("Conservative seats",
/// "Liberal Party"). Only one word, ending as such words do; a team's nickname is left to
/// the teams' table ("Royals", "Cardinals").
pub fn to_singular_group(entity: &mut Entity) {
    let [word] = entity.words.as_mut_slice() else {
        return;
    };
    if entity.kind == EntityKind::Name && ["ives", "als", "ists"].iter().any(|plural| word.ends_with(plural)) {
        word.pop();
    }
}

/// Reads a name that is only a nationality adjective ("Bolivian") as its country
/// ("bolivia"), and a country's other name ("Türkiye", "Korea Republic") as the common one,
/// so that the two exchanges' ways of naming one country meet.
pub fn to_common_country_name(entity: &mut Entity) {
    if entity.kind != EntityKind::Name {
        return;
    }
    let demonym = || match entity.words.as_slice() {
        [word] => DEMONYMS
            .iter()
            .find(|(adjective, _country)| adjective == word)
            .map(|(_adjective, country)| *country),
        _ => None,
    };
    let spelling = || {
        COUNTRY_SPELLINGS
            .iter()
            .find(|(other, _common)| other.split(' ').eq(entity.words.iter().map(String::as_str)))
            .map(|(_other, common)| *common)
    };
    if let Some(country) = demonym().or_else(spelling) {
        entity.words = country.split(' ').map(str::to_owned).collect();
    }
}

/// Whether a single letter stands between two longer words ("donald j trump").
fn has_middle_initial(words: &[String]) -> bool {
    words
        .windows(3)
        .any(|window| window[1].len() == 1 && window[0].len() > 1 && window[2].len() > 1)
}

/// Whether one letter inserted, deleted or replaced makes `left` into `right`: their common
/// start and end then leave at most one letter of the longer uncovered. Written here rather
/// than with a Levenshtein crate because the index asks it of every pair of long names it
/// compares, and strsim's distance, which allocates, took 3.4% of a full rematch.
fn within_one_edit(left: &str, right: &str) -> bool {
    let (left, right) = (left.as_bytes(), right.as_bytes());
    if left.len().abs_diff(right.len()) > 1 {
        return false;
    }
    let prefix = left.iter().zip(right).take_while(|(a, b)| a == b).count();
    let shorter = left.len().min(right.len());
    let suffix = left[prefix..]
        .iter()
        .rev()
        .zip(right[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count()
        .min(shorter - prefix);
    prefix + suffix + 1 >= left.len().max(right.len())
}

/// Whether two names' generational suffixes tell one person. "Jr." and "Sr." tell a father
/// from a son who are both in the news ("Donald Trump" is not "Donald Trump Jr."), so they
/// must be on both names or neither. A numeral ("Luther Burden III") is part of a full name
/// that is shortened without it ("Luther Burden"), and only two different numerals, or a
/// numeral against "Jr."/"Sr.", tell two people apart.
///
/// Only a person's name, of a given name and a family name before the numeral, may drop it:
/// "Gladiator II" and "Artemis II" are not "Gladiator" and "Artemis".
fn suffixes_agree(left: &[String], right: &[String]) -> bool {
    let numeral_of_a_person =
        |words: &[String], suffix: &str| matches!(suffix, "ii" | "iii" | "iv") && words.len() >= 3;
    match (suffix_of(left), suffix_of(right)) {
        (Some(left), Some(right)) => left == right,
        (Some(suffix), None) => numeral_of_a_person(left, suffix),
        (None, Some(suffix)) => numeral_of_a_person(right, suffix),
        (None, None) => true,
    }
}

/// A generational suffix ("jr", "sr", "ii", "iii") at the end of a name.
fn suffix_of(words: &[String]) -> Option<&str> {
    words
        .last()
        .map(String::as_str)
        .filter(|last| last.len() <= 3 && matches!(*last, "jr" | "sr" | "ii" | "iii" | "iv"))
}

/// The words without single letters between two longer words ("donald j trump" →
/// "donald trump"); a closing initial stays ("los angeles l"), and so do runs of initials
/// ("j d vance"). On the stack: this runs for every pair of names the index compares.
fn without_middle_initials(words: &[String]) -> SmallVec<[&str; 8]> {
    let long = |index: usize| words.get(index).is_some_and(|word| word.len() > 1);
    let dropped = |index: usize, word: &String| word.len() == 1 && index > 0 && long(index - 1) && long(index + 1);
    let mut kept = SmallVec::new();
    for (index, word) in words.iter().enumerate() {
        if !dropped(index, word) {
            kept.push(word.as_str());
        }
    }
    kept
}

/// What a question is about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entities {
    /// Who or what resolves Yes.
    pub subjects: Vec<Entity>,
    /// The subject named first, the grammatical subject of most questions ("Will Lorenzo
    /// Musetti win the Faria vs Musetti match?").
    pub primary: Option<Entity>,
    /// The contest, office or award it is decided in ("nba finals", "fed chair"),
    /// canonical names.
    pub contexts: Vec<String>,
    /// Whether the question offers its subjects as alternatives ("visit Connecticut, Maine
    /// or Vermont?"): any one of them resolves Yes, so a market on one of them alone is
    /// another question.
    pub alternatives: bool,
    /// The elected offices the question names: the exchanges drop "Senator", "Rep." and
    /// "Governor" as titles, but the Senate's control, votes, members or nomination are not
    /// the House's or the governorship's.
    pub offices: Offices,
}

/// Which elected offices a question names: a chamber ("the Senate", "any U.S. Senator"; "the
/// House", "Rep.", "House of Representatives") or a state's governorship.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Offices {
    pub senate: bool,
    pub house: bool,
    pub governor: bool,
}

impl Offices {
    fn of(tokens: &[Token]) -> Offices {
        let mut offices = Offices::default();
        for (at, token) in tokens.iter().enumerate() {
            let after = |words: &[&str]| at > 0 && words.contains(&tokens[at - 1].lower.as_str());
            // A title before a name ("Sen. Tuberville", "former Governor Roy Cooper", "Rep.
            // Greene") says who someone is, not which office the question asks about.
            let a_title = tokens.get(at + 1).is_some_and(Token::is_capitalized) || token.gap_after.starts_with('.');
            match token.lower.as_str() {
                "senate" if !token.gap_after.starts_with('-') => offices.senate = true,
                "senator" | "senators" if !a_title => offices.senate = true,
                "representative" | "representatives" | "congressman" | "congresswoman" if !a_title => {
                    offices.house = true;
                }
                // Not the White House, nor a bill the House passed ("House-passed").
                "house" if token.is_capitalized() && !after(&["white"]) && !token.gap_after.starts_with('-') => {
                    offices.house = true;
                }
                // A lieutenant governor holds another office, and a Fed governor no state's.
                "governor" | "governorship" if !a_title && !after(&["lieutenant", "lt", "fed", "reserve"]) => {
                    offices.governor = true;
                }
                _ => {}
            }
        }
        offices
    }

    /// Whether both name an office and not the same ones.
    pub fn differ(&self, other: &Offices) -> bool {
        *self != Offices::default() && *other != Offices::default() && self != other
    }
}

/// Gazetteer kinds: a subject of some kind, or a context.
#[derive(Clone, Copy)]
enum Alias {
    Subject(EntityKind),
    Context,
}

/// Aliases as lower-case words (an apostrophe splits "men's" into "men s"), the canonical
/// name, and what it is. Longer phrases are tried first.
const GAZETTEER: &[(&str, &str, Alias)] = &[
    // Contests. Kalshi avoids league trademarks ("Pro Basketball Finals").
    ("nba finals", "nba finals", Alias::Context),
    ("pro basketball finals", "nba finals", Alias::Context),
    ("pro basketball championship", "nba finals", Alias::Context),
    ("nba championship", "nba finals", Alias::Context),
    ("nba champion", "nba finals", Alias::Context),
    ("eastern conference finals", "nba eastern conference", Alias::Context),
    (
        "nba eastern conference finals",
        "nba eastern conference",
        Alias::Context,
    ),
    ("western conference finals", "nba western conference", Alias::Context),
    (
        "pro basketball eastern conference championship",
        "nba eastern conference",
        Alias::Context,
    ),
    (
        "pro basketball eastern conference",
        "nba eastern conference",
        Alias::Context,
    ),
    (
        "pro basketball western conference championship",
        "nba western conference",
        Alias::Context,
    ),
    (
        "pro basketball western conference",
        "nba western conference",
        Alias::Context,
    ),
    (
        "nba western conference finals",
        "nba western conference",
        Alias::Context,
    ),
    ("super bowl", "super bowl", Alias::Context),
    ("superbowl", "super bowl", Alias::Context),
    ("pro football championship", "super bowl", Alias::Context),
    ("pro football champion", "super bowl", Alias::Context),
    // The NFL's divisions, as Polymarket ("the NFC North") and Kalshi ("Pro Football NFC North
    // Division") write them.
    ("afc east", "afc east", Alias::Context),
    ("afc east division", "afc east", Alias::Context),
    ("pro football afc east division", "afc east", Alias::Context),
    ("afc north", "afc north", Alias::Context),
    ("afc north division", "afc north", Alias::Context),
    ("pro football afc north division", "afc north", Alias::Context),
    ("afc south", "afc south", Alias::Context),
    ("afc south division", "afc south", Alias::Context),
    ("pro football afc south division", "afc south", Alias::Context),
    ("afc west", "afc west", Alias::Context),
    ("afc west division", "afc west", Alias::Context),
    ("pro football afc west division", "afc west", Alias::Context),
    ("nfc east", "nfc east", Alias::Context),
    ("nfc east division", "nfc east", Alias::Context),
    ("pro football nfc east division", "nfc east", Alias::Context),
    ("nfc north", "nfc north", Alias::Context),
    ("nfc north division", "nfc north", Alias::Context),
    ("pro football nfc north division", "nfc north", Alias::Context),
    ("nfc south", "nfc south", Alias::Context),
    ("nfc south division", "nfc south", Alias::Context),
    ("pro football nfc south division", "nfc south", Alias::Context),
    ("nfc west", "nfc west", Alias::Context),
    ("nfc west division", "nfc west", Alias::Context),
    ("pro football nfc west division", "nfc west", Alias::Context),
    ("nhl stanley cup", "stanley cup", Alias::Context),
    ("stanley cup", "stanley cup", Alias::Context),
    ("pro hockey championship", "stanley cup", Alias::Context),
    ("fifa world cup", "world cup", Alias::Context),
    ("men s world cup", "world cup", Alias::Context),
    ("world cup", "world cup", Alias::Context),
    ("english premier league", "premier league", Alias::Context),
    ("epl", "premier league", Alias::Context),
    ("premier league", "premier league", Alias::Context),
    // Cricket's leagues, which share the football league's words, under their common
    // abbreviations.
    ("indian premier league", "indian premier league", Alias::Context),
    ("ipl", "indian premier league", Alias::Context),
    ("pakistan super league", "pakistan super league", Alias::Context),
    ("psl", "pakistan super league", Alias::Context),
    ("caribbean premier league", "caribbean premier league", Alias::Context),
    ("big bash league", "big bash league", Alias::Context),
    ("bbl", "big bash league", Alias::Context),
    ("champions league", "champions league", Alias::Context),
    ("europa league", "europa league", Alias::Context),
    ("world series", "world series", Alias::Context),
    // Baseball's two leagues, whose awards, pennants and divisions Kalshi names by their
    // initials ("NL Hank Aaron Award", "AL East") and Polymarket often in full. The
    // initials count only in capitals and not before a district's number ("AL-07").
    ("american league", "american league", Alias::Context),
    ("al", "american league", Alias::Context),
    ("national league", "national league", Alias::Context),
    ("nl", "national league", Alias::Context),
    // Each league's pennant: its championship (series).
    ("american league championship", "al pennant", Alias::Context),
    (
        "pro baseball american league championship",
        "al pennant",
        Alias::Context,
    ),
    ("american league pennant", "al pennant", Alias::Context),
    ("al pennant", "al pennant", Alias::Context),
    ("alcs", "al pennant", Alias::Context),
    ("national league championship", "nl pennant", Alias::Context),
    (
        "pro baseball national league championship",
        "nl pennant",
        Alias::Context,
    ),
    ("national league pennant", "nl pennant", Alias::Context),
    ("nl pennant", "nl pennant", Alias::Context),
    ("nlcs", "nl pennant", Alias::Context),
    ("al east", "al east", Alias::Context),
    ("american league east", "al east", Alias::Context),
    ("al central", "al central", Alias::Context),
    ("american league central", "al central", Alias::Context),
    ("al west", "al west", Alias::Context),
    ("american league west", "al west", Alias::Context),
    ("nl east", "nl east", Alias::Context),
    ("national league east", "nl east", Alias::Context),
    ("nl central", "nl central", Alias::Context),
    ("national league central", "nl central", Alias::Context),
    ("nl west", "nl west", Alias::Context),
    ("national league west", "nl west", Alias::Context),
    ("pro baseball championship", "world series", Alias::Context),
    ("pro baseball champion", "world series", Alias::Context),
    ("f1 drivers championship", "f1 drivers championship", Alias::Context),
    (
        "formula 1 drivers championship",
        "f1 drivers championship",
        Alias::Context,
    ),
    ("f1 drivers champion", "f1 drivers championship", Alias::Context),
    ("formula 1 drivers champion", "f1 drivers championship", Alias::Context),
    ("drivers championship", "f1 drivers championship", Alias::Context),
    ("drivers champion", "f1 drivers championship", Alias::Context),
    (
        "f1 constructors championship",
        "f1 constructors championship",
        Alias::Context,
    ),
    (
        "formula 1 constructors championship",
        "f1 constructors championship",
        Alias::Context,
    ),
    (
        "f1 constructors champion",
        "f1 constructors championship",
        Alias::Context,
    ),
    (
        "formula 1 constructors champion",
        "f1 constructors championship",
        Alias::Context,
    ),
    (
        "constructors championship",
        "f1 constructors championship",
        Alias::Context,
    ),
    ("constructors champion", "f1 constructors championship", Alias::Context),
    (
        "college basketball national championship",
        "ncaa basketball championship",
        Alias::Context,
    ),
    ("march madness", "ncaa basketball championship", Alias::Context),
    (
        "college basketball championship",
        "ncaa basketball championship",
        Alias::Context,
    ),
    (
        "ncaa basketball championship",
        "ncaa basketball championship",
        Alias::Context,
    ),
    ("ncaa tournament", "ncaa basketball championship", Alias::Context),
    // Kalshi's "College Football Championship" is the playoff's national championship.
    (
        "college football national championship",
        "college football championship",
        Alias::Context,
    ),
    (
        "college football championship",
        "college football championship",
        Alias::Context,
    ),
    (
        "college football playoff national championship",
        "college football championship",
        Alias::Context,
    ),
    (
        "cfp national championship",
        "college football championship",
        Alias::Context,
    ),
    ("coach of the year", "coach of the year", Alias::Context),
    ("rookie of the year", "rookie of the year", Alias::Context),
    (
        "comeback player of the year",
        "comeback player of the year",
        Alias::Context,
    ),
    ("mvp", "mvp", Alias::Context),
    ("halftime show", "halftime show", Alias::Context),
    ("nobel peace prize", "nobel peace prize", Alias::Context),
    // Elections and offices.
    (
        "democratic presidential nomination",
        "democratic presidential nomination",
        Alias::Context,
    ),
    (
        "democratic presidential nominee",
        "democratic presidential nomination",
        Alias::Context,
    ),
    (
        "democratic nominee for president",
        "democratic presidential nomination",
        Alias::Context,
    ),
    (
        "republican presidential nomination",
        "republican presidential nomination",
        Alias::Context,
    ),
    (
        "republican presidential nominee",
        "republican presidential nomination",
        Alias::Context,
    ),
    (
        "republican nominee for president",
        "republican presidential nomination",
        Alias::Context,
    ),
    // Kalshi's nomination series: "be the nominee for the Presidency for the Democratic party".
    (
        "nominee for the presidency for the democratic party",
        "democratic presidential nomination",
        Alias::Context,
    ),
    (
        "nominee for the presidency for the republican party",
        "republican presidential nomination",
        Alias::Context,
    ),
    ("democratic primary", "democratic primary", Alias::Context),
    ("republican primary", "republican primary", Alias::Context),
    // A party's primary for an office, in the orders the exchanges write it ("the Texas
    // Republican Senate primary", "the Republican primary for Senate in Texas", "Texas Senate
    // Republican primary").
    ("democratic senate primary", "democratic senate primary", Alias::Context),
    (
        "democratic primary for senate",
        "democratic senate primary",
        Alias::Context,
    ),
    ("republican senate primary", "republican senate primary", Alias::Context),
    (
        "republican primary for senate",
        "republican senate primary",
        Alias::Context,
    ),
    (
        "democratic governor primary",
        "democratic governor primary",
        Alias::Context,
    ),
    (
        "democratic primary for governor",
        "democratic governor primary",
        Alias::Context,
    ),
    (
        "republican governor primary",
        "republican governor primary",
        Alias::Context,
    ),
    (
        "republican primary for governor",
        "republican governor primary",
        Alias::Context,
    ),
    ("democratic house primary", "democratic house primary", Alias::Context),
    (
        "democratic primary for house",
        "democratic house primary",
        Alias::Context,
    ),
    ("republican house primary", "republican house primary", Alias::Context),
    (
        "republican primary for house",
        "republican house primary",
        Alias::Context,
    ),
    ("senate democratic primary", "democratic senate primary", Alias::Context),
    ("senate republican primary", "republican senate primary", Alias::Context),
    (
        "governor democratic primary",
        "democratic governor primary",
        Alias::Context,
    ),
    (
        "governor republican primary",
        "republican governor primary",
        Alias::Context,
    ),
    ("house democratic primary", "democratic house primary", Alias::Context),
    ("house republican primary", "republican house primary", Alias::Context),
    // The Academy Awards under their common name, and the other film and music awards whose
    // categories share the Academy's names ("Best Production Design at the BAFTAs").
    ("oscars", "academy awards", Alias::Context),
    ("oscar", "academy awards", Alias::Context),
    ("academy awards", "academy awards", Alias::Context),
    ("bafta awards", "bafta awards", Alias::Context),
    ("baftas", "bafta awards", Alias::Context),
    ("bafta", "bafta awards", Alias::Context),
    ("golden globes", "golden globe awards", Alias::Context),
    ("golden globe awards", "golden globe awards", Alias::Context),
    ("golden globe", "golden globe awards", Alias::Context),
    ("critics choice awards", "critics choice awards", Alias::Context),
    ("sag awards", "sag awards", Alias::Context),
    ("emmys", "emmy awards", Alias::Context),
    ("emmy awards", "emmy awards", Alias::Context),
    ("grammys", "grammy awards", Alias::Context),
    ("grammy awards", "grammy awards", Alias::Context),
    ("us presidential election", "presidential election", Alias::Context),
    ("u s presidential election", "presidential election", Alias::Context),
    ("presidential election", "presidential election", Alias::Context),
    ("presidential race", "presidential election", Alias::Context),
    ("presidency", "presidential election", Alias::Context),
    ("senate race", "senate election", Alias::Context),
    ("senate election", "senate election", Alias::Context),
    ("senate seat", "senate election", Alias::Context),
    // A state's and a city's other races: a governor's race is not its Senate race, nor a
    // mayor's ("gubernatorial" and "mayoral" are read as "governor" and "mayor"), nor its
    // lieutenant governor's.
    (
        "lieutenant governor race",
        "lieutenant governor election",
        Alias::Context,
    ),
    (
        "lieutenant governor election",
        "lieutenant governor election",
        Alias::Context,
    ),
    ("governor race", "governor election", Alias::Context),
    ("governorship", "governor election", Alias::Context),
    ("governor election", "governor election", Alias::Context),
    ("house race", "house election", Alias::Context),
    ("house election", "house election", Alias::Context),
    ("mayor race", "mayor election", Alias::Context),
    ("mayor election", "mayor election", Alias::Context),
    ("president of the united states", "us president", Alias::Context),
    ("prime minister", "prime minister", Alias::Context),
    ("pm", "prime minister", Alias::Context),
    ("supreme leader", "supreme leader", Alias::Context),
    ("fed chair", "fed chair", Alias::Context),
    ("speaker of the house", "house speaker", Alias::Context),
    ("mayor of new york city", "new york city mayor", Alias::Context),
    ("nyc mayor", "new york city mayor", Alias::Context),
    ("new york city mayor", "new york city mayor", Alias::Context),
    ("new york mayor", "new york city mayor", Alias::Context),
    // Assets.
    ("bitcoin", "bitcoin", Alias::Subject(EntityKind::Asset)),
    ("btc", "bitcoin", Alias::Subject(EntityKind::Asset)),
    ("ethereum", "ethereum", Alias::Subject(EntityKind::Asset)),
    ("eth", "ethereum", Alias::Subject(EntityKind::Asset)),
    ("ether", "ethereum", Alias::Subject(EntityKind::Asset)),
    ("solana", "solana", Alias::Subject(EntityKind::Asset)),
    ("sol", "solana", Alias::Subject(EntityKind::Asset)),
    ("xrp", "xrp", Alias::Subject(EntityKind::Asset)),
    ("ripple", "xrp", Alias::Subject(EntityKind::Asset)),
    ("dogecoin", "dogecoin", Alias::Subject(EntityKind::Asset)),
    ("doge", "dogecoin", Alias::Subject(EntityKind::Asset)),
    ("litecoin", "litecoin", Alias::Subject(EntityKind::Asset)),
    ("cardano", "cardano", Alias::Subject(EntityKind::Asset)),
    ("gold", "gold", Alias::Subject(EntityKind::Asset)),
    ("s p 500", "s&p 500", Alias::Subject(EntityKind::Asset)),
    ("spx", "s&p 500", Alias::Subject(EntityKind::Asset)),
    ("nasdaq", "nasdaq", Alias::Subject(EntityKind::Asset)),
    // Parties. Other countries' parties that share a word with the American ones are names
    // of their own, so that the longer alias claims them first.
    (
        "social democrats",
        "social democrats",
        Alias::Subject(EntityKind::Party),
    ),
    (
        "social democratic party",
        "social democrats",
        Alias::Subject(EntityKind::Party),
    ),
    (
        "christian democrats",
        "christian democrats",
        Alias::Subject(EntityKind::Party),
    ),
    (
        "sweden democrats",
        "sweden democrats",
        Alias::Subject(EntityKind::Party),
    ),
    (
        "liberal democrats",
        "liberal democrats",
        Alias::Subject(EntityKind::Party),
    ),
    (
        "democratic party for the people",
        "democratic party for the people",
        Alias::Subject(EntityKind::Party),
    ),
    (
        "democratic republic of the congo",
        "dr congo",
        Alias::Subject(EntityKind::Country),
    ),
    ("drc", "dr congo", Alias::Subject(EntityKind::Country)),
    ("democratic party", "democrats", Alias::Subject(EntityKind::Party)),
    ("democrats", "democrats", Alias::Subject(EntityKind::Party)),
    ("democrat", "democrats", Alias::Subject(EntityKind::Party)),
    // The bare adjective names the party ("Will Democratic win the Presidency?"), as does
    // Kalshi's "Democratics" and Minnesota's Democratic-Farmer-Labor party.
    ("democratic", "democrats", Alias::Subject(EntityKind::Party)),
    ("democratics", "democrats", Alias::Subject(EntityKind::Party)),
    ("dfl", "democrats", Alias::Subject(EntityKind::Party)),
    ("republican party", "republicans", Alias::Subject(EntityKind::Party)),
    ("republicans", "republicans", Alias::Subject(EntityKind::Party)),
    ("republican", "republicans", Alias::Subject(EntityKind::Party)),
    ("gop", "republicans", Alias::Subject(EntityKind::Party)),
    // Countries written several ways.
    ("united states of america", "usa", Alias::Subject(EntityKind::Country)),
    ("united states", "usa", Alias::Subject(EntityKind::Country)),
    ("usa", "usa", Alias::Subject(EntityKind::Country)),
    ("u s", "usa", Alias::Subject(EntityKind::Country)),
    ("us", "usa", Alias::Subject(EntityKind::Country)),
    ("united kingdom", "uk", Alias::Subject(EntityKind::Country)),
    ("uk", "uk", Alias::Subject(EntityKind::Country)),
    ("u k", "uk", Alias::Subject(EntityKind::Country)),
    ("european union", "eu", Alias::Subject(EntityKind::Country)),
    ("eu", "eu", Alias::Subject(EntityKind::Country)),
    // Economic figures: the quantity a macro print measures.
    (
        "unemployment rate",
        "unemployment rate",
        Alias::Subject(EntityKind::Indicator),
    ),
    (
        "unemployment",
        "unemployment rate",
        Alias::Subject(EntityKind::Indicator),
    ),
    (
        "jobless rate",
        "unemployment rate",
        Alias::Subject(EntityKind::Indicator),
    ),
    ("core cpi", "core inflation", Alias::Subject(EntityKind::Indicator)),
    ("cpi core", "core inflation", Alias::Subject(EntityKind::Indicator)),
    (
        "core inflation",
        "core inflation",
        Alias::Subject(EntityKind::Indicator),
    ),
    ("core pce", "core pce", Alias::Subject(EntityKind::Indicator)),
    ("cpi inflation", "inflation", Alias::Subject(EntityKind::Indicator)),
    ("cpi", "inflation", Alias::Subject(EntityKind::Indicator)),
    ("inflation", "inflation", Alias::Subject(EntityKind::Indicator)),
    ("gross domestic product", "gdp", Alias::Subject(EntityKind::Indicator)),
    ("gdp", "gdp", Alias::Subject(EntityKind::Indicator)),
    ("nonfarm payrolls", "payrolls", Alias::Subject(EntityKind::Indicator)),
    ("non farm payrolls", "payrolls", Alias::Subject(EntityKind::Indicator)),
    ("payrolls", "payrolls", Alias::Subject(EntityKind::Indicator)),
    // Institutions.
    ("federal reserve system", "fed", Alias::Subject(EntityKind::Institution)),
    ("federal reserve", "fed", Alias::Subject(EntityKind::Institution)),
    ("fomc", "fed", Alias::Subject(EntityKind::Institution)),
    ("fed", "fed", Alias::Subject(EntityKind::Institution)),
    // Departments under their initials ("DHS Secretary", "Secretary of Homeland Security").
    (
        "department of homeland security",
        "homeland security",
        Alias::Subject(EntityKind::Institution),
    ),
    (
        "homeland security",
        "homeland security",
        Alias::Subject(EntityKind::Institution),
    ),
    ("dhs", "homeland security", Alias::Subject(EntityKind::Institution)),
    // Institutions the exchanges name without their country (the US's, unless another is
    // named), so that a question's first word ("Government shutdown in 2025?") is not read as
    // a name of its own.
    ("government", "government", Alias::Subject(EntityKind::Institution)),
    ("congressional", "congress", Alias::Subject(EntityKind::Institution)),
    ("congress", "congress", Alias::Subject(EntityKind::Institution)),
    (
        "supreme court",
        "supreme court",
        Alias::Subject(EntityKind::Institution),
    ),
    ("scotus", "supreme court", Alias::Subject(EntityKind::Institution)),
    // A place whose second word is no name on its own ("House").
    ("white house", "white house", Alias::Subject(EntityKind::Name)),
    // Review sites' scores under their two names.
    ("metascore", "metacritic", Alias::Subject(EntityKind::Name)),
    ("metacritic", "metacritic", Alias::Subject(EntityKind::Name)),
    ("tomatometer", "rotten tomatoes", Alias::Subject(EntityKind::Name)),
];

/// The name whose contest the one at `at` is, when a possessive name stands before it with
/// only capitalised words between ("Turning Point USA's 'All-American' Super Bowl Halftime
/// Show" is not the Super Bowl's halftime show): another's event of the same name is another
/// contest.
fn possessive_owner(tokens: &[Token], at: usize) -> Option<String> {
    let mut index = at;
    for _ in 0..6 {
        let before = index.checked_sub(1)?;
        let token = &tokens[before];
        if token.lower == "s" && token.gap_before.trim() == "'" {
            let owner_end = before;
            let mut owner_start = owner_end;
            while owner_start > 0
                && tokens[owner_start - 1].is_capitalized()
                && !is_capitalised_non_name(&tokens[owner_start - 1].lower)
                && (owner_start == owner_end || tokens[owner_start].joined_to_previous())
            {
                owner_start -= 1;
            }
            if owner_start == owner_end {
                return None;
            }
            let words: Vec<&str> = tokens[owner_start..owner_end]
                .iter()
                .map(|token| token.lower.as_str())
                .collect();
            let owner = words.join(" ");
            // A country's election is the country's, which its name already says as the
            // subject: "Brazil's presidential election" is the Brazilian one, not another's
            // event of the same name.
            return (!is_country(&owner)).then_some(owner);
        }
        if !token.is_capitalized() {
            return None;
        }
        index = before;
    }
    None
}

/// Capitalised words that are not names: question words, sentence glue, months, and
/// acronyms that name a topic rather than who resolves ("ETF", "CEO", "AI").
fn is_capitalised_non_name(word: &str) -> bool {
    matches!(
        word,
        "will"
            | "who"
            | "what"
            | "which"
            | "when"
            | "where"
            | "why"
            | "how"
            | "is"
            | "are"
            | "was"
            | "does"
            | "do"
            | "did"
            | "can"
            | "could"
            | "should"
            | "has"
            | "have"
            | "the"
            | "a"
            | "an"
            | "in"
            | "on"
            | "at"
            | "by"
            | "before"
            | "after"
            | "of"
            | "for"
            | "to"
            | "and"
            | "or"
            | "yes"
            | "no"
            | "not"
            | "if"
            | "new"
            | "next"
            | "highest"
            | "lowest"
            // Kalshi's title case: "Will ARIRANG have At Least 400000 album sales".
            | "least"
            // A quarter the dates leave unread, having no year ("Palantir total customers
            // above 980 in Q1?"), is no name.
            | "q1"
            | "q2"
            | "q3"
            | "q4"
            // A company's legal form says which kind of body it is, not which one: "Uber
            // Technologies, Inc." is Uber Technologies.
            | "inc"
            | "corp"
            | "ltd"
            | "llc"
            | "plc"
            // The names of a game's markets ("Kansas City at Jacksonville: Total Points",
            // "Full Game: Over 45.5 points scored", "Spread: Rockets (-8.5)"): its lines.
            | "total"
            | "points"
            | "goals"
            | "runs"
            | "full"
            | "spread"
            // A part of a game and its draw ("Will Sevilla win the 1st Half?", "Villarreal CF
            // vs. Sevilla FC: Draw at halftime?").
            | "half"
            | "halftime"
            | "draw"
            // Both sides scoring ("FC Dallas vs. Vancouver Whitecaps FC: Both Teams to Score").
            | "both"
            | "teams"
            | "score"
            // A match's format, best of one or three games ("FaZe vs NIP (BO1)").
            | "bo1"
            | "bo3"
            | "bo5"
            | "bo7"
            // Kalshi's choices of a value: "— Between 4.3% and 4.4%", "— Above 72°".
            | "above"
            | "below"
            | "between"
            | "under"
            | "over"
            | "exactly"
            | "more"
            | "less"
            | "fewer"
            | "cut"
            | "hike"
            | "hold"
            | "maximum"
            | "minimum"
            | "other"
            | "another"
            | "any"
            | "someone"
            | "else"
            | "january"
            | "february"
            | "march"
            | "april"
            | "may"
            | "june"
            | "july"
            | "august"
            | "september"
            | "october"
            | "november"
            | "december"
            | "etf"
            | "ceo"
            | "ai"
            | "ipo"
            | "fdv"
            | "gdp"
            | "cpi"
            | "ath"
            | "nfl"
            | "nba"
            | "nhl"
            | "mlb"
            | "ncaa"
            | "winner"
            | "champion"
            | "price"
            | "person"
            | "company"
            | "movie"
            | "party"
            | "senate"
            | "house"
            | "president"
            // Titles before a person's name ("Vice President JD Vance", "Sen. Marco Rubio",
            // "Secretary Rubio"): the exchanges write them or not.
            | "vice"
            | "senator"
            | "sen"
            | "rep"
            | "representative"
            | "congressman"
            | "congresswoman"
            | "secretary"
            | "chairman"
            | "chairwoman"
            | "speaker"
            | "mr"
            | "mrs"
            | "ms"
            | "midterm"
            | "midterms"
            | "elections"
            | "election"
            | "governor"
            | "round"
            | "match"
            | "game"
            // Stages, which the form reads ("qualify for Final", "reach the Semifinals"), and
            // the default of a contest's titles ("Men's March Madness", "of the Year").
            | "final"
            | "finals"
            | "semifinal"
            | "semifinals"
            | "quarterfinal"
            | "quarterfinals"
            | "men"
            | "year"
            | "conference"
            | "series"
    )
}

/// "First Round", "Second Round": a stage the form reads, not a name.
fn is_ordinal_of_a_round(tokens: &[Token], at: usize) -> bool {
    matches!(
        tokens[at].lower.as_str(),
        "first" | "second" | "third" | "fourth" | "fifth"
    ) && tokens.get(at + 1).is_some_and(|next| next.lower == "round")
}

/// Lower-case words that may sit inside a name between capitalised ones.
fn is_name_connector(word: &str) -> bool {
    matches!(
        word,
        "of" | "de" | "van" | "der" | "den" | "la" | "le" | "da" | "del" | "von" | "bin" | "al" | "d"
            // Portuguese "and", in clubs' names ("Sport Lisboa e Benfica").
            | "e"
    )
}

/// Reads the entities among the unused tokens, marking the tokens it used.
pub fn extract(tokens: &mut [Token]) -> Entities {
    let mut entities = Entities::default();
    let mut first: Option<(usize, Entity)> = None;
    let claimed_before: SmallVec<[bool; 32]> = tokens.iter().map(|token| token.used).collect();
    set_aside_team_words(tokens);
    claim_gazetteer(tokens, &mut entities, &mut first);
    claim_state_codes(tokens, &mut entities, &mut first);
    claim_names(tokens, &mut entities, &mut first);
    entities.alternatives = offers_alternatives(tokens, &claimed_before);
    entities.offices = Offices::of(tokens);
    entities.primary = first.map(|(_at, entity)| entity);
    entities.subjects.sort();
    entities.subjects.dedup();
    entities.contexts.sort();
    entities.contexts.dedup();
    entities
}

/// "Team USA", "Team Europe", "Team Liquid": the word "Team" opening a name is no part of it,
/// as one side writes it and the other may not ("Canada" against "Team Canada"). Inside a
/// name it stays ("Red Bull Racing Team Principal", "US Olympic Team Trials").
fn set_aside_team_words(tokens: &mut [Token]) {
    for at in 1..tokens.len() {
        let opens_a_name = at == 1 || !tokens[at - 2].is_capitalized() || tokens[at - 2].lower == "will";
        if tokens[at - 1].text == "Team" && opens_a_name && tokens[at].is_capitalized() {
            tokens[at - 1].used = true;
        }
    }
}

/// Whether an "or" stands between two names this extractor claimed (`claimed_before` marks
/// the tokens earlier extractors took, such as months: "May or June" is a period, not a
/// choice of names).
fn offers_alternatives(tokens: &[Token], claimed_before: &[bool]) -> bool {
    let a_name = |at: usize| tokens[at].used && !claimed_before[at] && tokens[at].is_capitalized();
    // A list: a comma between names before the "or" ("Maine, Massachusetts or Vermont").
    // Two names alone may be two spellings of one ("Kyiv or Kiev") or the two a comparison
    // chooses between ("Messi or Ronaldo have more goals").
    let comma_before = |at: usize| tokens[at].gap_before.contains(',');
    let listed = |or: usize| {
        comma_before(or)
            || (1..or)
                .rev()
                .take_while(|&at| a_name(at))
                .any(|at| comma_before(at) && a_name(at - 1))
    };
    (1..tokens.len().saturating_sub(1))
        .any(|at| tokens[at].text == "or" && a_name(at - 1) && a_name(at + 1) && listed(at))
}

/// An alias split into words, with its canonical name and kind.
type SplitAlias = (Vec<&'static str>, &'static str, Alias);

/// The gazetteer's aliases by first word, built once.
static ALIASES_BY_FIRST_WORD: LazyLock<HashMap<&'static str, Vec<SplitAlias>>> = LazyLock::new(|| {
    let mut aliases: HashMap<&'static str, Vec<SplitAlias>> = HashMap::new();
    for (alias, canonical, kind) in GAZETTEER {
        let words: Vec<&'static str> = alias.split(' ').collect();
        aliases.entry(words[0]).or_default().push((words, canonical, *kind));
    }
    aliases
});

/// Keeps the subject found at the lowest token index.
fn note_first(first: &mut Option<(usize, Entity)>, at: usize, entity: &Entity) {
    if first.as_ref().is_none_or(|(earliest, _entity)| at < *earliest) {
        *first = Some((at, entity.clone()));
    }
}

fn claim_gazetteer(tokens: &mut [Token], entities: &mut Entities, first: &mut Option<(usize, Entity)>) {
    let mut at = 0;
    while at < tokens.len() {
        let longest = ALIASES_BY_FIRST_WORD
            .get(tokens[at].lower.as_str())
            .into_iter()
            .flatten()
            .filter_map(|(words, canonical, kind)| {
                phrase_at(tokens, at, words).map(|length| (length, *canonical, *kind))
            })
            .max_by_key(|(length, _canonical, _kind)| *length);
        let Some((length, canonical, kind)) = longest else {
            at += 1;
            continue;
        };
        if matches!(canonical, "american league" | "national league")
            && length == 1
            && (tokens[at].text.bytes().any(|byte| byte.is_ascii_lowercase()) || tokens[at].gap_after.starts_with('-'))
        {
            at += 1;
            continue;
        }
        // "us" is a country only when written in capitals ("US", "U.S."), never the pronoun,
        // nor the Unione Sportiva of an Italian club's name.
        if canonical == "usa" && tokens[at].lower == "us" && (tokens[at].text != "US" || opens_a_clubs_name(tokens, at))
        {
            if tokens[at].text == "US" {
                tokens[at].used = true;
            }
            at += 1;
            continue;
        }
        match kind {
            Alias::Subject(kind) => {
                let entity = Entity {
                    kind,
                    words: canonical.split(' ').map(str::to_owned).collect(),
                };
                note_first(first, at, &entity);
                entities.subjects.push(entity);
            }
            Alias::Context => entities.contexts.push(match possessive_owner(tokens, at) {
                Some(owner) => format!("{owner}'s {canonical}"),
                None => canonical.to_owned(),
            }),
        }
        for token in &mut tokens[at..at + length] {
            token.used = true;
        }
        at += length;
    }
}

/// Whether the "US" at `at` opens a club's name in a question on one game, as Polymarket
/// writes Italian clubs' registered names ("Will US Lecce win on 2026-01-24?", "US Sassuolo
/// Calcio"): capitalised words from it up to "win on" and a day written as a date.
fn opens_a_clubs_name(tokens: &[Token], at: usize) -> bool {
    // The US Virgin Islands' national team is no club.
    if tokens.get(at + 1).is_some_and(|next| next.lower == "virgin") {
        return false;
    }
    let name_end = (at + 1..tokens.len())
        .find(|&index| !tokens[index].is_capitalized())
        .unwrap_or(tokens.len());
    name_end > at + 1
        && tokens[at + 1..name_end].iter().all(Token::joined_to_previous)
        && tokens.get(name_end).is_some_and(|token| token.lower == "win")
        && tokens.get(name_end + 1).is_some_and(|token| token.lower == "on")
        && tokens
            .get(name_end + 2)
            .is_some_and(|year| year.text.len() == 4 && year.starts_with_digit() && year.gap_after == "-")
}

/// The US states' postal codes (USPS Publication 28, appendix B), as Polymarket
/// writes them before a race ("the TX Senate race", "PA Governor") where Kalshi writes the
/// state's name.
const STATE_CODES: [(&str, &str); 50] = [
    ("AL", "alabama"),
    ("AK", "alaska"),
    ("AZ", "arizona"),
    ("AR", "arkansas"),
    ("CA", "california"),
    ("CO", "colorado"),
    ("CT", "connecticut"),
    ("DE", "delaware"),
    ("FL", "florida"),
    ("GA", "georgia"),
    ("HI", "hawaii"),
    ("ID", "idaho"),
    ("IL", "illinois"),
    ("IN", "indiana"),
    ("IA", "iowa"),
    ("KS", "kansas"),
    ("KY", "kentucky"),
    ("LA", "louisiana"),
    ("ME", "maine"),
    ("MD", "maryland"),
    ("MA", "massachusetts"),
    ("MI", "michigan"),
    ("MN", "minnesota"),
    ("MS", "mississippi"),
    ("MO", "missouri"),
    ("MT", "montana"),
    ("NE", "nebraska"),
    ("NV", "nevada"),
    ("NH", "new hampshire"),
    ("NJ", "new jersey"),
    ("NM", "new mexico"),
    ("NY", "new york"),
    ("NC", "north carolina"),
    ("ND", "north dakota"),
    ("OH", "ohio"),
    ("OK", "oklahoma"),
    ("OR", "oregon"),
    ("PA", "pennsylvania"),
    ("RI", "rhode island"),
    ("SC", "south carolina"),
    ("SD", "south dakota"),
    ("TN", "tennessee"),
    ("TX", "texas"),
    ("UT", "utah"),
    ("VT", "vermont"),
    ("VA", "virginia"),
    ("WA", "washington"),
    ("WV", "west virginia"),
    ("WI", "wisconsin"),
    ("WY", "wyoming"),
];

/// Words after which a state's postal code names the state: the offices and races it holds.
/// Elsewhere two capitals are too often something else ("IN" and "OR" words in a title in
/// capitals); a city's races (mayor, district attorney) are left out, since "LA" and "SD"
/// are also Los Angeles and San Diego.
const RACE_WORDS: [&str; 8] = [
    "senate",
    "governor",
    "house",
    "primary",
    "race",
    "election",
    "legislature",
    "congressional",
];

/// Reads a state's postal code before a race ("the TX Senate race") as the state.
fn claim_state_codes(tokens: &mut [Token], entities: &mut Entities, first: &mut Option<(usize, Entity)>) {
    for at in 0..tokens.len() {
        if tokens[at].used || tokens[at].text.len() != 2 {
            continue;
        }
        let Some((_code, state)) = STATE_CODES.iter().find(|(code, _state)| tokens[at].text == *code) else {
            continue;
        };
        let before_a_race = tokens
            .get(at + 1)
            .is_some_and(|next| next.joined_to_previous() && RACE_WORDS.contains(&next.lower.as_str()));
        if !before_a_race {
            continue;
        }
        let entity = Entity {
            kind: EntityKind::Name,
            words: state.split(' ').map(str::to_owned).collect(),
        };
        note_first(first, at, &entity);
        entities.subjects.push(entity);
        tokens[at].used = true;
    }
}

fn claim_names(tokens: &mut [Token], entities: &mut Entities, first: &mut Option<(usize, Entity)>) {
    let mut at = 0;
    while at < tokens.len() {
        // "New" opens a name only before another capitalised word ("New England", not
        // "New pandemic").
        let opens_with_new = tokens[at].text == "New"
            && !tokens[at].used
            && tokens
                .get(at + 1)
                .is_some_and(|next| starts_name(next) && next.joined_to_previous());
        // "Super Bowl LX": a numeral after a contest is its edition, which the numbers read.
        let numbers_a_contest =
            at > 0 && tokens[at - 1].used && super::numbers::roman_numeral(&tokens[at].text).is_some();
        if (!starts_name(&tokens[at]) && !opens_with_new)
            || is_ordinal_of_a_round(tokens, at)
            || numbers_a_contest
            || super::numbers::is_rank_cutoff(tokens, at)
        {
            at += 1;
            continue;
        }
        let mut end = at + 1;
        while end < tokens.len()
            && !tokens[end].used
            && (tokens[end].joined_to_previous() || follows_abbreviation(&tokens[end - 1], &tokens[end]))
        {
            let token = &tokens[end];
            if super::numbers::is_rank_cutoff(tokens, end) {
                break;
            }
            let continues = starts_name(token)
                || (token.text.len() == 1 && token.is_capitalized())
                || (is_name_connector(&token.lower)
                    && tokens.get(end + 1).is_some_and(|next| starts_name(next) && next.joined_to_previous()))
                // A number right after a name belongs to it: "GPT-5", "Avatar 3", "UFC 259".
                // Not one with a sign that makes it a quantity: "Metascore 90+".
                || (token.starts_with_digit()
                    && token.year().is_none()
                    && !token.gap_before.contains('$')
                    && !token.gap_after.starts_with(['+', '%']))
                // The second half of a hyphened given name, in lower case, short syllables
                // both: "Lee Jae-myung" is not "Lee Jae-yong", and "Kim Jong-un" is "Kim Jong
                // Un" ("Trump-backed", "Musk-backed" are no names).
                || (token.gap_before == "-"
                    && !token.used
                    && (2..=5).contains(&token.text.len())
                    && tokens[end - 1].text.len() <= 4
                    && token.text.chars().all(|character| character.is_ascii_lowercase()));
            if !continues {
                break;
            }
            end += 1;
        }
        // A number in a name is read without its leading zeros: "MI-08" is "MI-8".
        let words: Vec<String> = tokens[at..end]
            .iter()
            .map(|token| match token.lower.trim_start_matches('0') {
                digits
                    if digits.len() < token.lower.len()
                        && !digits.is_empty()
                        && digits.bytes().all(|byte| byte.is_ascii_digit()) =>
                {
                    digits.to_owned()
                }
                _ => token.lower.clone(),
            })
            .collect();
        for token in &mut tokens[at..end] {
            token.used = true;
        }
        let entity = Entity {
            kind: EntityKind::Name,
            words,
        };
        note_first(first, at, &entity);
        entities.subjects.push(entity);
        at = end;
    }
}

/// "St. Louis", "Mt. Rushmore", "Donald J. Trump": a name goes on after an abbreviation's or
/// an initial's full stop.
fn follows_abbreviation(previous: &Token, token: &Token) -> bool {
    token.gap_before == ". "
        && (matches!(previous.lower.as_str(), "st" | "mt" | "ft" | "dr" | "jr" | "sr")
            || (previous.text.len() == 1 && previous.is_capitalized() && starts_name(token)))
}

fn starts_name(token: &Token) -> bool {
    !token.used && token.is_capitalized() && !is_capitalised_non_name(&token.lower) && token.text.len() > 1
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenize;
    use super::*;

    fn entities(question: &str) -> Entities {
        extract(&mut tokenize(question))
    }

    fn subject_keys(question: &str) -> Vec<String> {
        entities(question).subjects.iter().map(Entity::key).collect()
    }

    #[test]
    fn a_clubs_initials_stand_for_the_words_they_open() {
        let name = |text: &str| Entity {
            kind: EntityKind::Name,
            words: text.split(' ').map(str::to_owned).collect(),
        };
        assert_eq!(
            subject_keys("Will Sport Lisboa e Benfica win on 2026-07-30?"),
            ["sport lisboa e benfica"]
        );
        assert!(name("sl benfica").corresponds_to(&name("sport lisboa e benfica")));
        assert!(name("sport lisboa e benfica").corresponds_to(&name("sl benfica")));
        // The initials must be those of the words left out, and the rest the same words.
        assert!(!name("sc benfica").corresponds_to(&name("sport lisboa e benfica")));
        assert!(!name("sl porto").corresponds_to(&name("sport lisboa e benfica")));
        assert!(!name("s benfica").corresponds_to(&name("sport lisboa e benfica")));
        assert!(!name("sd state").corresponds_to(&name("san diego state")));
    }

    #[test]
    fn a_number_in_a_name_drops_its_leading_zeros() {
        assert_eq!(
            subject_keys("Will the Republican Party win the MI-08 House seat?"),
            subject_keys("Will Republican Party win the House race for MI-8?")
        );
        assert_eq!(subject_keys("Will Area 0 open?"), ["area 0"]);
    }

    #[test]
    fn a_hyphened_given_name_is_whole() {
        assert_eq!(subject_keys("Will Lee Jae-myung win?"), ["lee jae myung"]);
        assert_eq!(subject_keys("Will Kim Jong-un visit?"), ["kim jong un"]);
        let (myung, yong) = (
            entities("Will Lee Jae-myung win?").subjects.remove(0),
            entities("Will Lee Jae-yong win?").subjects.remove(0),
        );
        assert!(!myung.corresponds_to(&yong));
        for question in ["Will Trump-backed candidates win?", "Will Elon Musk-backed PAC spend?"] {
            assert!(
                subject_keys(question).iter().all(|key| !key.ends_with("backed")),
                "{question}"
            );
        }
    }

    #[test]
    fn a_persons_title_is_no_part_of_the_name() {
        for question in [
            "Will Vice President JD Vance attend?",
            "Will Sen. JD Vance attend?",
            "Will Senator JD Vance attend?",
        ] {
            assert_eq!(subject_keys(question), ["jd vance"], "{question}");
        }
    }

    #[test]
    fn title_case_direction_words_are_no_names() {
        // Kalshi's title case, as in its album-sales markets (demo-data/kalshi/events-nested-2.json).
        assert_eq!(
            subject_keys("Will ARIRANG have At Least 400000 album sales on the chart?"),
            ["arirang"]
        );
    }

    #[test]
    fn names_teams_by_the_words_each_exchange_uses() {
        // Polymarket 553856 and Kalshi KXNBA-26-OKC.
        let polymarket = entities("Will the Oklahoma City Thunder win the 2026 NBA Finals?");
        let kalshi = entities("Will the Oklahoma City win the 2026 Pro Basketball Finals?");
        assert_eq!(polymarket.contexts, ["nba finals"]);
        assert_eq!(kalshi.contexts, ["nba finals"]);
        assert_eq!(
            subject_keys("Will the Oklahoma City Thunder win the 2026 NBA Finals?"),
            ["oklahoma city thunder"]
        );
        assert!(kalshi.subjects[0].corresponds_to(&polymarket.subjects[0]));
    }

    #[test]
    fn an_initial_stands_for_one_word_only() {
        let lakers = &entities("Will the Los Angeles Lakers win the 2026 NBA Finals?").subjects[0];
        let clippers = &entities("Will the Los Angeles Clippers win the 2026 NBA Finals?").subjects[0];
        let kalshi = &entities("Will the Los Angeles L win the 2026 Pro Basketball Finals?").subjects[0];
        assert!(kalshi.corresponds_to(lakers));
        assert!(!kalshi.corresponds_to(clippers));
    }

    #[test]
    fn reads_the_super_bowl_under_both_names() {
        // Polymarket 540227 and Kalshi KXSB-26-NE.
        let polymarket = entities("Will the New England Patriots win Super Bowl 2026?");
        let kalshi = entities("Will the New England win the 2026 Pro Football Championship?");
        assert_eq!(polymarket.contexts, kalshi.contexts);
        assert_eq!(kalshi.subjects[0].key(), "new england");
        assert!(kalshi.subjects[0].corresponds_to(&polymarket.subjects[0]));
    }

    #[test]
    fn reads_assets_parties_countries_and_people() {
        assert_eq!(
            subject_keys("Will $BTC break $50k before April 1st, 2021?"),
            ["bitcoin"]
        );
        assert_eq!(
            subject_keys("Will the Democratic Party control the Senate after the 2026 Midterm elections?"),
            ["democrats"]
        );
        assert_eq!(subject_keys("Will USA win the 2026 FIFA World Cup?"), ["usa"]);
        assert_eq!(subject_keys("Will Team USA win the Ryder Cup?"), ["ryder cup", "usa"]);
        for (question, team) in [
            ("Will Team Canada win the 4 Nations Face-Off?", "canada"),
            ("Will Team Europe win the 2027 Ryder Cup?", "europe"),
        ] {
            let keys = subject_keys(question);
            assert!(
                keys.contains(&team.to_owned()) && !keys.iter().any(|key| key.contains("team")),
                "{keys:?}"
            );
        }
        let keys = subject_keys("Will Red Bull Racing Team Principal Laurent Mekies leave?");
        assert!(keys.iter().any(|key| key.contains("team")), "{keys:?}");
        assert_eq!(
            subject_keys("Will Kim Jong-Un visit the US during Trump's term?"),
            ["kim jong un", "trump", "usa"]
        );
        assert_eq!(subject_keys("Will we see it?"), Vec::<String>::new());
        assert_eq!(
            subject_keys("Will Gavin Newsom win the 2028 Democratic presidential nomination?"),
            ["gavin newsom"]
        );
        assert_eq!(
            entities("Will Gavin Newsom win the 2028 Democratic presidential nomination?").contexts,
            ["democratic presidential nomination"]
        );
    }

    #[test]
    fn keeps_numbers_that_belong_to_names() {
        assert_eq!(subject_keys("Will GPT-5 be released by May 31?"), ["gpt 5"]);
        assert_eq!(
            subject_keys("Will Avatar 3 be the top grossing movie of 2025?"),
            ["avatar 3"]
        );
    }

    #[test]
    fn one_name_written_several_ways_is_one() {
        let name = |text: &str| {
            let mut entity = Entity {
                kind: EntityKind::Name,
                words: text.split(' ').map(str::to_owned).collect(),
            };
            to_common_country_name(&mut entity);
            entity
        };
        let same = |left: &str, right: &str| {
            let (left, right) = (name(left), name(right));
            assert_eq!(
                left.corresponds_to(&right),
                right.corresponds_to(&left),
                "{left:?} {right:?}"
            );
            left.corresponds_to(&right)
        };
        // Middle names, doubled letters of a transliteration, spaces moved.
        assert!(same("zohran mamdani", "zohran kwame mamdani"));
        assert!(same("robert kennedy jr", "robert francis kennedy jr"));
        assert!(same("zelensky", "zelenskyy"));
        assert!(same("hilary clinton", "hillary clinton"));
        assert!(same("mrbeast", "mr beast"));
        assert!(same("jinping xi", "xi jinping"));
        assert!(!same("john paul", "paul john smith"));
        assert!(same("laliga", "la liga"));
        // FIFA's names of its members (Kalshi's World Cup markets) and the common ones.
        assert!(same("korea republic", "south korea"));
        assert!(same("czechia", "czech republic"));
        assert!(same("turkiye", "turkey"));
        assert!(same("congo dr", "dr congo"));
        assert!(!same("congo", "dr congo"));
        assert!(same("congo republic", "congo"));
        assert_eq!(
            entities("Will the Côte d'Ivoire win the 2026 Men's World Cup?").subjects[0].key(),
            "cote d ivoire"
        );
        assert!(same("cote d ivoire", "ivory coast"));
        // Not another person, suffix, country or a word two letters apart.
        assert!(!same("donald trump jr", "donald john trump"));
        assert!(!same("korea republic", "north korea"));
        assert!(!same("colombia", "columbia"));
        assert!(!same("john smith", "john paul"));
        assert!(!same("mississippi state", "mississippi valley state"));
        assert!(!same("missouri state", "missouri southern state"));
        assert!(same("kanye west", "kanye omari west"));
        assert!(same("kari lake", "kari ann lake"));
        assert!(same("anthony fauci", "dr anthony fauci"));
        assert!(!same("jackson", "johnson"));
        assert!(!same("cameroon", "cameron"));
        assert!(!same("phillips", "philips"));
    }

    #[test]
    fn a_qualified_place_or_a_bare_initial_is_another_name() {
        // Polymarket 558945 against Kalshi KXNCAAMBGAME (markets-1.json).
        let mexico = &entities("Will Mexico win the 2026 FIFA World Cup?").subjects[0];
        let new_mexico = &entities("Sam Houston at New Mexico Winner? — New Mexico").subjects;
        assert!(new_mexico.iter().all(|entity| !entity.corresponds_to(mexico)));
        let name = |words: &[&str]| Entity {
            kind: EntityKind::Name,
            words: words.iter().map(|word| (*word).to_owned()).collect(),
        };
        assert!(!name(&["british", "virgin", "islands"]).corresponds_to(&name(&["virgin", "islands"])));
        let apple =
            &entities("Will Apple be the largest company in the world by market cap on December 31?").subjects[0];
        let aggies = &entities("Will Texas A&M win the College Basketball National Championship?").subjects[0];
        assert!(!apple.corresponds_to(aggies));
        assert_eq!(
            subject_keys("Will the St. Louis Blues win the 2026 NHL Stanley Cup?"),
            ["st louis blues"]
        );
    }

    #[test]
    fn college_championships_and_offices_under_both_exchanges_words() {
        let contexts = |question: &str| entities(question).contexts;
        assert_eq!(
            contexts("Will Ohio State win the 2026 College Football National Championship?"),
            contexts("College Football Championship winner? — Ohio St.")
        );
        assert_eq!(
            contexts("Will Duke win the NCAA Tournament?"),
            contexts("Will Duke win the College Basketball National Championship?")
        );
        // Getting into the playoff is not winning it: no championship is read from it.
        assert!(contexts("Will Ohio State make the College Football Playoff?").is_empty());
        assert_eq!(
            contexts("Will Zohran Mamdani win the 2025 NYC mayoral election?"),
            ["new york city mayor"]
        );
        assert_eq!(
            entities("Will SCOTUS rule for Trump?").subjects,
            entities("Will the Supreme Court rule for Trump?").subjects
        );
    }

    #[test]
    fn a_written_abbreviation_is_its_word_and_a_state_school_another_school() {
        let key = |question: &str| entities(question).primary.expect("a subject");
        let ohio_state = key("Will Ohio State win the 2026 College Football National Championship?");
        assert!(key("Will Ohio St. beat Michigan?").corresponds_to(&ohio_state));
        assert!(key("Will Saint Louis win?").corresponds_to(&key("St. Louis at Dayton Winner? — St. Louis")));
        let michigan = key("Will Michigan win the Big Ten?");
        assert!(!michigan.corresponds_to(&key("Will Michigan State win the Big Ten?")));
        assert!(!michigan.corresponds_to(&key("Will Michigan St. win the Big Ten?")));
        assert!(!key("Will Texas win?").corresponds_to(&key("Will Texas Tech win?")));
        assert!(!key("Will Texas win?").corresponds_to(&key("Will Texas A&M win?")));
        assert!(!michigan.corresponds_to(&key("Will Western Michigan win?")));
        assert!(!key("Will Georgia win?").corresponds_to(&key("Will Georgia Southern win?")));
        assert!(!key("Will Saint Mary's win?").corresponds_to(&key("Will Mount St. Mary's win?")));
        assert!(key("Will Mt. Rushmore close?").corresponds_to(&key("Will Mount Rushmore close?")));
        assert!(key("Will Ft. Lauderdale flood?").corresponds_to(&key("Will Fort Lauderdale flood?")));
        assert!(key("Will Ohio St. win?").corresponds_to(&key("Will the Ohio State Buckeyes win?")));
        // An award's category is named by all its words.
        let category = |question: &str| {
            entities(question)
                .subjects
                .into_iter()
                .find(|subject| subject.words[0] == "best")
                .unwrap()
        };
        assert!(
            !category("Will Sandra Hüller win Best Actress?")
                .corresponds_to(&category("Will Sandra Hüller win Best Supporting Actress?"))
        );
    }

    #[test]
    fn middle_initials_spellings_and_suffixes() {
        let key = |question: &str| entities(question).subjects[0].clone();
        let trump = key("Will Donald Trump win the 2028 Republican presidential nomination?");
        let trump_j = key("Will Donald J. Trump be the nominee?");
        let junior = key("Will Donald Trump Jr. win the 2028 Republican presidential nomination?");
        let junior_j = key("Will Donald J. Trump Jr. be the nominee?");
        assert!(trump.corresponds_to(&trump_j));
        assert!(junior.corresponds_to(&junior_j));
        assert!(!trump.corresponds_to(&junior));
        assert!(!trump_j.corresponds_to(&junior_j));
        let hillary = key("Will Hillary Clinton win?");
        assert!(hillary.corresponds_to(&key("Will Hilary Clinton win?")));
        assert!(!hillary.corresponds_to(&key("Will Bill Clinton win?")));
        assert!(!key("Will Chris Murphy win?").corresponds_to(&key("Will Phil Murphy win?")));
        assert!(key("Will J.D. Vance win?").corresponds_to(&key("Will J.D. Vance be the nominee?")));
        // A numeral is dropped from a full name; Jr. and Sr. tell two people apart.
        let burden = key("Will Luther Burden be the 2025-2026 NFL Offensive Rookie of the Year?");
        assert!(burden.corresponds_to(&key("Will Luther Burden III win?")));
        assert!(!key("Will Luther Burden II win?").corresponds_to(&key("Will Luther Burden III win?")));
        assert!(!key("Will Marvin Harrison Jr. win?").corresponds_to(&key("Will Marvin Harrison III win?")));
        assert!(!key("Will Gladiator II gross $100m?").corresponds_to(&key("Will Gladiator gross $100m?")));
    }

    proptest::proptest! {
        /// The hand-written test agrees with strsim's distance on any two short words.
        #[test]
        fn one_edit_apart_is_levenshtein_at_most_one(left in "[a-c]{0,7}", right in "[a-c]{0,7}") {
            proptest::prop_assert_eq!(within_one_edit(&left, &right), strsim::levenshtein(&left, &right) <= 1);
        }
    }

    #[test]
    fn one_edit_apart() {
        for (left, right, expected) in [
            ("hillary", "hilary", true),
            ("hilary", "hillary", true),
            ("clinton", "clintan", true),
            ("clinton", "clinton", true),
            ("clinton", "klinton", true),
            ("clinton", "clint", false),
            ("murphy", "murphi", true),
            ("abcdef", "bacdef", false),
            ("aaaa", "aaaaa", true),
        ] {
            assert_eq!(within_one_edit(left, right), expected, "{left} / {right}");
            assert_eq!(strsim::levenshtein(left, right) <= 1, expected, "{left} / {right}");
        }
    }

    #[test]
    fn a_surname_is_the_person() {
        let trump = Entity {
            kind: EntityKind::Name,
            words: vec!["trump".to_owned()],
        };
        let donald = Entity {
            kind: EntityKind::Name,
            words: vec!["donald".to_owned(), "trump".to_owned()],
        };
        assert!(trump.corresponds_to(&donald));
    }

    #[test]
    fn a_nationality_adjective_is_its_country() {
        let mut bolivian = Entity {
            kind: EntityKind::Name,
            words: vec!["bolivian".to_owned()],
        };
        to_common_country_name(&mut bolivian);
        assert_eq!(bolivian.key(), "bolivia");
        let mut irish = Entity {
            kind: EntityKind::Name,
            words: vec!["irish".to_owned()],
        };
        to_common_country_name(&mut irish);
        assert_eq!(irish.key(), "ireland");
        // Only a name that is the adjective alone: "French Open" is a tournament.
        let mut french_open = Entity {
            kind: EntityKind::Name,
            words: vec!["french".to_owned(), "open".to_owned()],
        };
        to_common_country_name(&mut french_open);
        assert_eq!(french_open.key(), "french open");
    }

    #[test]
    fn baseballs_leagues_are_read_by_their_initials_in_capitals_only() {
        let contexts = |question: &str| entities(question).contexts;
        let subjects = |question: &str| subject_keys(question);
        assert_eq!(
            contexts("Will Bryce Harper win NL Hank Aaron Award?"),
            ["national league"]
        );
        assert_eq!(
            subjects("Will Bryce Harper win NL Hank Aaron Award?"),
            subjects("Will Bryce Harper win the 2026 National League Hank Aaron Award?")
        );
        assert_eq!(
            contexts("Will the Athletics win the 2025 American League Championship?"),
            contexts("Will the A's win the Pro Baseball American League Championship?")
        );
        assert_eq!(contexts("AL East Division Winner? — Toronto"), ["al east"]);
        assert_eq!(
            contexts("Will the Toronto Blue Jays win the American League East?"),
            ["al east"]
        );
        // A district's state, and the words in lower case, are no league.
        assert!(contexts("Will the Republican Party win the AL-02 House seat?").is_empty());
        assert!(contexts("Will Al Gore run in 2028?").is_empty());
    }

    #[test]
    fn kalshis_trademark_free_contests_are_the_leagues() {
        let world_series = extract(&mut tokenize("Will the Arizona win the Pro Baseball Championship?"));
        assert_eq!(world_series.contexts, ["world series"]);
        let constructors = extract(&mut tokenize(
            "Will the Williams Mercedes win the F1 Constructors Champion??",
        ));
        assert_eq!(constructors.contexts, ["f1 constructors championship"]);
        let drivers = extract(&mut tokenize("Will Max Verstappen be the 2025 Drivers Champion?"));
        assert_eq!(drivers.contexts, ["f1 drivers championship"]);
        let division = extract(&mut tokenize("Pro Football NFC North Division Winner? — Detroit"));
        assert_eq!(division.contexts, ["nfc north"]);
        assert_eq!(
            extract(&mut tokenize("Will the Detroit Lions win the NFC North?")).contexts,
            ["nfc north"]
        );
    }

    #[test]
    fn kalshis_capitalised_verbs_and_clubs_prefixes_are_not_names() {
        let fed = extract(&mut tokenize(
            "Will the Federal Reserve Cut rates by 25bps at their December 2025 meeting?",
        ));
        assert!(fed.subjects.iter().all(|subject| subject.words != ["cut"]), "{fed:?}");
        let mut espanyol = extract(&mut tokenize("Will RCD Espanyol de Barcelona win?"))
            .primary
            .unwrap();
        drop_club_words(&mut espanyol);
        assert_eq!(espanyol.key(), "espanyol barcelona");
    }

    #[test]
    fn an_acronym_is_the_name_it_spells() {
        let name = |words: &[&str]| Entity {
            kind: EntityKind::Name,
            words: words.iter().map(|word| (*word).to_owned()).collect(),
        };
        assert!(name(&["boa"]).corresponds_to(&name(&["bank", "of", "america"])));
        assert!(name(&["new", "york", "city"]).corresponds_to(&name(&["nyc"])));
        assert!(!name(&["boa"]).corresponds_to(&name(&["bank", "of", "canada"])));
        // Two letters are too few to tell a name by.
        assert!(!name(&["ny"]).corresponds_to(&name(&["new", "york"])));
    }

    #[test]
    fn stages_and_a_titles_default_words_are_not_names() {
        assert_eq!(
            subject_keys("Will North Carolina qualify for Final?"),
            ["north carolina"]
        );
        assert_eq!(subject_keys("Will Kansas qualify for Second Round?"), ["kansas"]);
        assert_eq!(subject_keys("Will Memphis qualify for Semifinal?"), ["memphis"]);
        assert_eq!(
            subject_keys("Will Penei Sewell win the NFL Protector of the Year?"),
            ["penei sewell", "protector"]
        );
        assert_eq!(
            subject_keys("Will Claudia Sheinbaum visit the White House in 2027?"),
            ["claudia sheinbaum", "white house"]
        );
        // An ordinal names a stage only before "Round"; elsewhere it may open a name.
        assert_eq!(subject_keys("Will First Solar stock rise?"), ["first solar"]);
        assert_eq!(
            subject_keys("Will Taylor Swift perform during the Super Bowl LX halftime show?"),
            ["taylor swift"]
        );
    }

    #[test]
    fn an_italian_clubs_unione_sportiva_is_no_country() {
        assert_eq!(subject_keys("Will US Lecce win on 2026-01-24?"), ["lecce"]);
        // The club's form word "Calcio" is dropped later, with the others (`drop_club_words`).
        assert_eq!(
            subject_keys("Will US Sassuolo Calcio win on 2026-01-25?"),
            ["sassuolo calcio"]
        );
        // Elsewhere "US" is the country.
        assert!(subject_keys("Will US GDP growth be above 2% in Q3 2026?").contains(&"usa".to_owned()));
        assert!(subject_keys("Will US Open attendance top 1 million?").contains(&"usa".to_owned()));
        // Nor is the US Virgin Islands' national team a club.
        assert!(subject_keys("Will US Virgin Islands win on 2026-03-24?").contains(&"usa".to_owned()));
    }

    #[test]
    fn a_states_postal_code_before_a_race_is_the_state() {
        assert!(
            subject_keys("Will the Republican Party win the TX Senate race in 2026?").contains(&"texas".to_owned())
        );
        assert!(subject_keys("Will Josh Shapiro win the PA Governor race?").contains(&"pennsylvania".to_owned()));
        // Not before a race, nor before a city's: "LA" stays what the question makes of it.
        assert!(!subject_keys("Will LA host the 2028 Olympics?").contains(&"louisiana".to_owned()));
        assert!(!subject_keys("Will Karen Bass win the LA mayoral election?").contains(&"louisiana".to_owned()));
        // A governor's race is not the Senate race.
        assert_ne!(
            entities("Will Democrats win the PA Governor race in 2026?").contexts,
            entities("Will Democrats win the Pennsylvania Senate race in 2026?").contexts
        );
        assert_eq!(
            entities("Will Democrats win the PA Governor race in 2026?").contexts,
            entities("Which party will win the Pennsylvania gubernatorial election?").contexts
        );
        assert_ne!(
            entities("Will Republicans win the Virginia Governor race?").contexts,
            entities("Will Republicans win the Virginia Lieutenant Governor race?").contexts
        );
    }

    #[test]
    fn a_partys_primary_for_an_office_under_both_exchanges_words() {
        let contexts = |question: &str| entities(question).contexts;
        assert_eq!(
            contexts("Will Ken Paxton win the 2026 Texas Republican Senate primary?"),
            contexts("Who will win the Republican primary for Senate in Texas? — Ken Paxton")
        );
        // Another office's primary is another contest.
        assert_ne!(
            contexts("Will Ken Paxton win the 2026 Texas Republican Senate primary?"),
            contexts("Who will win the Republican primary for Attorney General in Texas? — Ken Paxton")
        );
        assert_eq!(
            contexts("Will One Battle After Another win Best Picture at the 2026 Oscars?"),
            contexts("Who will win Best Picture at the Academy Awards? — One Battle After Another")
        );
    }

    #[test]
    fn a_countrys_own_election_is_no_others_event() {
        let contexts = |question: &str| entities(question).contexts;
        assert_eq!(
            contexts("Who will win Brazil's presidential election? — Lula"),
            contexts("Will Lula win the Brazilian presidential election?")
        );
        assert_eq!(
            contexts("Will Trump win the U.S.'s next presidential election?"),
            contexts("Will Trump win the next presidential election?")
        );
    }

    #[test]
    fn new_york_citys_mayor_under_each_of_its_names() {
        let contexts = |question: &str| entities(question).contexts;
        for question in [
            "Who will win the New York City Mayoral election? — Zohran Mamdani",
            "Will Zohran Mamdani be the next New York mayor?",
            "Will Zohran Mamdani become Mayor of New York City?",
        ] {
            assert_eq!(contexts(question), ["new york city mayor"], "{question}");
        }
    }

    #[test]
    fn anothers_event_of_the_same_name_is_another_contest() {
        let tpusa = entities(
            "Will Luke Combs perform as Headliner at Turning Point USA's 'All-American' Super Bowl Halftime Show?",
        );
        assert!(
            !tpusa.contexts.iter().any(|context| context == "halftime show"),
            "{:?}",
            tpusa.contexts
        );
        assert!(
            tpusa
                .contexts
                .iter()
                .any(|context| context.ends_with("'s halftime show"))
        );
        let nfl = entities("Will Luke Combs perform during the Super Bowl LX halftime show?");
        assert!(
            nfl.contexts.iter().any(|context| context == "halftime show"),
            "{:?}",
            nfl.contexts
        );
        // A possessive before other words is no owner of the contest.
        let plain = entities("Will Taylor Swift's song be played at the Super Bowl halftime show?");
        assert!(
            plain.contexts.iter().any(|context| context == "super bowl"),
            "{:?}",
            plain.contexts
        );
    }
}
