//! Marketlens, the program: the command line, its configuration, and the jobs it runs.
//!
//! - [`cli`]: the commands and options (clap), each option with its environment variable.
//! - [`config`]: everything the server reads from its environment, parsed and checked once.
//! - [`commands`]: one module per command; `serve` and `demo` run the API of `marketlens-api`.
//! - [`ingest`]: payload and feed files into the store: normalize or parse, then store.
//!   `import` and `demo` share it.
//! - [`matches`]: cross-exchange matches, from scratch or kept current after each sync.
//! - [`demo_data`]: the recorded exchange payloads built into the binary for `demo`.
//! - [`sync_schedule`]: the background sync loops of `serve` (the engine is `marketlens-sync`).
//! - [`synthetic`]: synthetic catalogues drawn from the recorded one, for `seed` (benchmarks).
//! - [`synthetic_history`]: a year of synthetic price history, for `seed --history`.
//! - [`synthetic_news`]: synthetic news drawn from the recorded feeds, for `seed --articles`.

pub mod cli;
pub mod commands;
pub mod config;
pub mod demo_data;
pub mod ingest;
pub mod logging;
pub mod matches;
pub mod sync_schedule;
pub mod synthetic;
pub mod synthetic_history;
pub mod synthetic_news;
