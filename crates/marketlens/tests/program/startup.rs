//! Starting the program wrong: a bad address, tier or store path is refused with one clear
//! error and leaves nothing behind, and what it logs is plain text when no one is at a
//! terminal.

use std::process::Stdio;

use crate::{free_port, marketlens, output_text, readyz_once, run, terminate};

/// A folder for one test's store file, and that file's URL.
fn store_in(directory: &tempfile::TempDir) -> (std::path::PathBuf, String) {
    let path = directory.path().join("store.db");
    let url = format!("sqlite://{}", path.display());
    (path, url)
}

#[tokio::test]
async fn logs_carry_no_colour_codes_when_standard_error_is_not_a_terminal() {
    let directory = tempfile::tempdir().unwrap();
    let (_, url) = store_in(&directory);
    let port = free_port();
    let bind = format!("127.0.0.1:{port}");
    let child = marketlens(&url, &["serve", "--no-sync", "--bind", &bind])
        .env("RUST_LOG", "info")
        .env_remove("NO_COLOR")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let ready = readyz_once(port, |body| body["status"] == "ready").await;
    terminate(child.id());
    let output = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    assert!(ready.is_some(), "the server never became ready");
    let logs = String::from_utf8_lossy(&output.stderr);
    assert!(logs.contains("serving the Marketlens API"), "{logs}");
    assert!(!logs.contains("\x1b["), "colour codes in piped logs: {logs:?}");
}

#[tokio::test]
async fn a_store_in_a_missing_folder_is_one_clear_error() {
    let directory = tempfile::tempdir().unwrap();
    let missing = directory.path().join("no/such/folder/x.db");
    let url = format!("sqlite://{}", missing.display());
    let mut migrate = marketlens(&url, &["migrate"]);
    migrate.env("RUST_LOG", "info");
    let output = run(migrate).await;
    assert!(!output.status.success(), "{output:?}");
    let errors = String::from_utf8_lossy(&output.stderr);
    let folder = directory.path().join("no/such/folder");
    assert_eq!(errors.lines().count(), 1, "one line, no retries: {errors}");
    assert!(
        errors.contains(&format!("its folder {} does not exist", folder.display())),
        "{errors}"
    );
    assert!(!directory.path().join("no").exists());
}

#[tokio::test]
async fn a_store_under_a_file_is_one_clear_error() {
    let directory = tempfile::tempdir().unwrap();
    let file = directory.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let url = format!("sqlite://{}/x.db", file.display());
    let mut list = marketlens(&url, &["accounts", "list"]);
    list.env("RUST_LOG", "info");
    let output = run(list).await;
    assert!(!output.status.success(), "{output:?}");
    let errors = String::from_utf8_lossy(&output.stderr);
    assert_eq!(errors.lines().count(), 1, "one line, no retries: {errors}");
    assert!(
        errors.contains(&format!("cannot create the SQLite store {}/x.db", file.display())),
        "{errors}"
    );
}

#[tokio::test]
async fn a_bad_address_leaves_no_store_behind() {
    let directory = tempfile::tempdir().unwrap();
    let (path, url) = store_in(&directory);
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let in_use = taken.local_addr().unwrap().to_string();
    for bind in ["localhost-8080", in_use.as_str()] {
        // demo never syncs, so it has no --no-sync.
        for arguments in [vec!["demo", "--bind", bind], vec!["serve", "--no-sync", "--bind", bind]] {
            let output = run(marketlens(&url, &arguments)).await;
            assert!(!output.status.success(), "{arguments:?}: {output:?}");
            let text = output_text(&output);
            assert!(text.contains(bind) && text.contains("--bind"), "{text}");
            assert!(!path.exists(), "{arguments:?} created the store");
        }
    }
}

#[tokio::test]
async fn an_unknown_tier_leaves_no_store_behind() {
    let directory = tempfile::tempdir().unwrap();
    let (path, url) = store_in(&directory);
    let output = run(marketlens(
        &url,
        &["accounts", "create", "--tier", "platinum", "--credits", "1"],
    ))
    .await;
    assert!(!output.status.success(), "{output:?}");
    assert!(output_text(&output).contains("unknown tier \"platinum\""));
    assert!(!path.exists(), "a refused account created the store");
}

/// A server on a store that answers but refuses writes (a SQLite file opened read-only) is
/// not ready: every charged call writes.
#[tokio::test]
async fn a_read_only_store_is_not_ready() {
    let directory = tempfile::tempdir().unwrap();
    let (_, url) = store_in(&directory);
    let migrated = run(marketlens(&url, &["migrate"])).await;
    assert!(migrated.status.success(), "{migrated:?}");
    let port = free_port();
    let bind = format!("127.0.0.1:{port}");
    let read_only = format!("{url}?mode=ro");
    let child = marketlens(&read_only, &["serve", "--no-sync", "--bind", &bind])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let answer = readyz_once(port, |body| body["error"]["code"].is_string()).await;
    terminate(child.id());
    tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    let answer = answer.expect("/readyz never answered");
    assert_eq!(answer["error"]["code"], "SERVICE_UNAVAILABLE", "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("read-only"), "{message}");
}
