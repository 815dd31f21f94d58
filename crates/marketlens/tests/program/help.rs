//! The command line explains itself, and the documentation names it as it is: every
//! argument has help, and every `marketlens COMMAND [SUBCOMMAND] [--option]` written in the
//! docs, the crates' docs and the OpenAPI descriptions is a real one.

use clap::CommandFactory;
use std::path::{Path, PathBuf};

use crate::repository_file;

/// Every subcommand, with its path of names (`["accounts", "create"]`).
fn commands() -> Vec<(Vec<String>, clap::Command)> {
    fn walk(path: Vec<String>, command: &clap::Command, found: &mut Vec<(Vec<String>, clap::Command)>) {
        found.push((path.clone(), command.clone()));
        for subcommand in command.get_subcommands() {
            let mut below = path.clone();
            below.push(subcommand.get_name().to_owned());
            walk(below, subcommand, found);
        }
    }
    let mut root = marketlens::cli::Cli::command();
    root.build();
    let mut found = Vec::new();
    walk(Vec::new(), &root, &mut found);
    found
}

#[test]
fn every_argument_of_every_command_has_help() {
    let mut missing = Vec::new();
    for (path, command) in commands() {
        for argument in command.get_arguments() {
            let id = argument.get_id().as_str();
            if matches!(id, "help" | "version") {
                continue;
            }
            if argument.get_help().is_none() && argument.get_long_help().is_none() {
                missing.push(format!("marketlens {} <{id}>", path.join(" ")));
            }
        }
        if !path.is_empty() && command.get_about().is_none() {
            missing.push(format!("marketlens {} (the command itself)", path.join(" ")));
        }
    }
    assert!(missing.is_empty(), "no help text: {missing:#?}");
}

/// The text a file says `marketlens …` in: Markdown in full, Rust source likewise (its docs,
/// messages and OpenAPI descriptions).
fn documents() -> Vec<PathBuf> {
    fn walk(folder: &Path, extension: &str, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, extension, found);
            } else if path
                .extension()
                .is_some_and(|found_extension| found_extension == extension)
            {
                found.push(path);
            }
        }
    }
    let mut found: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "SECURITY.md"]
        .iter()
        .map(|name| repository_file(name))
        .collect();
    walk(&repository_file("docs"), "md", &mut found);
    for entry in std::fs::read_dir(repository_file("crates")).unwrap() {
        let source = entry.unwrap().path().join("src");
        if source.is_dir() {
            walk(&source, "rs", &mut found);
        }
    }
    found
}

/// What each mention names: the words after `marketlens` up to the end of the line, a
/// backtick, a quote, a closing parenthesis or a comment, `[--bind ADDRESS]` read as
/// `--bind ADDRESS`.
fn mentions(text: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(start) = rest.find("marketlens ") {
            let before = &rest[..start];
            rest = &rest[start + "marketlens ".len()..];
            // Part of another name (`marketlens-api`, `crates/marketlens`), or cargo's package.
            if before.ends_with(|character: char| character.is_alphanumeric() || matches!(character, '_' | '-' | '/'))
                || before.ends_with("-p ")
            {
                continue;
            }
            let end = rest.find(['`', '"', '#', ')']).unwrap_or(rest.len());
            let words = rest[..end]
                .split_whitespace()
                .map(|word| word.trim_matches(|character| matches!(character, '[' | ']' | ',' | '.' | ';' | ':')))
                .filter(|word| !word.is_empty())
                .map(str::to_owned)
                .collect();
            found.push(words);
        }
    }
    found
}

/// Why `words` (what follows `marketlens`) is not a real command line, if it is not.
fn check(root: &clap::Command, words: &[String]) -> Option<String> {
    let mut command = root;
    let mut position = 0;
    // The command and its subcommand: a word each, `a|b` standing for either.
    while command.has_subcommands() {
        let Some(word) = words.get(position) else { break };
        if word.starts_with('-') || !word.starts_with(|character: char| character.is_ascii_lowercase()) {
            break;
        }
        let mut next = None;
        for alternative in word.split('|') {
            match command.find_subcommand(alternative) {
                Some(subcommand) => next = Some(subcommand),
                None => return Some(format!("no command {alternative:?} in `{}`", command.get_name())),
            }
        }
        command = next.unwrap();
        position += 1;
    }
    let options: Vec<String> = command
        .get_arguments()
        .chain(root.get_arguments().filter(|argument| argument.is_global_set()))
        .filter_map(|argument| argument.get_long().map(str::to_owned))
        .collect();
    for word in &words[position..] {
        if let Some(option) = word.strip_prefix("--") {
            let option = option.split('=').next().unwrap_or_default();
            if !options.iter().any(|known| known == option) && option != "help" {
                return Some(format!("no option --{option} in `{}`", command.get_name()));
            }
        }
    }
    None
}

#[test]
fn the_docs_name_real_commands_and_options() {
    let mut root = marketlens::cli::Cli::command();
    root.build();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for document in documents() {
        let text = std::fs::read_to_string(&document).unwrap();
        for words in mentions(&text) {
            checked += 1;
            if let Some(why) = check(&root, &words) {
                wrong.push(format!("{}: marketlens {}: {why}", document.display(), words.join(" ")));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} mentions found: is the scan reading the docs?"
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn the_check_refuses_what_does_not_exist() {
    let mut root = marketlens::cli::Cli::command();
    root.build();
    let words = |text: &str| mentions(&format!("`marketlens {text}`")).remove(0);
    assert_eq!(check(&root, &words("keys create ACCOUNT")), None);
    assert_eq!(check(&root, &words("accounts|keys|credits")), None);
    assert_eq!(check(&root, &words("serve [--bind 0.0.0.0:8080] [--no-sync]")), None);
    assert_eq!(
        check(&root, &words("copy --from X --database-url Y")),
        None,
        "global options count"
    );
    assert!(check(&root, &words("key create")).is_some());
    assert!(check(&root, &words("keys make")).is_some());
    assert!(check(&root, &words("demo --port 8080")).is_some());
}
