//! The admin token (`MARKETLENS_ADMIN_TOKEN`): refused when short or predictable, kept only as
//! its SHA-256 digest, and compared in constant time.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The shortest admin token accepted: 32 characters, as `openssl rand -hex 16` makes.
pub const MIN_TOKEN_LEN: usize = 32;
/// The fewest bits an admin token must carry by the estimate of [`estimated_bits`]: 32 random
/// hex digits give about 118, 32 identical characters 0, a word repeated little more than the
/// word.
const MIN_TOKEN_BITS: f64 = 96.0;
/// The admin token, as its digest.
#[derive(Clone)]
pub struct AdminToken {
    digest: [u8; 32],
}

impl std::fmt::Debug for AdminToken {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("AdminToken(..)")
    }
}

impl AdminToken {
    pub fn new(token: &str) -> Result<AdminToken, String> {
        if token.chars().count() < MIN_TOKEN_LEN || token.chars().any(char::is_whitespace) {
            return Err(format!(
                "the admin token must be at least {MIN_TOKEN_LEN} characters with no spaces"
            ));
        }
        if estimated_bits(token) < MIN_TOKEN_BITS {
            return Err(
                "the admin token is too predictable (repeated characters or a short pattern); make one with `openssl rand -hex 32`"
                    .to_owned(),
            );
        }
        Ok(AdminToken {
            digest: Sha256::digest(token.as_bytes()).into(),
        })
    }

    /// Whether `presented` is the token, in time that does not depend on where they differ.
    pub(crate) fn matches(&self, presented: &str) -> bool {
        let presented: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        self.digest.ct_eq(&presented).into()
    }
}

/// A token's entropy as its characters' frequencies estimate it (Shannon's, times its length),
/// counting a token that repeats a shorter one as that one: a floor that refuses what a person
/// types by hand, not a proof of randomness.
fn estimated_bits(token: &str) -> f64 {
    let chars: Vec<char> = token.chars().collect();
    let period = (1..chars.len())
        .find(|&period| {
            chars.len().is_multiple_of(period) && chars.chunks(period).all(|chunk| chunk == &chars[..period])
        })
        .unwrap_or(chars.len());
    let unit = &chars[..period];
    let mut counts = std::collections::HashMap::<char, usize>::new();
    for &char in unit {
        *counts.entry(char).or_default() += 1;
    }
    let length = unit.len() as f64;
    let per_char: f64 = counts
        .values()
        .map(|&count| {
            let share = count as f64 / length;
            -share * share.log2()
        })
        .sum();
    per_char * length
}
