//! Marketlens, the program: the command line, its configuration, and the jobs it runs.
//!
//! - [`cli`]: the commands and options (clap), each option with its environment variable.
//! - [`config`]: everything the server reads from its environment, parsed and checked once.
//! - [`commands`]: one module per command; `serve` and `demo` run the API of `marketlens-api`.
//! - [`demo_data`]: the recorded exchange payloads built into the binary for `demo`.
//! - [`synthetic`]: synthetic catalogues drawn from the recorded one, for `seed` (benchmarks).
//! - [`synthetic_history`]: a year of synthetic price history, for `seed --history`.
//! - [`synthetic_news`]: synthetic news drawn from the recorded feeds, for `seed --articles`.

pub mod cli;
pub mod commands;
pub mod config;
pub mod demo_data;
pub mod logging;
pub mod synthetic;
pub mod synthetic_history;
pub mod synthetic_news;
