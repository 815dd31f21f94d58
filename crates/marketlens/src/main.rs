//! The `marketlens` binary: a thin shim over [`marketlens::cli`].

use clap::Parser;
use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = marketlens::cli::Cli::parse();
    marketlens::logging::init(cli.log_format);
    match marketlens::commands::run(cli).await {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
