//! The `marketlens` binary: a thin shim over [`marketlens::cli`].

use clap::Parser;
use std::process::ExitCode;

/// mimalloc rather than the system allocator: under load the server spent a fifth of its CPU
/// in glibc's malloc and free (measured with `perf` while serving list pages).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
