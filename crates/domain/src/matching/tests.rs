//! Properties of the whole matcher: whatever the markets, the served pairs are symmetric,
//! capped, cross-exchange, in range and deterministic, and an index updated market by
//! market serves what a full rematch serves.

use proptest::prelude::*;
use std::collections::HashMap;
use uuid::Uuid;

use super::score::Agreement;
use super::*;

/// Real questions of both exchanges (fixtures and the labelled set), mixed freely.
const QUESTIONS: [&str; 16] = [
    "Will the Oklahoma City Thunder win the 2026 NBA Finals?",
    "Will the Oklahoma City win the 2026 Pro Basketball Finals?",
    "Will the Los Angeles L win the 2026 Pro Basketball Finals?",
    "Will the Los Angeles Lakers win the 2026 NBA Finals?",
    "Will the Los Angeles Clippers win the 2026 NBA Finals?",
    "Will Bitcoin reach $150,000 by December 31, 2025?",
    "When will Bitcoin hit $150k? — Before January 2026",
    "When will Bitcoin hit $150k? — Before December 2025",
    "Will Bitcoin reach $130,000 by December 31, 2025?",
    "Will Spain win the 2026 FIFA World Cup?",
    "Will the Spain win the 2026 Men's World Cup?",
    "Will the France win the 2026 Men's World Cup?",
    "Will the New England Patriots win Super Bowl 2026?",
    "Will the New England win the 2026 Pro Football Championship?",
    "Will Putin remain President of Russia through June?",
    "Putin out as President of Russia in 2025?",
];

fn input(number: usize, question: &str, on_kalshi: bool) -> MatchInput {
    MatchInput {
        id: Uuid::from_u128(number as u128 + 1),
        exchange: if on_kalshi {
            Exchange::Kalshi
        } else {
            Exchange::Polymarket
        },
        question: question.to_owned(),
        end_date: Some("2025-12-31T12:00:00Z".parse().unwrap()),
        outcomes: vec!["Yes".to_owned(), "No".to_owned()],
        event_title: None,
        external_id: String::new(),
    }
}

fn markets() -> impl Strategy<Value = Vec<MatchInput>> {
    prop::collection::vec((0..QUESTIONS.len(), any::<bool>()), 0..40).prop_map(|picks| {
        picks
            .into_iter()
            .enumerate()
            .map(|(number, (question, on_kalshi))| input(number, QUESTIONS[question], on_kalshi))
            .collect()
    })
}

#[test]
fn pairs_the_same_question_and_refuses_its_neighbours() {
    let inputs = vec![
        input(0, QUESTIONS[5], false),
        input(1, QUESTIONS[6], true),
        input(2, QUESTIONS[7], true),
        input(3, QUESTIONS[8], false),
    ];
    let pairs = match_markets(&inputs);
    let ids: Vec<(u128, u128)> = pairs
        .iter()
        .map(|pair| (pair.market_id.as_u128(), pair.matched_id.as_u128()))
        .collect();
    assert_eq!(ids, [(1, 2), (2, 1)], "{pairs:?}");
}

/// The pairs `match_markets` serves for `inputs`, each once as (lower id, higher id) in
/// order, and the pairs themselves (for a failing assertion's message).
fn served_ids(inputs: &[MatchInput]) -> (Vec<(u128, u128)>, Vec<MatchPair>) {
    let pairs = match_markets(inputs);
    let mut ids: Vec<(u128, u128)> = pairs
        .iter()
        .map(|pair| (pair.market_id.as_u128(), pair.matched_id.as_u128()))
        .filter(|(market, matched)| market < matched)
        .collect();
    ids.sort_unstable();
    (ids, pairs)
}

/// A game's three Kalshi choices against Polymarket's questions on one club and on the draw:
/// each pairs with its like only, whatever the clubs' long names ("Brentford FC").
#[test]
fn a_games_winner_and_draw_markets_pair_with_their_like_only() {
    let game = |number: usize, question: &str, on_kalshi: bool| MatchInput {
        end_date: Some(
            if on_kalshi {
                "2026-02-07T15:00:00Z"
            } else {
                "2026-01-24T15:00:00Z"
            }
            .parse()
            .unwrap(),
        ),
        ..input(number, question, on_kalshi)
    };
    let inputs = vec![
        game(0, "Will Brentford FC win on 2026-01-24?", false),
        game(1, "Will AFC Bournemouth win on 2026-01-24?", false),
        game(2, "Will Brentford FC vs. AFC Bournemouth end in a draw?", false),
        game(3, "Brentford vs Bournemouth Winner? \u{2014} Brentford", true),
        game(4, "Brentford vs Bournemouth Winner? \u{2014} Bournemouth", true),
        game(5, "Brentford vs Bournemouth Winner? \u{2014} Tie", true),
    ];
    let (ids, pairs) = served_ids(&inputs);
    assert_eq!(ids, [(1, 4), (2, 5), (3, 6)], "{pairs:?}");
}

/// A market ending at `end`: Kalshi's with `ticker` as its external id, Polymarket's when
/// `ticker` is empty.
fn with_ticker(number: usize, question: &str, ticker: &str, end: &str) -> MatchInput {
    MatchInput {
        end_date: Some(end.parse().unwrap()),
        external_id: ticker.to_owned(),
        ..input(number, question, !ticker.is_empty())
    }
}

/// Kalshi's "Will both teams score?" names its game only in its ticker: it pairs with
/// Polymarket's question on both teams scoring in that game, not with the game's winner or
/// draw, nor with both teams scoring in another game.
#[test]
fn both_teams_scoring_pairs_with_its_like_in_the_tickers_game_only() {
    let game =
        |number: usize, question: &str, ticker: &str| with_ticker(number, question, ticker, "2026-05-13T23:00:00Z");
    let inputs = vec![
        game(0, "FC Dallas vs. Vancouver Whitecaps FC: Both Teams to Score", ""),
        game(1, "Will FC Dallas win on 2026-05-13?", ""),
        game(2, "Will FC Dallas vs. Vancouver Whitecaps FC end in a draw?", ""),
        game(
            3,
            "Seattle Sounders FC vs. San Jose Earthquakes: Both Teams to Score",
            "",
        ),
        game(4, "Will both teams score?", "KXMLSBTTS-26MAY13DALVAN-BTTS"),
        game(
            5,
            "Dallas vs Vancouver Winner? \u{2014} Dallas",
            "KXMLSGAME-26MAY13DALVAN-DAL",
        ),
        game(
            6,
            "Dallas vs Vancouver Winner? \u{2014} Tie",
            "KXMLSGAME-26MAY13DALVAN-TIE",
        ),
    ];
    let (ids, pairs) = served_ids(&inputs);
    assert_eq!(ids, [(1, 5), (2, 6), (3, 7)], "{pairs:?}");
}

/// Kalshi titles some cities' daily highs alike ("Will the maximum temperature be 88-89° on
/// Aug 4, 2026?"): the series in the ticker names the city. And the same city, day and bracket
/// on the two exchanges is settled on other readings (Wunderground's station history against
/// the NWS daily climate report, [`super::extract::settlement`]), which land in different
/// brackets on about a third of days: none of these pairs is served.
#[test]
fn a_weather_series_names_its_city_and_the_exchanges_settle_a_days_high_apart() {
    let reading =
        |number: usize, question: &str, ticker: &str| with_ticker(number, question, ticker, "2026-08-04T23:00:00Z");
    let citiless = "Will the maximum temperature be 88-89\u{b0} on Aug 4, 2026? \u{2014} 88\u{b0} to 89\u{b0}";
    let atlanta = reading(
        0,
        "Will the highest temperature in Atlanta be between 88-89\u{b0}F on August 4?",
        "",
    );
    let (atlanta_series, seattle_series) = (
        reading(2, citiless, "KXHIGHTATL-26AUG04-B88.5"),
        reading(3, citiless, "KXHIGHTSEA-26AUG04-B88.5"),
    );
    let same_city = explain(&atlanta, &atlanta_series).judgement;
    assert_eq!(same_city.subject.0, Agreement::Agree, "{same_city:?}");
    assert_eq!(same_city.refused_by, Some(Field::Form), "{same_city:?}");
    let other_city = explain(&atlanta, &seattle_series).judgement;
    assert_eq!(other_city.subject.0, Agreement::Conflict, "{other_city:?}");
    let (ids, pairs) = served_ids(&[atlanta, atlanta_series, seattle_series]);
    assert!(ids.is_empty(), "{pairs:?}");
    // A year's record high is no day's: the exchanges' settlement is not read into it.
    let year = |number: usize, on_kalshi: bool| {
        input(number, "Will global temperatures hit a record high in 2026?", on_kalshi)
    };
    let (polymarket_year, kalshi_year) = (year(0, false), year(1, true));
    assert_eq!(polymarket_year.features().settled_on, None);
    assert_eq!(explain(&polymarket_year, &kalshi_year).judgement.refused_by, None);
}

/// A game against a championship only the other side names: the game is not the title,
/// unless it is the final, which ends when the title's market ends. (The demo's one served
/// pair was a college basketball game in April against the NBA Finals.)
#[test]
fn a_game_pairs_with_a_championship_only_when_it_is_the_final() {
    let ending = |number: usize, question: &str, on_kalshi: bool, end: &str| MatchInput {
        end_date: Some(end.parse().unwrap()),
        ..input(number, question, on_kalshi)
    };
    let season = ending(
        0,
        "Will the Houston Rockets win the 2026 NBA Finals?",
        false,
        "2026-07-01T00:00:00Z",
    );
    let game = ending(
        1,
        "Idaho at Houston Winner? \u{2014} Houston",
        true,
        "2026-04-02T00:00:00Z",
    );
    assert_eq!(match_markets(&[season, game]), [], "a March game is not the NBA Finals");

    let title = ending(
        0,
        "Will the Philadelphia Eagles win Super Bowl LIX?",
        false,
        "2025-02-09T23:30:00Z",
    );
    let final_game = ending(
        1,
        "Kansas City at Philadelphia Winner? \u{2014} Philadelphia",
        true,
        "2025-02-09T23:30:00Z",
    );
    // The final is not refused for its contest (whether it pairs is then up to the rest).
    let judgement = score::judge(&title.features(), &final_game.features());
    assert_eq!(judgement.contest, score::Agreement::Unknown, "{judgement:?}");
}

proptest! {
    #[test]
    fn served_pairs_keep_every_invariant(inputs in markets()) {
        let pairs = match_markets(&inputs);
        prop_assert_eq!(&pairs, &match_markets(&inputs));
        let exchange_of: HashMap<Uuid, Exchange> = inputs.iter().map(|input| (input.id, input.exchange)).collect();
        let mut per_market: HashMap<Uuid, usize> = HashMap::new();
        for pair in &pairs {
            prop_assert_ne!(exchange_of[&pair.market_id], exchange_of[&pair.matched_id]);
            prop_assert!((SERVING_THRESHOLD..=1.0).contains(&pair.similarity));
            prop_assert_eq!((pair.similarity * 1000.0).round() / 1000.0, pair.similarity);
            prop_assert!(pairs.iter().any(|other| other.market_id == pair.matched_id
                && other.matched_id == pair.market_id && other.similarity == pair.similarity));
            *per_market.entry(pair.market_id).or_default() += 1;
        }
        prop_assert!(per_market.values().all(|&count| count <= MAX_MATCHES_PER_MARKET));
    }

    #[test]
    fn comparisons_are_symmetric_and_in_range(left in 0..QUESTIONS.len(), right in 0..QUESTIONS.len()) {
        let (left, right) = (input(0, QUESTIONS[left], false), input(1, QUESTIONS[right], true));
        let forward = explain(&left, &right).judgement;
        let backward = explain(&right, &left).judgement;
        prop_assert_eq!(forward, backward);
        prop_assert!((0.0..=1.0).contains(&forward.similarity));
    }

    #[test]
    fn an_index_updated_market_by_market_serves_what_a_rematch_serves(
        inputs in markets(),
        split in 0usize..40,
        removed in prop::collection::vec(any::<prop::sample::Index>(), 0..5),
    ) {
        let split = split.min(inputs.len());
        let mut index = MatchIndex::build(&inputs[..split]);
        let mut stored: HashMap<Uuid, Vec<MatchPair>> = HashMap::new();
        for pair in index.pairs() {
            stored.entry(pair.market_id).or_default().push(pair);
        }
        let apply = |delta: MatchDelta, stored: &mut HashMap<Uuid, Vec<MatchPair>>| {
            for market in &delta.markets {
                stored.remove(market);
            }
            for pair in delta.pairs {
                stored.entry(pair.market_id).or_default().push(pair);
            }
        };
        for input in &inputs[split..] {
            let delta = index.upsert(std::slice::from_ref(input));
            apply(delta, &mut stored);
        }
        let removed_ids: Vec<Uuid> = if inputs.is_empty() {
            Vec::new()
        } else {
            removed.iter().map(|pick| pick.get(&inputs).id).collect()
        };
        let delta = index.remove(&removed_ids);
        apply(delta, &mut stored);
        let remaining: Vec<MatchInput> = inputs.iter().filter(|input| !removed_ids.contains(&input.id)).cloned().collect();
        let mut incremental: Vec<MatchPair> = stored.into_values().flatten().collect();
        incremental.sort_by(|left, right| left.market_id.cmp(&right.market_id)
            .then(right.similarity.total_cmp(&left.similarity))
            .then(left.matched_id.cmp(&right.matched_id)));
        prop_assert_eq!(incremental, match_markets(&remaining));
    }
}

#[test]
fn a_games_end_is_read_on_the_american_day() {
    let ending = |end: &str| {
        let mut market = input(0, "Yankees vs. Red Sox", false);
        market.end_date = Some(end.parse().unwrap());
        market.features().end_day_american
    };
    let day = |text: &str| Some(text.parse::<chrono::NaiveDate>().unwrap());
    // A game in the evening ends after midnight UTC: in New York it is the day before, in
    // summer time (8pm EDT is 00:00 UTC) and in winter (11pm EST is 04:00 UTC).
    assert_eq!(ending("2026-05-02T00:00:00Z"), day("2026-05-01"));
    assert_eq!(ending("2026-05-02T00:15:00Z"), day("2026-05-01"));
    assert_eq!(ending("2026-01-06T04:00:00Z"), day("2026-01-05"));
    assert_eq!(ending("2026-05-02T04:30:00Z"), day("2026-05-02"));
    assert_eq!(ending("2026-05-02T23:00:00Z"), day("2026-05-02"));
}

#[test]
fn thresholds_one_step_apart_meet_in_the_index() {
    // Judged alike, so they must be compared: the index lists a strict threshold under its
    // inclusive equal too.
    for (polymarket, kalshi) in [
        (
            "Will Kylian Mbappe score over 1.5 goals against Chelsea on January 25?",
            "Will Kylian Mbappe score 2 or more goals against Chelsea on January 25?",
        ),
        (
            "Will the unemployment rate be above 4.6% in January 2026?",
            "Will the unemployment rate be 4.7% or more in January 2026?",
        ),
        (
            "Will the Fed increase interest rates by 50+ bps after the December 2025 meeting?",
            "Will the Federal Reserve Hike rates by >25bps at their December 2025 meeting?",
        ),
    ] {
        let pairs = match_markets(&[input(0, polymarket, false), input(1, kalshi, true)]);
        assert_eq!(
            pairs.len(),
            2,
            "{polymarket} | {kalshi}: one pair, listed from each side"
        );
    }
}

#[test]
fn a_league_under_its_abbreviation_is_that_league_only() {
    let ipl = input(0, "Will Rajasthan Royals win the 2025 Indian Premier League?", false);
    let pairs = match_markets(&[ipl.clone(), input(1, "Will Rajasthan Royals win the IPL?", true)]);
    assert_eq!(pairs.len(), 2, "the IPL is the Indian Premier League");
    let football = input(1, "Will Rajasthan Royals win the 2025 Premier League?", true);
    assert!(match_markets(&[ipl, football]).is_empty(), "not the English one");
}

#[test]
fn a_kalshi_tickers_date_stands_in_for_a_close_the_recording_lacks() {
    let kalshi = |question: &str, ticker: &str| MatchInput {
        end_date: None,
        external_id: ticker.to_owned(),
        ..input(1, question, true)
    };
    let polymarket = |question: &str| MatchInput {
        end_date: None,
        ..input(0, question, false)
    };
    let newsom = kalshi(
        "Will Gavin Newsom be the nominee for the Presidency for the Democratic party?",
        "KXPRESNOMD-28-GN",
    );
    let in_2024 = polymarket("Will Gavin Newsom win the 2024 Democratic Presidential Nomination?");
    let in_2028 = polymarket("Will Gavin Newsom win the 2028 Democratic Presidential Nomination?");
    assert!(!explain(&in_2024, &newsom).is_match());
    assert!(explain(&in_2028, &newsom).is_match());
    // A day: the deadline "by June 30" of a market with no close is the ticker's.
    let rubio = kalshi("Will Marco Rubio visit Iran?", "KXVISITIRAN-26JUL01-MRUB");
    assert!(explain(&polymarket("Will Marco Rubio enter Iran by June 30?"), &rubio).is_match());
    assert!(!explain(&polymarket("Will Marco Rubio enter Iran by March 31?"), &rubio).is_match());
    // A close, where recorded, decides.
    let closing = MatchInput {
        end_date: Some("2024-08-22T12:00:00Z".parse().unwrap()),
        ..newsom.clone()
    };
    assert!(explain(&in_2024, &closing).is_match());
}
