//! The `marketlens` binary, run as an operator would: import, accounts, keys, credits, and
//! the demo server end to end.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use crate::{demo_file, marketlens, repository_file, terminate};

struct Workspace {
    directory: tempfile::TempDir,
}

impl Workspace {
    fn new() -> Workspace {
        Workspace {
            directory: tempfile::tempdir().unwrap(),
        }
    }

    fn database_url(&self) -> String {
        format!("sqlite://{}", self.directory.path().join("cli.db").display())
    }

    fn command(&self, arguments: &[&str]) -> Command {
        marketlens(&self.database_url(), arguments)
    }

    fn run(&self, arguments: &[&str]) -> Output {
        self.command(arguments).output().unwrap()
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn value_after<'a>(text: &'a str, label: &str) -> &'a str {
    text.lines()
        .find_map(|line| line.strip_prefix(label))
        .unwrap_or_else(|| panic!("no {label:?} line in:\n{text}"))
        .trim()
}

#[test]
fn import_is_idempotent_and_reports_counts() {
    let workspace = Workspace::new();
    let events = demo_file("polymarket/gamma-events-1.json");
    let first = workspace.run(&["import", "--exchange", "polymarket", events.to_str().unwrap()]);
    assert!(first.status.success(), "{first:?}");
    let first_text = stdout(&first);
    assert!(
        first_text.contains("Markets: 232 new, 0 updated, 0 unchanged"),
        "{first_text}"
    );
    assert!(first_text.contains("Events: 100 new"), "{first_text}");
    assert!(first_text.contains("Skipped records: 59."), "{first_text}");

    let second = workspace.run(&["import", "--exchange", "polymarket", events.to_str().unwrap()]);
    assert!(second.status.success());
    let second_text = stdout(&second);
    assert!(
        second_text.contains("Markets: 0 new, 0 updated, 232 unchanged"),
        "{second_text}"
    );
    assert!(
        second_text.contains("Events: 0 new, 0 updated, 100 unchanged"),
        "{second_text}"
    );
}

/// `marketlens match --evaluate … | head`: the reader has closed the pipe by the time the
/// report is written (here at once, while the command still reads the corpus), and the
/// command ends quietly (it panicked on the closed pipe).
#[test]
fn match_evaluate_into_a_closed_pipe_ends_quietly() {
    let workspace = Workspace::new();
    let labelled = repository_file("tests/data/matching/corpus.jsonl");
    let mut child = workspace
        .command(&["match", "--evaluate", labelled.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {errors}", output.status);
    assert!(!errors.contains("panicked"), "{errors}");
}

#[test]
fn match_evaluates_the_labelled_set_and_explains_a_stored_pair() {
    let workspace = Workspace::new();
    let labelled = repository_file("tests/data/matching/corpus.jsonl");
    let evaluation = workspace.run(&["match", "--evaluate", labelled.to_str().unwrap()]);
    assert!(evaluation.status.success(), "{evaluation:?}");
    let text = stdout(&evaluation);
    assert!(text.contains("labelled pairs") && text.contains("precision "), "{text}");

    let polymarket = demo_file("polymarket/gamma-events-1.json");
    let kalshi = demo_file("kalshi/events-nested-1.json");
    assert!(
        workspace
            .run(&["import", "--exchange", "polymarket", polymarket.to_str().unwrap()])
            .status
            .success()
    );
    assert!(
        workspace
            .run(&["import", "--exchange", "kalshi", kalshi.to_str().unwrap()])
            .status
            .success()
    );
    let bitcoin = marketlens_domain::ids::market_id(marketlens_domain::Exchange::Polymarket, "516864").to_string();
    let mars = marketlens_domain::ids::market_id(marketlens_domain::Exchange::Kalshi, "KXELONMARS-99").to_string();
    let why = workspace.run(&["match", "--why", &bitcoin, &mars]);
    assert!(why.status.success(), "{why:?}");
    let text = stdout(&why);
    assert!(
        text.contains("Will Bitcoin reach $150,000 by December 31, 2025?"),
        "{text}"
    );
    assert!(text.contains("subject") && text.contains("REFUSED"), "{text}");
    assert!(text.contains("\nreason: "), "{text}");
}

#[test]
fn a_bad_file_is_reported_and_the_others_still_load() {
    let workspace = Workspace::new();
    let not_json = workspace.directory.path().join("broken.json");
    std::fs::write(&not_json, "{\"markets\": [").unwrap();
    let kalshi = demo_file("kalshi/markets-2.json");
    let missing = workspace.directory.path().join("missing.json");
    let output = workspace.run(&[
        "import",
        "--exchange",
        "kalshi",
        not_json.to_str().unwrap(),
        kalshi.to_str().unwrap(),
        missing.to_str().unwrap(),
    ]);
    assert!(!output.status.success(), "a failed file fails the command");
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(errors.contains("broken.json: not imported"), "{errors}");
    assert!(errors.contains("missing.json: cannot read"), "{errors}");
    assert!(stdout(&output).contains("Markets: 5 new"), "{}", stdout(&output));

    let wrong_exchange = workspace.run(&["import", "--exchange", "polymarket", kalshi.to_str().unwrap()]);
    assert!(!wrong_exchange.status.success());
    assert!(String::from_utf8_lossy(&wrong_exchange.stderr).contains("not imported"));
}

/// A folder of recordings imports as its JSON files; a Kalshi series payload among them (no
/// markets, no events) is skipped with a note, and the notes beside the files are not read.
#[test]
fn a_folder_with_series_files_imports_its_markets_and_notes_the_series() {
    let workspace = Workspace::new();
    let folder = workspace.directory.path().join("recordings");
    std::fs::create_dir(&folder).unwrap();
    for name in [
        "series-1.json",
        "series-single-1.json",
        "events-nested-1.json",
        "SOURCES.md",
    ] {
        std::fs::copy(demo_file("kalshi").join(name), folder.join(name)).unwrap();
    }
    let output = workspace.run(&["import", "--exchange", "kalshi", folder.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    for series in ["series-1.json", "series-single-1.json"] {
        let notes: Vec<&str> = text.lines().filter(|line| line.contains(series)).collect();
        assert_eq!(notes.len(), 1, "one note for {series}:\n{text}");
        assert!(
            notes[0].contains("skipped") && notes[0].contains("series"),
            "{}",
            notes[0]
        );
    }
    assert!(text.contains("Markets: 16 new"), "{text}");
    assert!(!text.contains("SOURCES.md"), "{text}");
}

/// What import prints names payloads in words, never as the program's type names
/// (`PolymarketEvents:`).
#[test]
fn import_output_has_no_type_names() {
    let workspace = Workspace::new();
    let files = [
        ("polymarket", demo_file("polymarket/gamma-events-1.json")),
        ("polymarket", demo_file("polymarket/gamma-markets-2.json")),
        ("kalshi", demo_file("kalshi/events-nested-1.json")),
        ("kalshi", demo_file("kalshi/series-single-1.json")),
    ];
    for (exchange, file) in files {
        let output = workspace.run(&["import", "--exchange", exchange, file.to_str().unwrap()]);
        let text = crate::output_text(&output);
        assert!(output.status.success(), "{text}");
        let type_names: Vec<&str> = text
            .split(|character: char| !character.is_ascii_alphabetic())
            .filter(|word| is_type_name(word))
            .collect();
        assert!(type_names.is_empty(), "{type_names:?} in:\n{text}");
        assert!(text.contains("Polymarket Gamma") || text.contains("Kalshi"), "{text}");
    }
}

/// A word written as Rust writes type names: a capital, then a capital after a small letter
/// (`PolymarketEvents`, `KalshiSeries`).
fn is_type_name(word: &str) -> bool {
    word.starts_with(|character: char| character.is_ascii_uppercase())
        && word
            .as_bytes()
            .windows(2)
            .any(|pair| pair[0].is_ascii_lowercase() && pair[1].is_ascii_uppercase())
}

#[test]
fn operator_commands_manage_accounts_keys_and_credits() {
    let workspace = Workspace::new();
    let created = workspace.run(&[
        "accounts",
        "create",
        "--tier",
        "pro",
        "--credits",
        "250",
        "--wallet",
        "0xabc",
        "--label",
        "acme",
    ]);
    assert!(created.status.success(), "{created:?}");
    let text = stdout(&created);
    let account = value_after(&text, "account").to_owned();
    let key = value_after(&text, "api key").to_owned();
    assert!(key.starts_with("pm_live_") && key.len() == 48, "{key}");

    let listed = stdout(&workspace.run(&["accounts", "list"]));
    assert!(
        listed.contains(&account) && listed.contains("acme") && listed.contains("250"),
        "{listed}"
    );

    let added = workspace.run(&["credits", "add", &account, "50"]);
    assert!(
        stdout(&added).contains("300 remaining, 300 purchased, 0 used"),
        "{}",
        stdout(&added)
    );

    let second = stdout(&workspace.run(&["keys", "create", &account]));
    let second_id = value_after(&second, "key id").to_owned();
    let keys = stdout(&workspace.run(&["keys", "list", &account]));
    assert_eq!(keys.lines().count(), 3, "a header and two keys:\n{keys}");
    assert!(!keys.contains(&key), "keys are listed truncated only");

    let revoked = workspace.run(&["keys", "revoke", &second_id]);
    assert!(revoked.status.success());
    assert!(
        stdout(&workspace.run(&["keys", "list", &account]))
            .lines()
            .any(|line| line.starts_with(&second_id) && !line.ends_with(" -"))
    );

    let suspended = workspace.run(&["accounts", "suspend", &account]);
    assert!(suspended.status.success());
    assert!(stdout(&workspace.run(&["accounts", "list"])).contains("suspended"));

    for bad in [
        vec!["accounts", "create", "--tier", "platinum", "--credits", "1"],
        vec!["accounts", "create", "--tier", "free", "--credits", "-5"],
        vec!["credits", "add", &account, "0"],
        vec!["credits", "add", "00000000-0000-0000-0000-000000000000", "5"],
        vec!["keys", "revoke", "00000000-0000-0000-0000-000000000000"],
        vec!["keys", "create", "not-a-uuid"],
    ] {
        let output = workspace.run(&bad);
        assert!(!output.status.success(), "{bad:?} must fail");
        assert!(!output.stderr.is_empty(), "{bad:?} says why");
    }
}

/// `--json` on the list commands prints a JSON array with the admin API's fields.
#[test]
fn list_commands_print_json_arrays() {
    let workspace = Workspace::new();
    let empty = workspace.run(&["accounts", "list", "--json"]);
    assert!(empty.status.success(), "{empty:?}");
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&empty.stdout).unwrap(),
        serde_json::json!([])
    );

    let created = stdout(&workspace.run(&[
        "accounts",
        "create",
        "--tier",
        "pro",
        "--credits",
        "7",
        "--label",
        "acme",
    ]));
    let account = value_after(&created, "account").to_owned();
    let key_id = value_after(&created, "key id").to_owned();

    let accounts: serde_json::Value =
        serde_json::from_slice(&workspace.run(&["accounts", "list", "--json"]).stdout).unwrap();
    assert_eq!(accounts.as_array().unwrap().len(), 1, "{accounts}");
    assert_eq!(accounts[0]["id"], account.as_str());
    assert_eq!(accounts[0]["label"], "acme");
    assert_eq!(accounts[0]["walletAddress"], "");
    assert_eq!(accounts[0]["credits"]["remaining"], 7);
    assert_eq!(accounts[0]["status"], "active");

    let keys: serde_json::Value =
        serde_json::from_slice(&workspace.run(&["keys", "list", &account, "--json"]).stdout).unwrap();
    assert_eq!(keys.as_array().unwrap().len(), 1, "{keys}");
    assert_eq!(keys[0]["id"], key_id.as_str());
    assert_eq!(keys[0]["accountId"], account.as_str());
    assert!(keys[0]["display"].as_str().unwrap().starts_with("pm_live_"), "{keys}");
    assert_eq!(keys[0]["revokedAt"], serde_json::Value::Null);
}

/// An id that is not a UUID is refused saying what was expected, and naming what was typed.
#[test]
fn a_bad_id_says_a_uuid_is_expected() {
    let workspace = Workspace::new();
    for (arguments, what) in [
        (vec!["credits", "add", "not-a-uuid", "10"], "an account id"),
        (vec!["accounts", "suspend", "not-a-uuid"], "an account id"),
        (vec!["keys", "list", "not-a-uuid"], "an account id"),
        (vec!["keys", "revoke", "not-a-uuid"], "a key id"),
        (vec!["match", "--why", "not-a-uuid", "not-a-uuid"], "a market id"),
    ] {
        let output = workspace.run(&arguments);
        assert!(!output.status.success(), "{arguments:?}");
        let errors = String::from_utf8_lossy(&output.stderr);
        assert!(
            errors.contains(&format!("\"not-a-uuid\" is not {what}: expected a UUID")),
            "{arguments:?}: {errors}"
        );
    }
}

#[test]
fn tiers_added_in_configuration_can_be_given_to_accounts() {
    let workspace = Workspace::new();
    let refused = workspace.run(&["accounts", "create", "--tier", "team", "--credits", "1"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("unknown tier \"team\""));
    let accepted = workspace
        .command(&["accounts", "create", "--tier", "team", "--credits", "1"])
        .env("MARKETLENS_TIER_LIMITS", "team=500")
        .output()
        .unwrap();
    assert!(accepted.status.success(), "{accepted:?}");
    let bad_limits = workspace
        .command(&["accounts", "list"])
        .env("MARKETLENS_TIER_LIMITS", "team")
        .output()
        .unwrap();
    assert!(
        !bad_limits.status.success(),
        "a malformed tier table is refused at start-up"
    );
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
    }
}

#[tokio::test]
async fn demo_loads_real_data_prints_a_working_key_and_stops_gracefully() {
    let workspace = Workspace::new();
    let mut child = workspace
        .command(&["demo", "--bind", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let server = Server(child);
    let (mut key, mut account_curl, mut summary, mut another_port) =
        (String::new(), String::new(), String::new(), String::new());
    // The commands the banner prints, to be pasted as they are.
    let mut commands = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        if line.starts_with("Marketlens demo:") {
            summary = line.clone();
        }
        if line.starts_with("  export ") || line.starts_with("  curl ") {
            commands.push(line.trim().to_owned());
        }
        if let Some(found) = line.strip_prefix("API key (new for this run): ") {
            key = found.trim().to_owned();
        }
        if line.contains("/api/v1/account") {
            account_curl = line.clone();
        }
        if line.contains("--bind") {
            another_port = line;
            break;
        }
    }
    assert!(
        another_port.contains("marketlens demo --bind 127.0.0.1:PORT"),
        "the banner says how to change the port: {another_port:?}"
    );
    assert!(
        summary.contains("Polymarket") && summary.contains("Kalshi"),
        "{summary}"
    );
    let url = account_curl
        .split('\'')
        .find(|part| part.starts_with("http://"))
        .unwrap()
        .to_owned();
    let base = url.trim_end_matches("/api/v1/account").to_owned();
    let client = reqwest::Client::new();
    let mut answered = None;
    for _ in 0..100 {
        match client.get(&url).bearer_auth(&key).send().await {
            Ok(response) => {
                answered = Some(response);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    let response = answered.expect("the demo server answers");
    assert_eq!(response.status(), 200);
    let markets: serde_json::Value = client
        .get(format!("{base}/api/v1/markets?limit=5"))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(markets["pagination"]["total"].as_u64().unwrap() > 1000, "{markets}");

    // Pasted into a shell as printed, the export and the curl lines answer successfully.
    assert_eq!(commands.first(), Some(&format!("export KEY={key}")), "{commands:?}");
    assert!(commands.len() >= 8, "{commands:?}");
    for curl in &commands[1..] {
        let script = format!("{}\n{curl} --fail-with-body", commands[0]);
        let run = || {
            let output = std::process::Command::new("sh").args(["-c", &script]).output().unwrap();
            let body: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
            (output, body)
        };
        let (mut output, mut body) = run();
        // The news index is read into memory once the server is up; a line pasted within its
        // first moments may find no articles yet.
        for _ in 0..50 {
            if !curl.contains("/explain")
                || body["data"]["keyFactors"]
                    .as_array()
                    .is_some_and(|factors| !factors.is_empty())
            {
                break;
            }
            std::thread::sleep(Duration::from_millis(200));
            (output, body) = run();
        }
        // --fail-with-body: curl fails on a 4xx or 5xx; every call answers a JSON object.
        assert!(output.status.success() && body.is_object(), "{curl}: {body}");
        // And each shows what it is there to show.
        let data = &body["data"];
        if curl.contains("/orderbook") {
            // The demo serves the recorded book, and says so.
            assert_eq!(data["source"], "recording", "{body}");
            assert_eq!(data["stale"], true, "{body}");
        } else if curl.contains("/history") {
            let candles = data["outcomes"][0]["candles"].as_array().unwrap();
            assert!(candles.len() >= 3, "{curl}: {body}");
        } else if curl.contains("/spreads") {
            assert!(!data.as_array().unwrap().is_empty(), "{curl}: {body}");
        } else if curl.contains("/explain") {
            assert!(!data["keyFactors"].as_array().unwrap().is_empty(), "{curl}: {body}");
        } else if curl.contains("/markets/") {
            let matched = data["matchedMarkets"].as_array().unwrap();
            assert!(
                matched.iter().any(|market| market["exchangeId"] == "KALSHI"),
                "{curl}: {body}"
            );
        }
    }
    let matched_pairs: u64 = summary
        .split(", ")
        .find_map(|part| part.strip_suffix(" matched pairs."))
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("the banner counts matched pairs: {summary}"));
    assert!(matched_pairs >= 20, "{summary}");
    crate::stream::the_demo_plays_recorded_streams(&base, &key).await;

    // SIGTERM: the server finishes and exits cleanly.
    terminate(server.0.id());
    let mut server = server;
    let exit = tokio::task::spawn_blocking(move || server.0.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(exit.success(), "graceful shutdown exits 0: {exit:?}");
}

#[tokio::test]
async fn migrate_then_copy_a_store_into_a_new_one_and_refuse_a_second_copy() {
    let workspace = Workspace::new();
    let migrated = workspace.run(&["migrate"]);
    assert!(
        migrated.status.success() && stdout(&migrated).contains("migrated"),
        "{migrated:?}"
    );
    let imported = workspace.run(&[
        "import",
        "--exchange",
        "kalshi",
        demo_file("kalshi/events-nested-1.json").to_str().unwrap(),
    ]);
    assert!(imported.status.success(), "{imported:?}");
    let created = workspace.run(&["accounts", "create", "--tier", "pro", "--credits", "25"]);
    assert!(created.status.success(), "{created:?}");

    // Into PostgreSQL when the tests have one, else into another SQLite file.
    let destination = match marketlens_testkit::TestDatabase::postgres().await {
        Some(postgres) => postgres,
        None => marketlens_testkit::TestDatabase::sqlite(),
    };
    let copy = |to: &str| workspace.run(&["copy", "--from", &workspace.database_url(), "--to", to]);
    let copied = copy(&destination.url);
    assert!(copied.status.success(), "{copied:?}");
    assert!(
        stdout(&copied).contains(
            "Copied 16 markets, 6 events, 0 matched pairs, 48 price history bars, 1 accounts, 1 keys and 1 ledger lines"
        ),
        "{}",
        stdout(&copied)
    );
    let listed = workspace
        .command(&["accounts", "list"])
        .env("MARKETLENS_DATABASE_URL", &destination.url)
        .output()
        .unwrap();
    assert!(stdout(&listed).contains("25"), "{}", stdout(&listed));
    let again = copy(&destination.url);
    assert!(
        !again.status.success(),
        "a second copy into a store that holds data fails"
    );
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("not empty"),
        "{again:?}"
    );
}
