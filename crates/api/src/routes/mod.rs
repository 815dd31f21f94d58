//! The routes of `/api/v1` and the operational ones beside it, a module per resource with its
//! handlers and their parameters' documentation. [`crate::app`] assembles them.

pub(crate) mod account;
pub(crate) mod admin;
pub mod benchmark;
pub(crate) mod events;
pub(crate) mod explain;
pub(crate) mod health;
pub(crate) mod history;
pub(crate) mod markets;
pub(crate) mod spreads;
