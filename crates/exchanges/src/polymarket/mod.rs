//! Polymarket's Gamma API (`/events`, `/markets` and their single-record forms).
//!
//! Gamma's quirks, all seen in the recorded payloads (`demo-data/polymarket/SOURCES.md`):
//! lists encoded as JSON strings (`"[\"Yes\", \"No\"]"`), amounts as numbers on some fields
//! and numeric strings on others, dates in four formats, placeholder markets without prices,
//! and a status spread over three flags (`active`, `closed`, `archived`).

mod normalize;
mod wire;

pub(crate) use normalize::normalize;

#[cfg(test)]
mod tests;
