//! API keys (`docs/contract/decisions.md#d5`): `pm_live_` followed by 40 hex digits (160 random
//! bits). Only the SHA-256 of a key is ever stored; the key itself is shown once.
//!
//! SHA-256 without salt is the right hash here, unlike for passwords: the secret is 160
//! random bits, so there is nothing to brute-force, and a plain digest lets the store find
//! the key by an index lookup.

use rand::Rng;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

pub const KEY_PREFIX: &str = "pm_live_";
const SECRET_HEX_LEN: usize = 40;

/// A full API key, as given to its owner once.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

/// Debug never prints the secret, so a key that ends up in a log line stays secret.
impl std::fmt::Debug for ApiKey {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "ApiKey({})", self.truncated())
    }
}

/// The SHA-256 digest of a key: what the stores keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyHash(pub [u8; 32]);

impl KeyHash {
    /// Compares in constant time, so the comparison leaks nothing through its duration.
    pub fn matches(&self, other: &KeyHash) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl ApiKey {
    pub fn generate(random: &mut impl Rng) -> ApiKey {
        let mut secret = [0u8; SECRET_HEX_LEN / 2];
        random.fill_bytes(&mut secret);
        ApiKey(format!("{KEY_PREFIX}{}", hex::encode(secret)))
    }

    /// Accepts a presented key if it has our shape; anything else cannot be a key we issued,
    /// so it is refused before any lookup.
    pub fn parse(presented: &str) -> Option<ApiKey> {
        let secret = presented.strip_prefix(KEY_PREFIX)?;
        let well_formed = secret.len() == SECRET_HEX_LEN
            && secret
                .bytes()
                .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte));
        well_formed.then(|| ApiKey(presented.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn hash(&self) -> KeyHash {
        KeyHash(Sha256::digest(self.0.as_bytes()).into())
    }

    /// The prefix, the first 4 and the last 4 characters of the secret:
    /// `pm_live_a1b2...9f3c`.
    pub fn truncated(&self) -> String {
        let secret = &self.0[KEY_PREFIX.len()..];
        format!("{KEY_PREFIX}{}...{}", &secret[..4], &secret[secret.len() - 4..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_parse_hash_and_truncate() {
        let key = ApiKey::generate(&mut rand::rng());
        assert!(key.as_str().starts_with(KEY_PREFIX));
        assert_eq!(key.as_str().len(), KEY_PREFIX.len() + SECRET_HEX_LEN);
        assert_eq!(ApiKey::parse(key.as_str()), Some(key.clone()));
        assert!(key.hash().matches(&ApiKey::parse(key.as_str()).unwrap().hash()));
        let truncated = key.truncated();
        assert_eq!(truncated.len(), KEY_PREFIX.len() + 4 + 3 + 4);
        assert!(!format!("{key:?}").contains(&key.as_str()[KEY_PREFIX.len() + 4..]));
    }

    #[test]
    fn refuses_foreign_shapes() {
        assert!(ApiKey::parse("").is_none());
        assert!(ApiKey::parse("pm_live_").is_none());
        assert!(ApiKey::parse("pm_live_ABCDEF0123456789abcdef0123456789abcdef01").is_none());
        assert!(ApiKey::parse("sk_live_0123456789abcdef0123456789abcdef01234567").is_none());
        assert!(ApiKey::parse("pm_live_0123456789abcdef0123456789abcdef012345678").is_none());
    }

    #[test]
    fn different_keys_hash_differently() {
        let first = ApiKey::generate(&mut rand::rng());
        let second = ApiKey::generate(&mut rand::rng());
        assert!(!first.hash().matches(&second.hash()));
    }
}
