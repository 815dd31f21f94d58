//! A digest of a record's normalized content, stored beside it so that an upsert can tell
//! "same record again" from "changed" without comparing every column.

use sha2::{Digest, Sha256};

/// The first 8 bytes of the SHA-256 of the record's JSON form. Field order in the JSON is
/// the struct's declaration order, so the digest is stable for the same content.
pub fn fingerprint(record: &impl serde::Serialize) -> i64 {
    let json =
        serde_json::to_vec(record).expect("normalized records serialize: they hold no maps with non-string keys");
    let digest = Sha256::digest(&json);
    i64::from_be_bytes(digest[..8].try_into().expect("a SHA-256 digest has 32 bytes"))
}
