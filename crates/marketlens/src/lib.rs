//! Marketlens, the program: the command line, its configuration, and the jobs it runs.
//!
//! - [`cli`]: the commands and options (clap), each option with its environment variable.
//! - [`config`]: everything the server reads from its environment, parsed and checked once.
//! - [`commands`]: one module per command; `serve` and `demo` run the API of `marketlens-api`.
//! - [`fixtures`]: the recorded demo data built into the binary, and synthetic data drawn
//!   from it for `seed` (benchmarks).
//!
//! The write path itself (sync, import, matching, the background schedule) is `marketlens-sync`.

pub mod cli;
pub mod commands;
pub mod config;
pub mod fixtures;
pub mod logging;
