//! Structured logs with `tracing`: readable text by default, JSON for collectors. The level
//! comes from `RUST_LOG` (default: info, with the database driver's per-statement logs off).
//!
//! Text logs are coloured only for a person at a terminal: never when standard error is a
//! file, a pipe or a log collector (the codes would be noise there), and never when
//! `NO_COLOR` is set to anything (<https://no-color.org>). `RUST_LOG` and `NO_COLOR` are the
//! two variables read outside the command line, here, as every program that logs reads them.

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

use crate::cli::LogFormat;

pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colours_wanted(
            std::io::stderr().is_terminal(),
            std::env::var_os("NO_COLOR"),
        ))
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
}

/// Whether text logs carry colour codes: only on a terminal, and not when `NO_COLOR` is set
/// to a non-empty value.
fn colours_wanted(stderr_is_terminal: bool, no_color: Option<std::ffi::OsString>) -> bool {
    stderr_is_terminal && no_color.is_none_or(|value| value.is_empty())
}

#[cfg(test)]
mod tests {
    use super::colours_wanted;

    #[test]
    fn colours_only_on_a_terminal_without_no_color() {
        assert!(colours_wanted(true, None));
        assert!(
            colours_wanted(true, Some("".into())),
            "an empty NO_COLOR does not count"
        );
        assert!(!colours_wanted(true, Some("1".into())));
        assert!(!colours_wanted(false, None));
        assert!(!colours_wanted(false, Some("1".into())));
    }
}
