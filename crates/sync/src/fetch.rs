//! One page from an exchange: an HTTP GET paced to the exchange's rate (see `http` for the
//! retries) and normalized. A 200 whose body is not JSON is a garbled transfer and is fetched
//! again (a cursor-paged walk cannot skip a page); JSON of a shape we do not know fails at
//! once.

use marketlens_domain::Exchange;
use marketlens_exchanges::{Page, PayloadError, normalize_page};

use crate::http::{FetchError, Reading, Retrying};
use crate::settings::SyncSettings;

/// The largest exchange page accepted: Gamma's 500-event pages run to a few megabytes.
const MAX_PAGE_BYTES: usize = 64 << 20;

/// The HTTP client of one exchange.
pub struct Fetcher {
    exchange: Exchange,
    base_url: String,
    http: Retrying,
}

impl Fetcher {
    pub fn new(exchange: Exchange, settings: &SyncSettings) -> Result<Fetcher, FetchError> {
        let exchange_settings = settings.exchange(exchange);
        Ok(Fetcher {
            exchange,
            base_url: exchange_settings.base_url.trim_end_matches('/').to_owned(),
            http: Retrying::new(settings, exchange_settings.requests_per_second, MAX_PAGE_BYTES)?,
        })
    }

    pub fn exchange(&self) -> Exchange {
        self.exchange
    }

    /// Fetches and normalizes the page at `path_and_query` (relative to the base URL).
    pub async fn page(&self, path_and_query: &str) -> Result<Page, FetchError> {
        let url = format!("{}{path_and_query}", self.base_url);
        self.http
            .get(path_and_query, &url, |body| match normalize_page(self.exchange, body) {
                Ok(page) => Reading::Read(page),
                Err(PayloadError::NotJson(error)) => Reading::Garbled(format!("the body is not JSON ({error})")),
                Err(other) => Reading::Refused(other.to_string()),
            })
            .await
    }
}
