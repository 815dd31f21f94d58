//! The `marketlens` program, run as an operator runs it: as processes, against real stores
//! (SQLite, and PostgreSQL and Redis when configured) and the replay server for the exchanges
//! and feeds. One test binary; the helpers every module uses are here.

mod cli;
mod help;
mod matches;
mod news;
mod nodes;
mod startup;
mod stream;
mod sync;
mod urls;

use marketlens_storage::Store;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

/// A file of the repository, by its path from the repository's root.
pub fn repository_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative)
}

/// A file of the repository's `demo-data/` folder.
pub fn demo_file(relative: &str) -> PathBuf {
    repository_file("demo-data").join(relative)
}

/// `marketlens ARGUMENTS` on the store at `database_url`, logging warnings only.
pub fn marketlens(database_url: &str, arguments: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_marketlens"));
    command
        .args(arguments)
        .env("MARKETLENS_DATABASE_URL", database_url)
        .env("RUST_LOG", "warn");
    command
}

/// Runs `command` to its end off the async runtime's threads.
pub async fn run(mut command: Command) -> Output {
    tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap()
}

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

pub async fn open(database_url: &str) -> Arc<dyn Store> {
    marketlens_storage::open(database_url).await.unwrap()
}

/// What a process wrote, standard output then standard error.
pub fn output_text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The `/readyz` answer of the server on `port` once `ready` accepts it, polled for up to a
/// minute; `None` if it never does.
pub async fn readyz_once(port: u16, ready: impl Fn(&serde_json::Value) -> bool) -> Option<serde_json::Value> {
    let client = reqwest::Client::new();
    let started = std::time::Instant::now();
    while started.elapsed() < std::time::Duration::from_secs(60) {
        if let Ok(response) = client.get(format!("http://127.0.0.1:{port}/readyz")).send().await
            && let Ok(body) = response.json::<serde_json::Value>().await
            && ready(&body)
        {
            return Some(body);
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    None
}

/// Sends SIGTERM to a process.
pub fn terminate(process_id: u32) {
    let status = Command::new("kill")
        .args(["-TERM", &process_id.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}
