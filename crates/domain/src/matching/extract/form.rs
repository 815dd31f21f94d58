//! The form of a question and the stage of its contest: what must happen for Yes.
//!
//! Two questions can name the same person, contest and year and still resolve apart because
//! they ask for different things: to win the election or the nomination, to qualify for the
//! World Cup or win it, to leave office this year or be the first of a list to leave, to win
//! the most seats or merely gain some, to finish second, to advance past the first round or to
//! win it. The exchanges word each of these in a few fixed ways, read here into a [`Form`]
//! and a set of [`Stage`]s.
//!
//! A question with no marker asks whether its subject wins or the event happens
//! ([`Form::Happen`]); stages absent mean the whole contest. Two questions of different
//! forms, or of different stages, are different questions.

use std::collections::HashMap;
use std::fmt;
use std::sync::LazyLock;

use super::tokens::Token;

/// What a question asks of its subject.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// Wins, or the event happens: no other marker.
    Happen,
    /// Qualifies for a contest ("qualify for the World Cup", "make the playoffs").
    Qualify,
    /// Reaches a stage ("advance to the second round", "make the final", "reach the
    /// semifinals") without having to win it.
    Advance,
    /// Is nominated or chosen as a party's candidate ("the nominee", "win the nomination").
    Nominated,
    /// Runs, announces or declares a candidacy.
    Run,
    /// Is the first of several to do something ("leave the administration first").
    First,
    /// Wins the most seats or votes, or is the largest party.
    Most,
    /// Finishes in a given place other than first ("finish 2nd", "second-most seats").
    Place(u8),
    /// Finishes in a given place or any beyond it ("the sixth-hottest year on record or
    /// lower"): not that place alone.
    PlaceOrBeyond(u8),
    /// Finishes last ("finish in last place", "finish bottom"): relegation takes more than
    /// the last place, and the last place is no relegation where nobody goes down.
    Last,
    /// Gains (or keeps) seats, without having to be the largest.
    GainSeats,
    /// Becomes the next holder of an office ("be the next Supreme Leader"): a succession,
    /// not the current holder leaving.
    Next,
    /// A game ends level ("end in a draw", Kalshi's choice "Tie"): neither side wins.
    Draw,
    /// Both sides of a game score ("Both Teams to Score"), whoever wins.
    BothScore,
    /// Some successor is named, whoever it is ("name a successor", "appoint a new leader"):
    /// not the question whether one named person is the next holder ([`Form::Next`]), which
    /// another's being named resolves the other way.
    AnySuccessor,
    /// Someone, whoever it is, is endorsed ("endorse a candidate for NYC Mayor"): not the
    /// question whether one named person is, which another's endorsement resolves apart.
    AnyoneEndorsed,
}

impl fmt::Display for Form {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Form::Happen => write!(formatter, "win / happen"),
            Form::Qualify => write!(formatter, "qualify"),
            Form::Advance => write!(formatter, "advance to a stage"),
            Form::Nominated => write!(formatter, "be nominated"),
            Form::Run => write!(formatter, "run / announce"),
            Form::First => write!(formatter, "be the first"),
            Form::Most => write!(formatter, "win the most"),
            Form::Place(place) => write!(formatter, "finish {place}"),
            Form::PlaceOrBeyond(place) => write!(formatter, "finish {place} or beyond"),
            Form::Last => write!(formatter, "finish last"),
            Form::GainSeats => write!(formatter, "gain seats"),
            Form::Next => write!(formatter, "be the next holder"),
            Form::Draw => write!(formatter, "end in a draw"),
            Form::BothScore => write!(formatter, "both teams score"),
            Form::AnySuccessor => write!(formatter, "any successor named"),
            Form::AnyoneEndorsed => write!(formatter, "anyone endorsed"),
        }
    }
}

/// A stage of a contest, when the question names one rather than the whole contest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    FirstRound,
    SecondRound,
    Runoff,
    Semifinal,
    Quarterfinal,
    /// A set, half, quarter or period of a game rather than the game.
    PartOfGame,
    /// The final, as a stage to reach ("qualify for the World Cup Final", "make the final"):
    /// winning the final is winning the contest, so it is read only after a verb of reaching.
    Final,
    /// A round named by how many remain ("Round of 16").
    RoundOf(u16),
    /// The group stage or one group ("Group G"): topping a group is not winning the contest.
    Group,
    /// The knockout stage, as a stage to reach.
    Knockout,
    /// A party's primary, which picks a candidate for the election: winning it is not
    /// winning the election.
    Primary,
    /// The regular season, whose best record is a title of its own: a conference's regular
    /// season champion is not the winner of its tournament or playoffs.
    RegularSeason,
    /// One part of a contest's vote (the popular vote, a jury's vote, the televote): winning
    /// it is not winning the contest.
    PartOfVote,
    /// A central bank's emergency (unscheduled) meeting: a cut at one is not any cut.
    EmergencyMeeting,
}

impl fmt::Display for Stage {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Stage::FirstRound => "first round",
            Stage::SecondRound => "second round",
            Stage::Runoff => "runoff",
            Stage::Semifinal => "semifinal",
            Stage::Quarterfinal => "quarterfinal",
            Stage::PartOfGame => "part of a game",
            Stage::Final => "final",
            Stage::RoundOf(remaining) => return write!(formatter, "round of {remaining}"),
            Stage::Group => "group stage",
            Stage::Knockout => "knockout stage",
            Stage::RegularSeason => "regular season",
            Stage::PartOfVote => "part of the vote",
            Stage::Primary => "primary",
            Stage::EmergencyMeeting => "emergency meeting",
        };
        formatter.write_str(name)
    }
}

/// Over what span a figure is measured, when a question says ("annual inflation" is not
/// the month's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Span {
    Annual,
    Monthly,
    Quarterly,
}

/// The event a question's main verb names. Two questions about the same person, place and
/// year whose verbs name different events resolve apart: winning an election is not dropping
/// out of it, visiting Greenland is not acquiring it, endorsing a candidate is not meeting
/// one. Read only where a verb of one of these classes is written; a question with none
/// states no action, and is compared on its other fields alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Wins, is elected, is champion.
    Win,
    /// Drops out, withdraws, suspends a campaign: leaves a race before it is decided.
    Withdraw,
    /// Visits, enters or travels to a place.
    Visit,
    /// Acquires, buys, annexes or takes control of something.
    Acquire,
    /// Endorses someone.
    Endorse,
    /// Meets someone in person.
    Meet,
    /// Talks with someone, a call included, which a meeting in person is not.
    Talk,
    /// Shakes hands with someone: a meeting may go without it.
    ShakeHands,
    /// Signs a law, an order or a deal, or agrees to one.
    Sign,
    /// Leaves an office: resigns, steps down, is removed, is "out" (Polymarket's "Netanyahu
    /// out by ...?").
    Leave,
    /// Recognizes someone or something (a government, a state).
    Recognize,
    /// Something ongoing ends (a war, a conflict, a shutdown).
    End,
    /// Gets engaged.
    Engage,
    /// Marries (a wedding).
    Marry,
    /// Divorces.
    Divorce,
    /// Strikes, attacks or bombs a place: not invading it, not dealing with it.
    Attack,
    /// Invades a country (troops on the ground), which a strike is not.
    Invade,
    /// Reopens something closed (an embassy, a border, a strait).
    Reopen,
    /// Holds a vote (an election, a referendum): whether it takes place, not who wins it.
    HoldVote,
    /// A regime or a government falls or collapses, which one leader leaving is not.
    Fall,
    /// Is seen or appears in public.
    Appear,
    /// Is indicted or charged with a crime, which needs no arrest.
    Charged,
    /// Is arrested, which needs no charge.
    Arrested,
    /// Fires someone from an office, which a resignation is not.
    Fire,
    /// Is impeached.
    Impeached,
    /// Is pardoned.
    Pardoned,
    /// Goes down a division ("be relegated from Ligue 1"), which no winner does.
    Relegated,
    /// Releases or launches something (an album, a product, a coin).
    Release,
    /// Announces or unveils something, which need not be out yet.
    Announce,
    /// Some other event, named by a verb no class above covers: only ever the second of two
    /// joined by "and" ("impeached and convicted", "arrested and extradited").
    Other,
}

impl fmt::Display for Action {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Action::Win => "win",
            Action::Withdraw => "drop out",
            Action::Visit => "visit",
            Action::Acquire => "acquire",
            Action::Endorse => "endorse",
            Action::Meet => "meet",
            Action::Talk => "talk",
            Action::ShakeHands => "shake hands",
            Action::Sign => "sign / agree",
            Action::Leave => "leave office",
            Action::Recognize => "recognize",
            Action::End => "end",
            Action::Engage => "get engaged",
            Action::Marry => "marry",
            Action::Divorce => "divorce",
            Action::Attack => "strike / attack",
            Action::Invade => "invade",
            Action::Reopen => "reopen",
            Action::HoldVote => "hold a vote",
            Action::Fall => "fall / collapse",
            Action::Appear => "appear in public",
            Action::Charged => "be charged",
            Action::Arrested => "be arrested",
            Action::Fire => "fire",
            Action::Impeached => "be impeached",
            Action::Relegated => "be relegated",
            Action::Pardoned => "be pardoned",
            Action::Release => "release",
            Action::Announce => "announce",
            Action::Other => "something else",
        };
        formatter.write_str(name)
    }
}

/// Which extreme of a reading a question asks about: the day's high temperature is not its
/// low, and how high Bitcoin gets in a year is not how low.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Extreme {
    High,
    Low,
}

/// A question's form and stages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reading {
    pub form: Option<Form>,
    pub stages: Vec<Stage>,
    pub span: Option<Span>,
    /// The event the first verb of an [`Action`] class names, if any.
    pub action: Option<Action>,
    /// A second event joined to the first by "and" ("be impeached and removed", "arrested and
    /// charged"): both must happen, which the first alone does not ask.
    pub joined_action: Option<Action>,
    /// The extreme of a reading the question asks about, if it names one.
    pub extreme: Option<Extreme>,
    /// The statistic a ranking or a total counts, if the question names one ("lead the NBA
    /// in assists", "most gold medals"): the points leader is not the assists leader.
    pub measure: Option<&'static str>,
    /// Whether the question names a temperature ("the highest temperature", "high temp").
    pub names_a_temperature: bool,
    /// Whether the question names an election ("election", "elected", "race"): winning one is
    /// how an elected office gets its next holder, and it is decided on its own day.
    pub names_an_election: bool,
}

impl Reading {
    /// The form, `Happen` when no marker was found.
    pub fn form(&self) -> Form {
        self.form.unwrap_or(Form::Happen)
    }

    pub fn describe(&self) -> String {
        let mut description = self.form().to_string();
        for stage in &self.stages {
            description.push_str(&format!(", {stage}"));
        }
        if let Some(span) = self.span {
            description.push_str(&format!(", {span:?} figure").to_lowercase());
        }
        if let Some(action) = self.action {
            description.push_str(&format!(", action: {action}"));
        }
        if let Some(action) = self.joined_action {
            description.push_str(&format!(" and {action}"));
        }
        if let Some(extreme) = self.extreme {
            description.push_str(&format!(", the {extreme:?}").to_lowercase());
        }
        if let Some(measure) = self.measure {
            description.push_str(&format!(", in {measure}"));
        }
        description
    }

    /// Whether both name an extreme and they differ (the day's high against its low).
    pub fn other_extreme(&self, other: &Reading) -> bool {
        matches!((self.extreme, other.extreme), (Some(left), Some(right)) if left != right)
    }

    /// Whether both name the statistic they count and it differs (assists against points,
    /// gold medals against all medals).
    pub fn other_measure(&self, other: &Reading) -> bool {
        matches!((self.measure, other.measure), (Some(left), Some(right)) if left != right)
    }

    /// Whether both state an action and the actions differ ("win" against "drop out"), or
    /// both state the same one and only one joins a second to it ("impeached" against
    /// "impeached and removed").
    pub fn other_action(&self, other: &Reading) -> bool {
        match (self.action, other.action) {
            (Some(left), Some(right)) => left != right || self.joined_action != other.joined_action,
            _ => false,
        }
    }

    /// Whether one asks who is the next holder of an office and the other who wins the
    /// election that fills it ("be the next Mayor of Bucharest" / "win the Bucharest mayoral
    /// election"): one question, as long as the office is filled by that election.
    pub fn succession_by_election(&self, other: &Reading) -> bool {
        let wins_an_election = |reading: &Reading| {
            reading.form() == Form::Happen && reading.action == Some(Action::Win) && reading.names_an_election
        };
        (self.form() == Form::Next && wins_an_election(other)) || (other.form() == Form::Next && wins_an_election(self))
    }
}

/// Phrases (lower-case words, in order) and the form they mark. The first match in the
/// question wins, longer phrases first at the same place.
const FORMS: &[(&[&str], Form)] = &[
    (&["finish", "2nd"], Form::Place(2)),
    (&["finish", "second"], Form::Place(2)),
    (&["finish", "3rd"], Form::Place(3)),
    (&["finish", "third"], Form::Place(3)),
    (&["runner", "up"], Form::Place(2)),
    (&["second", "place"], Form::Place(2)),
    (&["2nd", "place"], Form::Place(2)),
    (&["third", "place"], Form::Place(3)),
    (&["3rd", "place"], Form::Place(3)),
    (&["last", "place"], Form::Last),
    (&["finish", "last"], Form::Last),
    (&["finishes", "last"], Form::Last),
    (&["finish", "bottom"], Form::Last),
    (&["at", "the", "bottom"], Form::Last),
    (&["bottom", "of", "the"], Form::Last),
    (&["worst", "record"], Form::Last),
    (&["finishes", "bottom"], Form::Last),
    (&["most", "seats"], Form::Most),
    (&["most", "votes"], Form::Most),
    (&["largest", "party"], Form::Most),
    (&["gain", "seats"], Form::GainSeats),
    (&["gains", "seats"], Form::GainSeats),
    (&["qualify"], Form::Qualify),
    (&["qualifies"], Form::Qualify),
    (&["qualified"], Form::Qualify),
    (&["make", "the", "playoffs"], Form::Qualify),
    (&["make", "playoffs"], Form::Qualify),
    (&["advance"], Form::Advance),
    (&["advances"], Form::Advance),
    (&["make", "the", "final"], Form::Advance),
    (&["make", "the", "finals"], Form::Advance),
    (&["reach", "the", "final"], Form::Advance),
    (&["reach", "the", "finals"], Form::Advance),
    (&["reach", "the", "semifinals"], Form::Advance),
    (&["reach", "the", "semifinal"], Form::Advance),
    (&["nominee"], Form::Nominated),
    (&["nomination"], Form::Nominated),
    (&["nominated"], Form::Nominated),
    // An award's list of nominees ("2027 Best Picture Oscar nominations? — The Invite").
    // ("Which Trump nominees will be confirmed?" asks about confirmations: not "nominees".)
    (&["nominations"], Form::Nominated),
    (&["run", "for"], Form::Run),
    (&["running", "for"], Form::Run),
    (&["announce", "a", "run"], Form::Run),
    (&["announce", "a", "presidential", "run"], Form::Run),
    (&["declare", "a", "run"], Form::Run),
    (&["announce", "candidacy"], Form::Run),
    (&["declare", "for"], Form::Run),
    (&["declares", "for"], Form::Run),
    (&["first", "to"], Form::First),
    (&["first", "person", "to"], Form::First),
    (&["be", "first"], Form::First),
    // "Be the next Mayor", not "win the next election".
    (&["be", "the", "next"], Form::Next),
    (&["become", "the", "next"], Form::Next),
    (&["as", "the", "next"], Form::Next),
    (&["successor"], Form::Next),
    // "Name a successor", "appoint a new Supreme Leader": anyone, not one named person.
    (&["a", "successor"], Form::AnySuccessor),
    (&["any", "successor"], Form::AnySuccessor),
    (&["name", "a", "new"], Form::AnySuccessor),
    (&["names", "a", "new"], Form::AnySuccessor),
    (&["appoint", "a", "new"], Form::AnySuccessor),
    (&["appoints", "a", "new"], Form::AnySuccessor),
    (&["choose", "a", "new"], Form::AnySuccessor),
    (&["chooses", "a", "new"], Form::AnySuccessor),
    (&["endorse", "a", "candidate"], Form::AnyoneEndorsed),
    (&["endorses", "a", "candidate"], Form::AnyoneEndorsed),
    (&["endorse", "any", "candidate"], Form::AnyoneEndorsed),
    (&["endorse", "anyone"], Form::AnyoneEndorsed),
    (&["endorses", "anyone"], Form::AnyoneEndorsed),
    (&["end", "in", "a", "draw"], Form::Draw),
    (&["end", "in", "a", "tie"], Form::Draw),
    (&["ends", "in", "a", "draw"], Form::Draw),
    (&["ends", "in", "a", "tie"], Form::Draw),
    // "Villarreal CF vs. Sevilla FC: Draw at halftime?" ("draw at least 50,000 fans" is no
    // draw).
    (&["draw", "at", "halftime"], Form::Draw),
    (&["draw", "at", "half", "time"], Form::Draw),
    (&["both", "teams", "to", "score"], Form::BothScore),
    (&["both", "teams", "score"], Form::BothScore),
    (&["btts"], Form::BothScore),
];

/// Verb phrases and the action they name. Inflections are listed: matching is by word.
const ACTIONS: &[(&[&str], Action)] = &[
    (&["win"], Action::Win),
    (&["wins"], Action::Win),
    (&["won"], Action::Win),
    (&["winner"], Action::Win),
    (&["elected"], Action::Win),
    (&["drop", "out"], Action::Withdraw),
    (&["drops", "out"], Action::Withdraw),
    (&["dropped", "out"], Action::Withdraw),
    (&["withdraw"], Action::Withdraw),
    (&["withdraws"], Action::Withdraw),
    (&["suspend", "his", "campaign"], Action::Withdraw),
    (&["suspend", "her", "campaign"], Action::Withdraw),
    (&["exit", "the", "race"], Action::Withdraw),
    (&["visit"], Action::Visit),
    (&["visits"], Action::Visit),
    (&["enter"], Action::Visit),
    (&["enters"], Action::Visit),
    (&["travel", "to"], Action::Visit),
    (&["travels", "to"], Action::Visit),
    (&["acquire"], Action::Acquire),
    (&["acquires"], Action::Acquire),
    (&["acquired"], Action::Acquire),
    (&["buy"], Action::Acquire),
    (&["buys"], Action::Acquire),
    (&["purchase"], Action::Acquire),
    (&["annex"], Action::Acquire),
    (&["annexes"], Action::Acquire),
    (&["take", "control"], Action::Acquire),
    (&["takes", "control"], Action::Acquire),
    (&["endorse"], Action::Endorse),
    (&["endorses"], Action::Endorse),
    (&["endorsed"], Action::Endorse),
    (&["shake", "hands"], Action::ShakeHands),
    (&["shakes", "hands"], Action::ShakeHands),
    (&["shaking", "hands"], Action::ShakeHands),
    (&["shook", "hands"], Action::ShakeHands),
    (&["handshake"], Action::ShakeHands),
    (&["meet"], Action::Meet),
    (&["meets"], Action::Meet),
    (&["meet", "with"], Action::Meet),
    (&["talk", "to"], Action::Talk),
    (&["talk", "with"], Action::Talk),
    (&["talks", "to"], Action::Talk),
    (&["talks", "with"], Action::Talk),
    (&["speak", "to"], Action::Talk),
    (&["speak", "with"], Action::Talk),
    (&["speaks", "to"], Action::Talk),
    (&["speaks", "with"], Action::Talk),
    (&["sign"], Action::Sign),
    (&["signs"], Action::Sign),
    (&["signed"], Action::Sign),
    (&["agree"], Action::Sign),
    (&["agrees"], Action::Sign),
    (&["agreed"], Action::Sign),
    (&["reach", "a", "deal"], Action::Sign),
    (&["reaches", "a", "deal"], Action::Sign),
    (&["reach", "an", "agreement"], Action::Sign),
    (&["reaches", "an", "agreement"], Action::Sign),
    (&["strike", "a", "deal"], Action::Sign),
    (&["strikes", "a", "deal"], Action::Sign),
    (&["engaged"], Action::Engage),
    (&["engagement"], Action::Engage),
    (&["marry"], Action::Marry),
    (&["marries"], Action::Marry),
    (&["married"], Action::Marry),
    (&["wedding"], Action::Marry),
    (&["divorce"], Action::Divorce),
    (&["divorces"], Action::Divorce),
    (&["divorced"], Action::Divorce),
    // "Strike a deal" is an agreement (above): the longest phrase at a place wins.
    (&["strike"], Action::Attack),
    (&["strikes"], Action::Attack),
    (&["struck"], Action::Attack),
    (&["attack"], Action::Attack),
    (&["attacks"], Action::Attack),
    (&["attacked"], Action::Attack),
    (&["bomb"], Action::Attack),
    (&["bombs"], Action::Attack),
    (&["bombed"], Action::Attack),
    (&["invade"], Action::Invade),
    (&["invades"], Action::Invade),
    (&["invaded"], Action::Invade),
    (&["invasion"], Action::Invade),
    (&["reopen"], Action::Reopen),
    (&["reopens"], Action::Reopen),
    (&["reopened"], Action::Reopen),
    (&["hold", "an", "election"], Action::HoldVote),
    (&["hold", "elections"], Action::HoldVote),
    (&["hold", "a", "referendum"], Action::HoldVote),
    (&["hold", "a", "presidential", "election"], Action::HoldVote),
    (&["hold", "a", "general", "election"], Action::HoldVote),
    (&["hold", "a", "snap", "election"], Action::HoldVote),
    (&["hold", "a", "vote"], Action::HoldVote),
    (&["holds", "an", "election"], Action::HoldVote),
    (&["holds", "elections"], Action::HoldVote),
    (&["holds", "a", "referendum"], Action::HoldVote),
    (&["holds", "a", "presidential", "election"], Action::HoldVote),
    (&["holds", "a", "general", "election"], Action::HoldVote),
    (&["holds", "a", "snap", "election"], Action::HoldVote),
    (&["holds", "a", "vote"], Action::HoldVote),
    (&["fall"], Action::Fall),
    (&["falls"], Action::Fall),
    (&["collapse"], Action::Fall),
    (&["collapses"], Action::Fall),
    (&["seen", "in", "public"], Action::Appear),
    (&["appear", "in", "public"], Action::Appear),
    (&["appears", "in", "public"], Action::Appear),
    (&["recognize"], Action::Recognize),
    (&["recognizes"], Action::Recognize),
    (&["recognized"], Action::Recognize),
    (&["recognise"], Action::Recognize),
    (&["recognises"], Action::Recognize),
    (&["recognised"], Action::Recognize),
    (&["resign"], Action::Leave),
    (&["resigns"], Action::Leave),
    (&["step", "down"], Action::Leave),
    (&["steps", "down"], Action::Leave),
    (&["leave", "office"], Action::Leave),
    (&["leaves", "office"], Action::Leave),
    (&["removed", "from", "office"], Action::Leave),
    (&["leave", "the", "cabinet"], Action::Leave),
    (&["leaves", "the", "cabinet"], Action::Leave),
    (&["leave", "the", "trump", "cabinet"], Action::Leave),
    (&["leaves", "the", "trump", "cabinet"], Action::Leave),
    (&["leave", "the", "administration"], Action::Leave),
    (&["leaves", "the", "administration"], Action::Leave),
    (&["leave", "the", "trump", "administration"], Action::Leave),
    (&["leaves", "the", "trump", "administration"], Action::Leave),
    // Kalshi's "leave President of Russia", "leave Prime Minister of Israel": an office's
    // title after "leave" (not "leave Iran", a place).
    (&["leave", "president"], Action::Leave),
    (&["leave", "prime"], Action::Leave),
    (&["leave", "supreme"], Action::Leave),
    (&["leave", "general"], Action::Leave),
    (&["leave", "chancellor"], Action::Leave),
    (&["leave", "premier"], Action::Leave),
    (&["leave", "power"], Action::Leave),
    (&["indicted"], Action::Charged),
    (&["charged"], Action::Charged),
    (&["arrested"], Action::Arrested),
    // Weapons fired are a strike, not a dismissal (which `action_by_position` reads).
    (&["fire", "a", "missile"], Action::Attack),
    (&["fire", "missiles"], Action::Attack),
    (&["fires", "missiles"], Action::Attack),
    (&["fire", "rockets"], Action::Attack),
    (&["fires", "rockets"], Action::Attack),
    (&["open", "fire"], Action::Attack),
    (&["opens", "fire"], Action::Attack),
    (&["impeached"], Action::Impeached),
    (&["relegated"], Action::Relegated),
    (&["relegation"], Action::Relegated),
    (&["pardon"], Action::Pardoned),
    (&["pardons"], Action::Pardoned),
    (&["pardoned"], Action::Pardoned),
    (&["release"], Action::Release),
    (&["releases"], Action::Release),
    (&["released"], Action::Release),
    (&["launch"], Action::Release),
    (&["launches"], Action::Release),
    (&["launched"], Action::Release),
    (&["announce"], Action::Announce),
    (&["announces"], Action::Announce),
    (&["announced"], Action::Announce),
    (&["unveil"], Action::Announce),
    (&["unveils"], Action::Announce),
];

/// Stage phrases.
const STAGES: &[(&[&str], Stage)] = &[
    (&["first", "round"], Stage::FirstRound),
    (&["1st", "round"], Stage::FirstRound),
    (&["outright"], Stage::FirstRound),
    (&["second", "round"], Stage::SecondRound),
    (&["2nd", "round"], Stage::SecondRound),
    (&["runoff"], Stage::Runoff),
    // Not "a national emergency": a rate move's.
    (&["emergency", "rate"], Stage::EmergencyMeeting),
    (&["emergency", "cut"], Stage::EmergencyMeeting),
    (&["emergency", "meeting"], Stage::EmergencyMeeting),
    (&["emergency", "meetings"], Stage::EmergencyMeeting),
    (&["emergency", "interest"], Stage::EmergencyMeeting),
    (&["emergency", "fed"], Stage::EmergencyMeeting),
    (&["emergency", "fomc"], Stage::EmergencyMeeting),
    (&["intermeeting"], Stage::EmergencyMeeting),
    (&["primary"], Stage::Primary),
    (&["primaries"], Stage::Primary),
    (&["run", "off"], Stage::Runoff),
    (&["semifinal"], Stage::Semifinal),
    (&["semifinals"], Stage::Semifinal),
    (&["semi", "final"], Stage::Semifinal),
    (&["quarterfinal"], Stage::Quarterfinal),
    (&["quarterfinals"], Stage::Quarterfinal),
    (&["set", "1"], Stage::PartOfGame),
    (&["set", "2"], Stage::PartOfGame),
    (&["set", "3"], Stage::PartOfGame),
    (&["first", "set"], Stage::PartOfGame),
    (&["second", "set"], Stage::PartOfGame),
    (&["first", "half"], Stage::PartOfGame),
    (&["1h"], Stage::PartOfGame),
    (&["2h"], Stage::PartOfGame),
    (&["second", "half"], Stage::PartOfGame),
    (&["1st", "half"], Stage::PartOfGame),
    (&["2nd", "half"], Stage::PartOfGame),
    (&["first", "quarter"], Stage::PartOfGame),
    (&["1st", "quarter"], Stage::PartOfGame),
    (&["first", "period"], Stage::PartOfGame),
    (&["1st", "period"], Stage::PartOfGame),
    (&["first", "inning"], Stage::PartOfGame),
    // Leading at halftime is winning the first half (a halftime show is no part of a game).
    (&["at", "halftime"], Stage::PartOfGame),
    (&["at", "half", "time"], Stage::PartOfGame),
    (&["jury", "vote"], Stage::PartOfVote),
    (&["jury", "winner"], Stage::PartOfVote),
    (&["televote"], Stage::PartOfVote),
    (&["public", "vote"], Stage::PartOfVote),
    (&["first", "5", "innings"], Stage::PartOfGame),
    // The NCAA's "Final Four" is its semifinals, not its final.
    (&["final", "four"], Stage::Semifinal),
    (&["group", "stage"], Stage::Group),
    (&["knockout", "stage"], Stage::Knockout),
    (&["knockout", "round"], Stage::Knockout),
    (&["knockout", "rounds"], Stage::Knockout),
    (&["knockouts"], Stage::Knockout),
];

/// Span phrases.
const SPANS: &[(&[&str], Span)] = &[
    (&["annual"], Span::Annual),
    (&["annually"], Span::Annual),
    (&["year", "over", "year"], Span::Annual),
    (&["year", "on", "year"], Span::Annual),
    (&["yoy"], Span::Annual),
    (&["12", "month"], Span::Annual),
    (&["for", "the", "year", "ending"], Span::Annual),
    (&["monthly"], Span::Monthly),
    (&["month", "over", "month"], Span::Monthly),
    (&["month", "on", "month"], Span::Monthly),
    (&["mom"], Span::Monthly),
    (&["quarterly"], Span::Quarterly),
    (&["quarter", "over", "quarter"], Span::Quarterly),
];

/// Reads the form and stages of the question whose tokens are `tokens` (claimed or not:
/// the form is read from every word).
pub fn extract(tokens: &[Token]) -> Reading {
    let words: Vec<&str> = tokens.iter().map(|token| token.lower.as_str()).collect();
    let phrase_at =
        |at: usize, phrase: &[&str]| words.len() >= at + phrase.len() && words[at..at + phrase.len()] == *phrase;
    let mut reading = Reading {
        names_an_election: words
            .iter()
            .any(|word| matches!(*word, "election" | "elections" | "elected" | "race")),
        extreme: words.iter().find_map(|word| match *word {
            "highest" | "high" | "maximum" | "max" | "peak" => Some(Extreme::High),
            "lowest" | "low" | "minimum" | "min" => Some(Extreme::Low),
            _ => None,
        }),
        measure: measure(&words),
        names_a_temperature: words
            .iter()
            .any(|word| matches!(*word, "temperature" | "temperatures" | "temp" | "temps")),
        ..Reading::default()
    };
    // After the first action, another one right after "and" ("and removed", "and be
    // charged") is joined to it.
    let and_before = |at: usize| words[at - 1] == "and" || tokens[at].gap_before.contains('&');
    let joined_at = |at: usize| match at.checked_sub(1).map(|before| words[before]) {
        Some("be" | "get" | "then") => at >= 2 && and_before(at - 1),
        Some(_) => and_before(at),
        None => false,
    };
    let mut first_at = None;
    let mut join = |reading: &mut Reading, action: Option<Action>, at: usize| match (reading.action, action) {
        (None, Some(_)) => {
            reading.action = action;
            first_at = Some(at);
        }
        // A visit joined to a meeting is where the meeting is ("meet Putin and visit Moscow").
        (Some(first), Some(second))
            if reading.joined_action.is_none()
                && second != first
                && second != Action::Visit
                && first_at < Some(at)
                && joined_at(at) =>
        {
            reading.joined_action = Some(second);
        }
        _ => {}
    };
    for (at, word) in words.iter().enumerate() {
        join(&mut reading, action_by_position(tokens, &words, at), at);
        if let Some(stage) = stage_by_position(&words, at)
            && !reading.stages.contains(&stage)
        {
            reading.stages.push(stage);
        }
        if reading.form.is_none() {
            reading.form = ranked_place(&words, at);
        }
        if reading.form.is_none() && reaches_a_named_contest(tokens, &words, at) {
            reading.form = Some(Form::Qualify);
        }
        // Only phrases that start with this word: this runs for every market.
        let Some(starting_here) = PHRASES_BY_FIRST_WORD.get(word) else {
            continue;
        };
        for marker in starting_here {
            match *marker {
                // Longest first (see `PHRASES_BY_FIRST_WORD`): the first form that fits wins.
                // What is announced or named is its object: "announce a new nominee for Chair"
                // asks about the announcement, not whether the subject is nominated.
                Marker::Form(_, Form::Nominated) if reading.action == Some(Action::Announce) => {}
                Marker::Form(phrase, form) if reading.form.is_none() && phrase_at(at, phrase) => {
                    reading.form = Some(form);
                }
                Marker::Stage(phrase, stage) if phrase_at(at, phrase) && !reading.stages.contains(&stage) => {
                    reading.stages.push(stage);
                }
                Marker::Span(phrase, span) if reading.span.is_none() && phrase_at(at, phrase) => {
                    reading.span = Some(span);
                }
                Marker::Action(phrase, action) if phrase_at(at, phrase) => join(&mut reading, Some(action), at),
                _ => {}
            }
        }
    }
    // A participle after "and" that no class names is still a second event: "impeached and
    // convicted" is not "impeached" ("removed" and "ousted" are leaving office).
    if reading.joined_action.is_none()
        && let Some(first) = first_at
    {
        reading.joined_action = (first + 1..words.len())
            .find(|&at| joined_at(at) && words[at].len() > 4 && words[at].ends_with("ed"))
            .map(|at| match words[at] {
                "removed" | "ousted" => Action::Leave,
                _ => Action::Other,
            });
    }
    // "Leave the administration first?": a closing "first" asks who is first.
    if reading.form.is_none() && words.last() == Some(&"first") && !reading.stages.contains(&Stage::FirstRound) {
        reading.form = Some(Form::First);
    }
    // Reaching a stage: "qualify for the World Cup Final" and "make the final" ask to reach
    // it. (Winning the final is winning the contest: no stage then.)
    let reaching = matches!(reading.form, Some(Form::Qualify | Form::Advance));
    if reaching
        && !reading.stages.contains(&Stage::Final)
        && words
            .iter()
            .enumerate()
            .any(|(at, word)| matches!(*word, "final" | "finals") && words.get(at + 1) != Some(&"four"))
    {
        reading.stages.push(Stage::Final);
    }
    // To qualify for a stage of a contest is to reach it, however it is worded.
    if reading.form == Some(Form::Qualify) && reading.stages.iter().any(|stage| stage.is_reached()) {
        reading.form = Some(Form::Advance);
    }
    reading.stages.sort_unstable();
    reading
}

/// Statistics a ranking or a total counts, as (words, the statistic): two-word ones first.
const MEASURES: &[(&[&str], &str)] = &[
    (&["gold", "medals"], "gold medals"),
    (&["gold", "medal"], "gold medals"),
    (&["home", "runs"], "home runs"),
    (&["passing", "yards"], "passing yards"),
    (&["rushing", "yards"], "rushing yards"),
    (&["receiving", "yards"], "receiving yards"),
    (&["points"], "points"),
    (&["ppg"], "points"),
    (&["assists"], "assists"),
    (&["apg"], "assists"),
    (&["rebounds"], "rebounds"),
    (&["rpg"], "rebounds"),
    (&["steals"], "steals"),
    (&["blocks"], "blocks"),
    (&["strikeouts"], "strikeouts"),
    (&["touchdowns"], "touchdowns"),
    (&["sacks"], "sacks"),
    (&["interceptions"], "interceptions"),
    (&["medals"], "medals"),
    (&["golds"], "gold medals"),
    (&["goals"], "goals"),
    (&["runs"], "runs"),
    (&["rbis"], "runs batted in"),
    (&["receptions"], "receptions"),
    (&["saves"], "saves"),
];

/// The first statistic the words name: not a rate's "basis points" or "percentage points".
fn measure(words: &[&str]) -> Option<&'static str> {
    (0..words.len()).find_map(|at| {
        if at > 0 && matches!(words[at - 1], "basis" | "percentage") {
            return None;
        }
        MEASURES
            .iter()
            .find(|(phrase, _)| words[at..].starts_with(phrase))
            .map(|(_, measure)| *measure)
    })
}

/// Whether a verb of getting in stands here before a named contest ("make the College
/// Football Playoff", "reach the 2026 NCAA Tournament", "get into the Champions League"): to
/// qualify for it, not to win it. A name must follow ("reach the $100k mark" is a threshold),
/// a year may come first; "make the final" and its like are read as stages by the phrases.
fn reaches_a_named_contest(tokens: &[Token], words: &[&str], at: usize) -> bool {
    let verb_and_article = match (words[at], words.get(at + 1)) {
        ("make" | "makes" | "reach" | "reaches", Some(&"the")) => 2,
        ("get" | "gets", Some(&"into")) if words.get(at + 2) == Some(&"the") => 3,
        _ => return false,
    };
    let mut next = at + verb_and_article;
    if tokens.get(next).is_some_and(|token| token.year().is_some()) {
        next += 1;
    }
    tokens.get(next).is_some_and(|token| {
        token.is_capitalized() && !matches!(words[next], "final" | "finals" | "semifinals" | "semifinal")
    })
}

/// The action a word names by where it stands rather than by a fixed phrase: Polymarket's
/// "<Name> out" (leaving office; "drop out" is read as a phrase before it), "end" as a verb
/// ("the conflict ends by March?"; not "by the end of", "end of 2026", "end in a draw"), and
/// "fire" as a dismissal only with a person or a count of them after it ("fire Powell",
/// "fire 0 Cabinet members"; not "Chicago Fire", "cease-fire" or "fire an ICBM").
fn action_by_position(tokens: &[Token], words: &[&str], at: usize) -> Option<Action> {
    let previous = at.checked_sub(1).map(|before| words[before]);
    let next = words.get(at + 1).copied();
    match words[at] {
        "fire" | "fires"
            if !tokens[at].is_capitalized()
                && !tokens[at].gap_before.ends_with('-')
                && tokens
                    .get(at + 1)
                    .is_some_and(|object| object.is_capitalized() || object.starts_with_digit()) =>
        {
            Some(Action::Fire)
        }
        "fired" if matches!(previous, Some("be" | "is" | "was" | "get" | "gets" | "got")) => Some(Action::Fire),
        // After a name, not after a capitalised verb of a title ("Knocked Out", "Sold Out").
        "out"
            if at > 0
                && tokens[at - 1].is_capitalized()
                && !matches!(
                    previous,
                    Some(
                        "knocked"
                            | "knock"
                            | "knocks"
                            | "sold"
                            | "sell"
                            | "sells"
                            | "ruled"
                            | "rule"
                            | "rules"
                            | "come"
                            | "comes"
                            | "came"
                            | "pull"
                            | "pulls"
                            | "pulled"
                            | "bail"
                            | "bailed"
                            | "opt"
                            | "opts"
                            | "opted"
                            | "sit"
                            | "sits"
                            | "sat"
                            | "run"
                            | "runs"
                            | "ran"
                            | "time"
                            | "timed"
                            | "phase"
                    )
                ) =>
        {
            Some(Action::Leave)
        }
        "end" | "ends" | "ended"
            if !matches!(
                previous,
                Some("by" | "the" | "at" | "of" | "before" | "until" | "to" | "an" | "its" | "year" | "season")
            ) && !matches!(next, Some("of" | "in" | "with")) =>
        {
            Some(Action::End)
        }
        _ => None,
    }
}

/// A rank other than the first written as an ordinal before a superlative ("the
/// sixth-hottest year", "4th largest"): another place than the superlative alone asks.
/// "Or lower" after it makes the place a range ([`Form::PlaceOrBeyond`]).
fn ranked_place(words: &[&str], at: usize) -> Option<Form> {
    let place = match words[at] {
        "second" => 2,
        "third" => 3,
        "fourth" => 4,
        "fifth" => 5,
        "sixth" => 6,
        "seventh" => 7,
        "eighth" => 8,
        "ninth" => 9,
        "tenth" => 10,
        numbered => {
            let digits = numbered.trim_end_matches(|character: char| character.is_ascii_alphabetic());
            let suffix = &numbered[digits.len()..];
            match (digits.parse::<u8>(), suffix) {
                (Ok(place), "st" | "nd" | "rd" | "th") if place >= 2 => place,
                _ => return None,
            }
        }
    };
    if !SUPERLATIVES.contains(words.get(at + 1)?) {
        return None;
    }
    let beyond = words[at + 2..]
        .windows(2)
        .any(|pair| pair[0] == "or" && ORDER_COMPARATIVES.contains(&pair[1]));
    Some(if beyond {
        Form::PlaceOrBeyond(place)
    } else {
        Form::Place(place)
    })
}

/// Superlatives a rank is written before ("second-hottest", "3rd most", "second-worst").
const SUPERLATIVES: [&str; 37] = [
    "most",
    "least",
    "best",
    "worst",
    "hottest",
    "warmest",
    "coldest",
    "coolest",
    "wettest",
    "driest",
    "snowiest",
    "rainiest",
    "windiest",
    "largest",
    "biggest",
    "smallest",
    "highest",
    "lowest",
    "richest",
    "poorest",
    "fastest",
    "slowest",
    "strongest",
    "weakest",
    "longest",
    "shortest",
    "busiest",
    "deadliest",
    "tallest",
    "oldest",
    "youngest",
    "safest",
    "cheapest",
    "greatest",
    "heaviest",
    "lightest",
    "costliest",
];

/// Comparatives that, after "or", stretch a rank to every place beyond it.
const ORDER_COMPARATIVES: [&str; 11] = [
    "lower", "higher", "worse", "better", "hotter", "colder", "cooler", "warmer", "below", "above", "later",
];

/// A stage read from a word and what follows it: "Group G" (a group by its letter) and
/// "Round of 16".
fn stage_by_position(words: &[&str], at: usize) -> Option<Stage> {
    match (words[at], words.get(at + 1), words.get(at + 2)) {
        ("group" | "pool", Some(letter), _) if letter.len() == 1 && letter.chars().all(|c| c.is_ascii_alphabetic()) => {
            Some(Stage::Group)
        }
        ("round", Some(&"of"), Some(remaining)) => remaining.parse().ok().map(Stage::RoundOf),
        // Winning the popular vote, not a share or margin of it ("5% of the popular vote",
        // "the popular vote margin"), which is the vote's on either side.
        ("popular", Some(&"vote"), after)
            if !(words[..at].ends_with(&["of", "the"])
                || after.is_some_and(|after| matches!(*after, "margin" | "share"))) =>
        {
            Some(Stage::PartOfVote)
        }
        // The regular season as a title ("win the ACC regular season", "regular season
        // champion"), not as the games a count or an award is over ("12+ regular season
        // games", "regular season MVP", "lead the league in points for the 2025-26 regular
        // season").
        ("regular", Some(&"season"), after)
            if !words[at.saturating_sub(4)..at]
                .iter()
                .any(|word| matches!(*word, "for" | "during" | "over" | "through"))
                && after.is_none_or(|after| {
                    matches!(
                        *after,
                        "champion" | "champions" | "championship" | "title" | "winner" | "crown"
                    )
                }) =>
        {
            Some(Stage::RegularSeason)
        }
        _ => None,
    }
}

impl Stage {
    /// Whether the stage is one a contestant reaches by going through the ones before it (not
    /// a part of one game).
    fn is_reached(self) -> bool {
        !matches!(
            self,
            Stage::PartOfGame | Stage::FirstRound | Stage::RegularSeason | Stage::PartOfVote | Stage::EmergencyMeeting
        )
    }

    /// Whether the stage names a round of a tournament, which in a question about one game
    /// says which game it is ("win the Faria vs Musetti: Round Of 16 match") rather than a
    /// stage to reach.
    pub fn is_tournament_round(self) -> bool {
        matches!(
            self,
            Stage::Semifinal | Stage::Quarterfinal | Stage::Final | Stage::RoundOf(_) | Stage::Group | Stage::Knockout
        )
    }
}

/// One phrase of [`FORMS`], [`STAGES`], [`SPANS`] or [`ACTIONS`].
#[derive(Clone, Copy)]
enum Marker {
    Form(&'static [&'static str], Form),
    Stage(&'static [&'static str], Stage),
    Span(&'static [&'static str], Span),
    Action(&'static [&'static str], Action),
}

impl Marker {
    fn phrase(self) -> &'static [&'static str] {
        let (Marker::Form(phrase, _) | Marker::Stage(phrase, _) | Marker::Span(phrase, _) | Marker::Action(phrase, _)) =
            self;
        phrase
    }
}

/// Every marker phrase by its first word, longest first, built once.
static PHRASES_BY_FIRST_WORD: LazyLock<HashMap<&'static str, Vec<Marker>>> = LazyLock::new(|| {
    let mut by_first_word: HashMap<&'static str, Vec<Marker>> = HashMap::new();
    let markers = FORMS
        .iter()
        .map(|(phrase, form)| Marker::Form(phrase, *form))
        .chain(STAGES.iter().map(|(phrase, stage)| Marker::Stage(phrase, *stage)))
        .chain(SPANS.iter().map(|(phrase, span)| Marker::Span(phrase, *span)))
        .chain(ACTIONS.iter().map(|(phrase, action)| Marker::Action(phrase, *action)));
    for marker in markers {
        by_first_word.entry(marker.phrase()[0]).or_default().push(marker);
    }
    // The longest phrase at a place wins: try them longest first.
    for markers in by_first_word.values_mut() {
        markers.sort_by_key(|marker| std::cmp::Reverse(marker.phrase().len()));
    }
    by_first_word
});

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenize;
    use super::*;

    fn read(question: &str) -> Reading {
        extract(&tokenize(question))
    }

    #[test]
    fn reads_what_each_question_asks() {
        assert_eq!(
            read("Will Sweden qualify for the 2026 FIFA World Cup?").form(),
            Form::Qualify
        );
        assert_eq!(
            read("Will the Sweden win the 2026 Men's World Cup?").form(),
            Form::Happen
        );
        assert_eq!(
            read("Will Pete Hegseth leave the Trump administration first?").form(),
            Form::First
        );
        assert_eq!(
            read("Will Pete Hegseth leave the Trump Administration this year?").form(),
            Form::Happen
        );
        assert_eq!(
            read("Will Venstre win the most seats in the Danish Folketing in the 2026 Danish general election?").form(),
            Form::Most
        );
        assert_eq!(
            read("Will Venstre gain seats in the 2026 Danish general election?").form(),
            Form::GainSeats
        );
        assert_eq!(
            read("Will Reiwa Shinsengumi win the second-most seats in the 2026 Japanese general election?").form(),
            Form::Place(2)
        );
        assert_eq!(
            read("Will Gavin Newsom win the 2028 Democratic presidential nomination?").form(),
            Form::Nominated
        );
        assert_eq!(
            read("Will Beto O'Rourke be the nominee for the Presidency for the Democratic party?").form(),
            Form::Nominated
        );
    }

    #[test]
    fn declaring_for_an_election_is_running_and_being_first_of_a_list_is_first() {
        let declare = read(
            "Will Gavin Newsom be first this list to declare for 2028 United States presidential election before Nov 7, 2028?",
        );
        assert_eq!(declare.form(), Form::First);
        assert_eq!(read("Will Gavin Newsom declare for president?").form(), Form::Run);
    }

    #[test]
    fn reads_which_extreme_a_reading_asks_about() {
        let high = read("Highest temperature in NYC on Nov 27, 2026? — 72° or above");
        let low = read("Will the lowest temperature in NYC be 72°F or higher on November 27?");
        assert_eq!(high.extreme, Some(Extreme::High));
        assert!(high.other_extreme(&low));
        assert!(!high.other_extreme(&read("Will the high in NYC be 72°F or higher on November 27?")));
        assert!(!high.other_extreme(&read("Will it be 72°F in NYC on November 27?")));
        assert!(read("How high will Bitcoin get in 2025?").other_extreme(&read("How low will Bitcoin get in 2025?")));
    }

    #[test]
    fn a_successor_is_not_the_holder_leaving() {
        assert_eq!(
            read("Will Mojtaba Khamenei be the next Supreme Leader of Iran?").form(),
            Form::Next
        );
        assert_eq!(
            read("Khamenei out as Supreme Leader of Iran in 2025?").form(),
            Form::Happen
        );
    }

    #[test]
    fn reads_the_span_of_a_figure() {
        assert_eq!(
            read("Will annual inflation increase by ≥2.7% in February?").span,
            Some(Span::Annual)
        );
        assert_eq!(
            read("Will the rate of CPI inflation be above 2.6% for the year ending in February 2026?").span,
            Some(Span::Annual)
        );
        assert_eq!(
            read("Will monthly inflation increase by 0.5% or more in January?").span,
            Some(Span::Monthly)
        );
        assert_eq!(read("Will CPI rise more than 0.4% in January 2026?").span, None);
    }

    #[test]
    fn reads_stages() {
        let advance = read("Will Sarah Knafo advance to the second round of the 2026 Paris municipal election?");
        assert_eq!(advance.form(), Form::Advance);
        assert_eq!(advance.stages, [Stage::SecondRound]);
        let first_round = read("Will the Sarah Knafo win the the first round of the 2026 Paris mayoral election?");
        assert_eq!(first_round.form(), Form::Happen);
        assert_eq!(first_round.stages, [Stage::FirstRound]);
        assert_eq!(
            read("Will any candidate win the Texas Republican Senate Primary outright?").stages,
            read("Will anyone win 2026 Texas Republican Senate primary in the first round?").stages
        );
        assert_eq!(read("Set 1 Winner: Anisimova vs Pegula").stages, [Stage::PartOfGame]);
        // Leading at halftime is winning the first half; a draw at halftime is its tie.
        assert_eq!(read("Sevilla FC leading at halftime?").stages, [Stage::PartOfGame]);
        assert_eq!(read("Will Sevilla win the 1st Half?").stages, [Stage::PartOfGame]);
        let draw = read("Villarreal CF vs. Sevilla FC: Draw at halftime?");
        assert_eq!((draw.form(), draw.stages), (Form::Draw, vec![Stage::PartOfGame]));
        let crowd = read("Will Taylor Swift's Eras Tour opener draw at least 70,000 fans?");
        assert_ne!(crowd.form(), Form::Draw);
        assert!(
            read("Will Bad Bunny perform at the Super Bowl LX halftime show?")
                .stages
                .is_empty()
        );
    }

    #[test]
    fn reads_the_event_the_main_verb_names() {
        let win = read("Will Curtis Sliwa win the 2025 NYC mayoral election?");
        let drop_out = read("Will Curtis Sliwa drop out of the NYC Mayoral race?");
        assert_eq!(win.action, Some(Action::Win));
        assert_eq!(drop_out.action, Some(Action::Withdraw));
        assert!(win.other_action(&drop_out));
        let acquire = read("Will Trump acquire Greenland in 2025?");
        let visit = read("Will Donald Trump visit Greenland in 2025?");
        assert!(acquire.other_action(&visit));
        // Two verbs of one event agree; a question with no such verb states no action.
        assert!(
            !read("Will Reza Pahlavi enter Iran before September?")
                .other_action(&read("Will Reza Pahlavi visit Iran before Sep 1, 2025?"))
        );
        assert!(!acquire.other_action(&read("Will Trump buy at least part of Greenland?")));
        assert!(
            read("Will Taylor Swift release a new album in 2025?")
                .other_action(&read("Will Taylor Swift announce a new album before 2026?"))
        );
        assert_eq!(
            read("Khamenei out as Supreme Leader of Iran in 2025?").action,
            Some(Action::Leave)
        );
        assert!(!read("US government shutdown in 2025?").other_action(&visit));
        // A call is not a meeting, a charge not an arrest, a firing not a departure; and
        // missiles fired are a strike.
        let talk = read("Will Trump talk to Pope Leo XIV in March?");
        assert_eq!(talk.action, Some(Action::Talk));
        assert!(talk.other_action(&read("Donald Trump and Pope Leo XIV meet before Apr 1, 2026?")));
        let charged = read("Obama federally charged before 2027?");
        assert!(charged.other_action(&read("Will Barack Obama be arrested before Jan 2027?")));
        let fire = read("Will Trump fire 0 Cabinet members before 2027?");
        assert_eq!(fire.action, Some(Action::Fire));
        assert!(fire.other_action(&read("Will no one leave the Trump Cabinet before 2027?")));
        assert_eq!(read("Will Iran fire missiles at Israel?").action, Some(Action::Attack));
        assert_eq!(
            read("Will Trump fire Jerome Powell this year?").action,
            Some(Action::Fire)
        );
        assert_eq!(read("Will Powell be fired before 2027?").action, Some(Action::Fire));
        for other in [
            "Will Chicago Fire FC win on 2025-10-18?",
            "Russia x Ukraine cease-fire in 2025?",
            "Will North Korea fire an ICBM in 2025?",
            "Will China fire on Taiwan by December 31?",
        ] {
            assert_ne!(read(other).action, Some(Action::Fire), "{other}");
        }
    }

    #[test]
    fn the_statistic_counted_is_part_of_the_question() {
        let assists = read("Will Luka Doncic lead the NBA in assists during the 2025–26 NBA season?");
        let points = read("Will Luka Doncic lead Pro Basketball in Points Per Game for the 2025-26 Regular Season?");
        assert_eq!(assists.measure, Some("assists"));
        assert_eq!(points.measure, Some("points"));
        assert!(assists.other_measure(&points));
        let gold = read("Will Norway win the most gold medals at the 2026 Winter Olympics?");
        assert!(gold.other_measure(&read(
            "Will Norway have the most total medals at the 2026 Winter Olympics?"
        )));
        assert!(!gold.other_measure(&read("Most gold medals: Norway?")));
        assert!(
            read("Will Connor McDavid lead the NHL in goals?")
                .other_measure(&read("Will Connor McDavid lead the NHL in points?"))
        );
        assert!(!gold.other_measure(&read("Will Norway win the most golds?")));
        // A rate's points are no statistic, and a question naming none agrees with any.
        assert_eq!(read("Will the Fed cut by 25 basis points?").measure, None);
        assert!(!points.other_measure(&read("Will Luka Doncic win the 2025-26 scoring title?")));
    }

    #[test]
    fn a_rank_before_a_superlative_is_a_place() {
        assert_eq!(
            read("Will March 2026 be the 4th hottest on record?").form,
            Some(Form::Place(4))
        );
        assert_eq!(read("Will 2026 be the hottest year on record?").form, None);
        assert_eq!(read("Will England win the Second Test?").form, None);
        assert_eq!(read("Will the third protest happen in May?").form, None);
        assert_eq!(
            read("Will Trump and Putin hold a second Budapest summit in 2025?").form,
            None
        );
        // "Or lower" is a range of places; "most" and "worst" rank too.
        assert_eq!(
            read("Will 2026 rank as the sixth-hottest year on record or lower?").form,
            Some(Form::PlaceOrBeyond(6))
        );
        assert_eq!(
            read("Will Nvidia be the 2nd most valuable company in the world on December 31?").form(),
            read("Will Nvidia be the second-largest company in the world on December 31?").form()
        );
        assert_eq!(
            read("Will the Wizards finish with the second-worst record in the NBA?").form,
            Some(Form::Place(2))
        );
        assert_eq!(
            read("Will Apple be the 11th-largest company?").form,
            Some(Form::Place(11))
        );
    }

    #[test]
    fn the_last_place_is_its_own_form() {
        assert_eq!(
            read("Will Wolves finish in last place in the 2025-26 English Premier League?").form,
            Some(Form::Last)
        );
        assert_eq!(
            read("Will the White Sox finish last in the AL Central?").form,
            Some(Form::Last)
        );
        let relegated = read("Will Wolves be Relegated from English Premier League in 2025-26 Season?");
        assert_eq!(relegated.form(), Form::Happen);
        assert_eq!(relegated.action, Some(Action::Relegated));
        assert_eq!(
            read("Will Wolves be in last place at Christmas?").form,
            Some(Form::Last)
        );
        assert_eq!(
            read("Will Wolves finish at the bottom of the 2025-26 English Premier League?").form,
            Some(Form::Last)
        );
        assert_eq!(
            read("Will the Washington Wizards have the worst record in the NBA?").form,
            Some(Form::Last)
        );
    }

    #[test]
    fn a_second_action_joined_by_and_is_asked_too() {
        let impeached = read("Will Trump be impeached before his term ends?");
        let removed = read("Will Trump be impeached and removed from office?");
        assert_eq!(removed.action, Some(Action::Impeached));
        assert_eq!(removed.joined_action, Some(Action::Leave));
        assert!(impeached.other_action(&removed));
        assert!(removed.other_action(&impeached));
        assert!(!removed.other_action(&read(
            "Will the President be impeached and removed from office by 2027?"
        )));
        let charged = read("Will Maduro be arrested and be charged before 2027?");
        assert_eq!(charged.joined_action, Some(Action::Charged));
        assert!(charged.other_action(&read("Will Maduro be arrested before 2027?")));
        // The commonest spellings: "removed" alone, "&", a verb no class names.
        let removed_short = read("Will Trump be impeached and removed in 2025?");
        assert!(!removed.other_action(&removed_short));
        assert!(!removed.other_action(&read("Will Trump be impeached & removed from office?")));
        assert!(impeached.other_action(&removed_short));
        assert!(impeached.other_action(&read("Will Trump be impeached and convicted?")));
        // A visit is where a meeting is.
        assert!(
            !read("Will Trump meet Putin in Moscow in 2025?")
                .other_action(&read("Will Trump meet Putin and visit Moscow in 2025?"))
        );
        // "and" between two names joins no action, nor does a second verb far from the first.
        assert_eq!(read("Will Trump and Putin meet in Alaska?").joined_action, None);
        assert_eq!(read("Will Trump meet Putin in Moscow and Kyiv?").joined_action, None);
    }

    #[test]
    fn a_strike_an_invasion_a_reopening_a_vote_and_a_fall_are_different_events() {
        let strike = read("US strikes Iran by December 31, 2026?");
        assert_eq!(strike.action, Some(Action::Attack));
        let invade = read("Will the U.S. invade Iran before 2027?");
        assert_eq!(invade.action, Some(Action::Invade));
        let embassy = read("Will the US reopen its embassy in Iran before Jan 1, 2027?");
        let deal = read("Will the US agree to a new Iranian nuclear deal this year?");
        for (left, right) in [
            (&strike, &invade),
            (&strike, &embassy),
            (&invade, &embassy),
            (&strike, &deal),
        ] {
            assert!(left.other_action(right));
        }
        // "Strike a deal" is an agreement, not an attack.
        assert_eq!(
            read("Will the US strike a deal with Iran in 2026?").action,
            Some(Action::Sign)
        );
        let fall = read("Will the Iranian regime fall by June 30?");
        assert!(fall.other_action(&read("Will Iran hold a presidential election before Jul 1, 2026?")));
        assert!(fall.other_action(&read("Khamenei out as Supreme Leader of Iran by June 30?")));
        assert!(
            read("Trump divorce in 2025?").other_action(&read("Will Donald Trump and Melania Trump marry in 2025?"))
        );
        assert!(
            read("Khamenei seen in public by February 28?")
                .other_action(&read("Will Ali Khamenei leave office before Mar 1, 2026?"))
        );
        // One verb of a class on each side: the same event.
        assert!(!strike.other_action(&read("Will the US bomb Iran in 2026?")));
        assert_eq!(
            read("Will Jamieson Greer be the first person to leave the Trump Cabinet?").form(),
            Form::First
        );
    }

    #[test]
    fn the_next_holder_of_an_elected_office_is_who_wins_its_election() {
        let next_mayor = read("Will Gabriela Firea be the next Mayor of Bucharest?");
        assert_eq!(next_mayor.form(), Form::Next);
        let election = read("Who will win the Bucharest mayoral election? — Gabriela Firea");
        assert!(next_mayor.succession_by_election(&election));
        assert!(election.succession_by_election(&next_mayor));
        // "The next" election is not a succession.
        assert_eq!(
            read("Who will win the next Malawian presidential election? — Lazarus Chakwera").form(),
            Form::Happen
        );
        // A succession with no election is not one: the holder leaving is another question.
        let out = read("Khamenei out as Supreme Leader of Iran in 2025?");
        assert!(!read("Will Mojtaba Khamenei be the next Supreme Leader of Iran?").succession_by_election(&out));
    }

    #[test]
    fn leaving_office_is_another_event_than_visiting_meeting_or_being_recognized() {
        let out = read("Xi Jinping out before 2027?");
        assert_eq!(out.action, Some(Action::Leave));
        assert!(out.other_action(&read("Will Xi Jinping visit the White House before Jan 1, 2027?")));
        assert!(read("Netanyahu out by end of 2026?").other_action(&read(
            "Will Donald Trump meet in person Benjamin Netanyahu before Jan 1, 2027?"
        )));
        // Kalshi's wording of the same event agrees.
        assert!(!out.other_action(&read(
            "Will Xi Jinping leave General Secretary of the Communist Party of China before Jan 1, 2027?"
        )));
        assert_eq!(
            read("Will Vladimir Putin leave President of Russia before Jan 1, 2027?").action,
            Some(Action::Leave)
        );
        // "Drop out" stays a withdrawal; leaving a place is no office.
        assert_eq!(
            read("Will Curtis Sliwa drop out of the race?").action,
            Some(Action::Withdraw)
        );
        assert_eq!(read("Will Khamenei leave Iran by March 31?").action, None);
        assert_eq!(read("Will Tyson Fury Be Knocked Out in 2026?").action, None);
        let recognize = read("US recognizes Reza Pahlavi as leader of Iran in 2026?");
        assert_eq!(recognize.action, Some(Action::Recognize));
        assert!(recognize.other_action(&read("Will Reza Pahlavi visit Iran before Jan 1, 2027?")));
        assert!(!recognize.other_action(&read(
            "Will the United States recognize Reza Pahlavi as the leader of Iran in 2026?"
        )));
    }

    #[test]
    fn a_conflict_ending_is_not_a_deal_agreed() {
        let ends = read("Iran x Israel/US conflict ends by March 31?");
        assert_eq!(ends.action, Some(Action::End));
        let deal = read("Will the US agree to a new Iranian nuclear deal before April?");
        assert_eq!(deal.action, Some(Action::Sign));
        assert!(ends.other_action(&deal));
        // "End" as a date or a draw is no action.
        assert_eq!(read("Netanyahu out by end of 2026?").action, Some(Action::Leave));
        assert_eq!(read("Will Bitcoin be above $100k at the end of 2025?").action, None);
        assert_eq!(read("Will Fulham vs Brighton end in a draw?").action, None);
    }

    #[test]
    fn any_successor_named_is_not_one_named_person_being_next() {
        let any = read("Will Iran name a successor to Khamenei by March 31?");
        assert_eq!(any.form(), Form::AnySuccessor);
        assert_eq!(
            read("Will Mojtaba Khamenei be the next Supreme Leader of Iran?").form(),
            Form::Next
        );
        assert_eq!(
            read("Will Iran appoint a new Supreme Leader in 2026?").form(),
            Form::AnySuccessor
        );
    }

    #[test]
    fn a_stage_to_reach_is_not_the_whole_tournament() {
        let qualify = read("Will Italy qualify for the 2026 FIFA World Cup?");
        assert_eq!((qualify.form(), qualify.stages.as_slice()), (Form::Qualify, &[][..]));
        let final_ = read("Will Italy qualify for FIFA World Cup Final?");
        assert_eq!(
            (final_.form(), final_.stages.as_slice()),
            (Form::Advance, &[Stage::Final][..])
        );
        // Qualifying for a stage and reaching it are one question.
        assert_eq!(final_, read("Will Italy make the final?"));
        assert_eq!(
            read("Will Germany qualify for FIFA World Cup Round of 16?").stages,
            [Stage::RoundOf(16)]
        );
        let semifinal = read("Will Brazil qualify for FIFA World Cup Semifinals?");
        assert_eq!(semifinal.form(), Form::Advance);
        assert_eq!(semifinal.stages, read("Will Brazil reach the semifinals?").stages);
        // Topping a group, or reaching the knockouts, is a stage; winning the final is the whole.
        assert_eq!(
            read("Will Belgium finish first in World Cup Group G?").stages,
            [Stage::Group]
        );
        assert_eq!(read("Will Japan finish first in Pool B?").stages, [Stage::Group]);
        assert_eq!(read("Will Egypt reach the knockout stage?").stages, [Stage::Knockout]);
        assert!(read("Will Spain win the 2026 FIFA World Cup Final?").stages.is_empty());
        assert!(read("Will the Knicks win the 2026 NBA Finals?").stages.is_empty());
        assert_eq!(read("Will Duke make the Final Four?").stages, [Stage::Semifinal]);
    }

    #[test]
    fn endorsing_anyone_is_not_endorsing_one_named_person() {
        assert_eq!(
            read("Will Trump endorse a candidate for NYC Mayor?").form(),
            Form::AnyoneEndorsed
        );
        assert_eq!(
            read("Will Donald Trump endorse Andrew Cuomo in 2025 NYC Mayoral Race?").form(),
            Form::Happen
        );
    }

    #[test]
    fn getting_into_a_named_contest_is_qualifying_for_it() {
        assert_eq!(
            read("Will Ohio State make the College Football Playoff?").form(),
            Form::Qualify
        );
        assert_eq!(read("Will Duke make the 2026 NCAA Tournament?").form(), Form::Qualify);
        assert_eq!(
            read("Will Indiana reach the College Football Playoff?").form(),
            Form::Qualify
        );
        assert_eq!(
            read("Will Arsenal get into the Champions League?").form(),
            Form::Qualify
        );
        assert_eq!(
            read("Will Indiana win the College Football Playoff?").form(),
            Form::Happen
        );
        assert_eq!(read("Will Bitcoin reach the $100k mark?").form(), Form::Happen);
        assert_eq!(read("Will Italy make the final?").form(), Form::Advance);
    }

    #[test]
    fn relegation_is_not_winning() {
        let relegated = read("Will Lorient be relegated from Ligue 1 after the 2025–26 season?");
        assert_eq!(relegated.action, Some(Action::Relegated));
        assert!(relegated.other_action(&read("Will Lorient win the Ligue 1?")));
    }

    #[test]
    fn a_season_a_count_is_over_is_no_stage() {
        assert!(
            read("Will Giannis Antetokounmpo lead Pro Basketball in Points Per Game for the 2025-26 Regular Season?")
                .stages
                .is_empty()
        );
        assert_eq!(
            read("Will Duke win the ACC regular season?").stages,
            [Stage::RegularSeason]
        );
    }

    #[test]
    fn a_handshake_is_not_any_meeting() {
        let handshake = read("Putin and Zelenskyy shake hands by June 30?");
        let meeting = read("Volodymyr Zelenskyy and Vladimir Putin meet before Jul 1, 2026?");
        assert_eq!(handshake.action, Some(Action::ShakeHands));
        assert!(handshake.other_action(&meeting));
        assert_eq!(
            read("Trump and Putin handshake in 2025?").action,
            Some(Action::ShakeHands)
        );
    }

    #[test]
    fn a_part_of_the_vote_is_not_the_contest() {
        assert_eq!(read("Will Trump win the popular vote?").stages, [Stage::PartOfVote]);
        // A share of it is the vote's, however it is named.
        assert!(
            read("Will RFK Jr. win at least 5% of the popular vote?")
                .stages
                .is_empty()
        );
        assert_eq!(
            read("Will Austria win the Jury Vote in Eurovision 2025?").stages,
            read("Will Austria be the Jury Winner in the Eurovision 2025 Grand Final?").stages
        );
        assert!(read("Will Austria win Eurovision 2025?").stages.is_empty());
    }

    #[test]
    fn a_regular_season_title_is_not_the_tournament() {
        assert_eq!(
            read("Will Duke win the ACC regular season?").stages,
            [Stage::RegularSeason]
        );
        assert_eq!(
            read("Big Ten Regular Season Champion? — Michigan").stages,
            read("Will Michigan be the Big Ten regular-season champion?").stages
        );
        assert_eq!(
            read("Will Michigan be the Big Ten regular season champion?").stages,
            [Stage::RegularSeason]
        );
        assert!(read("Will Duke win the ACC Tournament?").stages.is_empty());
        assert!(read("Will Michigan win the Big Ten Championship?").stages.is_empty());
        // The games or the award of a regular season are no title.
        assert!(read("Will the Chiefs win 12+ regular season games?").stages.is_empty());
        assert!(
            read("Will Shai Gilgeous-Alexander win regular season MVP?")
                .stages
                .is_empty()
        );
    }

    #[test]
    fn an_engagement_is_not_a_wedding_and_an_announced_nominee_is_an_announcement() {
        let engaged = read("Taylor Swift and Travis Kelce engaged in 2025?");
        assert_eq!(engaged.action, Some(Action::Engage));
        assert!(engaged.other_action(&read(
            "Who will be a Bridesmaid for the wedding of Travis Kelce and Taylor Swift?"
        )));
        assert!(!read("Will Taylor Swift get married in 2026?").other_action(&read("Taylor Swift wedding in 2026?")));
        let announce =
            read("Will Donald Trump announce a new nominee for Chair of the Federal Reserve by December 31, 2025?");
        assert_eq!(
            (announce.form(), announce.action),
            (Form::Happen, Some(Action::Announce))
        );
        assert_eq!(
            announce,
            read("Will Trump announce his new Chair of the Federal Reserve in 2025?")
        );
        assert_eq!(read("Will Gavin Newsom be the nominee?").form(), Form::Nominated);
    }
}
