//! The ceiling's bodies, made once per size.

use axum::body::Bytes;
use std::collections::HashMap;
use std::sync::Mutex;

/// Bodies made so far, by size; each is made once.
#[derive(Default)]
pub struct CeilingBodies(Mutex<HashMap<usize, Bytes>>);

impl CeilingBodies {
    /// A JSON string of exactly `bytes` bytes, made once per size.
    pub(super) fn body_of(&self, bytes: usize) -> Bytes {
        let mut made = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        made.entry(bytes)
            .or_insert_with(|| Bytes::from(format!("\"{}\"", "x".repeat(bytes - 2))))
            .clone()
    }
}
