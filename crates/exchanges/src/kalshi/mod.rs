//! Kalshi's Trade API v2 (`/markets`, `/events`, their single-record forms, and `/series`,
//! which carries no markets).
//!
//! Kalshi's quirks, all seen in the recorded payloads (`demo-data/kalshi/SOURCES.md`): three
//! generations of price fields (integer cents, cents beside `*_dollars` strings, and only
//! `*_dollars` since 2026), counts as `*_fp` strings, Go's zero time as "no date", and
//! multi-choice events whose markets share one title.

mod normalize;
mod wire;

pub(crate) use normalize::normalize;

#[cfg(test)]
mod tests;
