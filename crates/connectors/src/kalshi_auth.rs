//! Kalshi's request signing, for the WebSocket handshake: RSA-PSS with SHA-256 over
//! `timestamp_ms + "GET" + "/trade-api/ws/v2"`, sent base64-encoded in
//! `KALSHI-ACCESS-SIGNATURE` beside `KALSHI-ACCESS-KEY` (the key id) and
//! `KALSHI-ACCESS-TIMESTAMP` (Kalshi's "API Keys" and "WebSocket quick start" documentation).
//! A fresh signature is made for every connection. The key never leaves this module: the
//! credentials' `Debug` shows neither the key id nor the key.

use std::fmt;
use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::DecodePrivateKey;
use rsa::sha2::Sha256;
use rsa::{Generate, PrivateKey};

/// The path signed: the WebSocket endpoint's, whatever the host.
pub const SIGNED_PATH: &str = "/trade-api/ws/v2";

/// An operator's Kalshi API key: its id and its RSA private key.
#[derive(Clone)]
pub struct KalshiCredentials {
    key_id: String,
    private_key: PrivateKey,
}

/// Why credentials could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CredentialsError {
    #[error("the Kalshi API key id is empty")]
    EmptyKeyId,
    #[error("cannot read the Kalshi private key file {path}: {source}")]
    Unreadable { path: String, source: std::io::Error },
    /// Neither PKCS#8 (`BEGIN PRIVATE KEY`) nor PKCS#1 (`BEGIN RSA PRIVATE KEY`) PEM. The
    /// parser's message is left out: it could quote the key.
    #[error("the Kalshi private key is not an RSA private key in PEM (PKCS#8 or PKCS#1)")]
    NotAKey,
    #[error("signing failed: {0}")]
    Signing(String),
}

impl fmt::Debug for KalshiCredentials {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("KalshiCredentials { key_id: <redacted>, private_key: <redacted> }")
    }
}

impl KalshiCredentials {
    /// Credentials from a key id and a PEM private key (PKCS#8 or PKCS#1, as Kalshi issues).
    pub fn from_pem(key_id: &str, pem: &str) -> Result<KalshiCredentials, CredentialsError> {
        let key_id = key_id.trim();
        if key_id.is_empty() {
            return Err(CredentialsError::EmptyKeyId);
        }
        let private_key = PrivateKey::from_pkcs8_pem(pem)
            .or_else(|_| PrivateKey::from_pkcs1_pem(pem))
            .map_err(|_| CredentialsError::NotAKey)?;
        Ok(KalshiCredentials {
            key_id: key_id.to_owned(),
            private_key,
        })
    }

    /// A key made now under `key_id`, for a server that checks no signature: the demo's
    /// loopback replay of Kalshi's stream. Never a key Kalshi knows.
    pub fn throwaway(key_id: &str) -> KalshiCredentials {
        KalshiCredentials {
            key_id: key_id.to_owned(),
            private_key: PrivateKey::generate(),
        }
    }

    /// Credentials from a key id and the path of a PEM file.
    pub fn from_pem_file(key_id: &str, path: &Path) -> Result<KalshiCredentials, CredentialsError> {
        let pem = std::fs::read_to_string(path).map_err(|source| CredentialsError::Unreadable {
            path: path.display().to_string(),
            source,
        })?;
        KalshiCredentials::from_pem(key_id, &pem)
    }

    /// The three handshake headers for a connection made at `timestamp_ms`.
    pub fn headers(&self, timestamp_ms: i64) -> Result<[(&'static str, String); 3], CredentialsError> {
        let message = format!("{timestamp_ms}GET{SIGNED_PATH}");
        let signature = self
            .private_key
            .pss_sign::<Sha256>(message.as_bytes())
            .map_err(|error| CredentialsError::Signing(error.to_string()))?;
        Ok([
            ("KALSHI-ACCESS-KEY", self.key_id.clone()),
            ("KALSHI-ACCESS-SIGNATURE", BASE64.encode(signature)),
            ("KALSHI-ACCESS-TIMESTAMP", timestamp_ms.to_string()),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rsa::PublicKey;
    use rsa::pkcs8::{EncodePrivateKey, LineEnding};

    #[test]
    fn the_signature_verifies_with_the_public_key_and_nothing_secret_prints() {
        let private_key = PrivateKey::generate();
        let pem = private_key.to_pkcs8_pem(LineEnding::LF).unwrap();
        let credentials = KalshiCredentials::from_pem("key-id-123", &pem).unwrap();
        let [(key, key_id), (signature_name, signature), (time, timestamp)] =
            credentials.headers(1_703_123_456_789).unwrap();
        assert_eq!((key, key_id.as_str()), ("KALSHI-ACCESS-KEY", "key-id-123"));
        assert_eq!(
            (signature_name, time, timestamp.as_str()),
            ("KALSHI-ACCESS-SIGNATURE", "KALSHI-ACCESS-TIMESTAMP", "1703123456789")
        );
        let public_key: PublicKey = private_key.to_public_key();
        let signature = BASE64.decode(signature).unwrap();
        public_key
            .pss_verify::<Sha256>(b"1703123456789GET/trade-api/ws/v2", &signature)
            .unwrap();
        assert!(
            public_key
                .pss_verify::<Sha256>(b"1703123456790GET/trade-api/ws/v2", &signature)
                .is_err()
        );
        let shown = format!("{credentials:?}");
        assert!(!shown.contains("key-id-123") && !shown.contains("BEGIN"), "{shown}");
    }

    #[test]
    fn what_is_not_a_key_is_refused_without_quoting_it() {
        let error =
            KalshiCredentials::from_pem("id", "-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----")
                .unwrap_err();
        assert!(!error.to_string().contains("c2VjcmV0"));
        assert!(matches!(
            KalshiCredentials::from_pem(" ", "x"),
            Err(CredentialsError::EmptyKeyId)
        ));
    }
}
