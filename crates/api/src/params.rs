//! Query parameters: parsed by hand from the raw query string rather than with serde, so
//! that every mistake gets its own precise 400 (`docs/contract/decisions.md#d2-codes`): an unknown
//! parameter, a repeated one, a value that is not a number, out of range or not one of the
//! allowed values, each naming the parameter and what it allows.
//!
//! An empty value (`?status=`) counts as absent, as many HTTP clients send absent options
//! that way.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use chrono::DateTime;
use marketlens_catalog::{SpreadQuery, SpreadSort};
use marketlens_domain::history::Interval;
use marketlens_domain::time::Timestamp;
use marketlens_domain::{Category, Exchange, MarketStatus};
use marketlens_storage::{EventQuery, MarketFilter, MarketQuery, MarketSort, SearchWords, SortOrder};
use serde_json::json;
use std::str::FromStr;

use crate::error::ApiError;

/// The `{id}` of a route's path. axum's own `Path` answers an id that is not UTF-8 once
/// percent-decoded (`/markets/%FF`) with a bare 400; this names the parameter in the one error
/// shape.
pub struct PathId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for PathId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(PathId(id)),
            Err(_) => Err(ApiError::invalid_parameter(
                "id",
                "The id in the path must be valid UTF-8 once percent-decoded.",
                json!({}),
            )),
        }
    }
}

/// The longest query string accepted.
pub const MAX_QUERY_STRING_LEN: usize = 4096;
/// The longest `search` text accepted.
pub const MAX_SEARCH_LEN: usize = 200;
/// The most words a `search` may have.
pub const MAX_SEARCH_WORDS: usize = 12;
/// The longest explain `query` accepted.
pub const MAX_EXPLAIN_QUERY_LEN: usize = 500;
/// The longest `externalMarketId` accepted (exchange ids and tickers are far shorter).
pub const MAX_EXTERNAL_ID_LEN: usize = 200;

pub const MARKETS_DEFAULT_LIMIT: u64 = 50;
pub const MARKETS_MAX_LIMIT: u64 = 200;
pub const EVENTS_DEFAULT_LIMIT: u64 = 20;
pub const EVENTS_MAX_LIMIT: u64 = 100;
/// Offsets beyond this are refused rather than scanned.
pub const MAX_OFFSET: u64 = 1_000_000_000;
pub const HISTORY_DEFAULT_LIMIT: u64 = 100;
pub const HISTORY_MAX_LIMIT: u64 = 1_000;
pub const SPREADS_DEFAULT_LIMIT: u64 = 50;
pub const SPREADS_MAX_LIMIT: u64 = 200;
/// The most market ids one `GET /api/v1/orderbooks` takes.
pub const ORDER_BOOKS_MAX_IDS: usize = 50;
/// The longest `ids` accepted: 50 UUIDs with their commas, and room for spaces.
pub const MAX_IDS_LEN: usize = ORDER_BOOKS_MAX_IDS * 40;
pub const TRADES_DEFAULT_LIMIT: u64 = 50;
pub const TRADES_MAX_LIMIT: u64 = 100;
/// The longest trades `cursor` accepted (the exchanges' tokens are far shorter).
pub const MAX_CURSOR_LEN: usize = 1024;
/// The largest `minVolume24h` accepted (USD): more than any market has traded in a day.
pub const MAX_MIN_VOLUME: f64 = 1e12;

/// The parameters of one request, checked against the names an endpoint accepts.
pub struct QueryParameters {
    pairs: Vec<(String, String)>,
}

impl QueryParameters {
    pub fn parse(query: Option<&str>, accepted: &[&str]) -> Result<QueryParameters, ApiError> {
        let query = query.unwrap_or_default();
        if query.len() > MAX_QUERY_STRING_LEN {
            return Err(ApiError::invalid_parameter(
                "query string",
                format!("The query string is longer than {MAX_QUERY_STRING_LEN} characters."),
                json!({ "maximumLength": MAX_QUERY_STRING_LEN }),
            ));
        }
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
            if name.is_empty() && value.is_empty() {
                continue;
            }
            if name.is_empty() {
                return Err(ApiError::invalid_parameter(
                    "(unnamed)",
                    format!("A parameter has a value ({value:?}) but no name."),
                    json!({ "accepted": accepted }),
                ));
            }
            if !accepted.contains(&name.as_ref()) {
                return Err(ApiError::invalid_parameter(
                    &name,
                    format!("Unknown parameter {name:?}."),
                    json!({ "accepted": accepted }),
                ));
            }
            if pairs.iter().any(|(existing, _)| *existing == name) {
                return Err(ApiError::invalid_parameter(
                    &name,
                    format!("Parameter {name:?} is given more than once."),
                    json!({}),
                ));
            }
            pairs.push((name.into_owned(), value.into_owned()));
        }
        Ok(QueryParameters { pairs })
    }

    /// The parameter's value, `None` when absent or empty.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
            .filter(|value| !value.is_empty())
    }

    pub fn integer(&self, name: &str, default: u64, minimum: u64, maximum: u64) -> Result<u64, ApiError> {
        let Some(text) = self.text(name) else {
            return Ok(default);
        };
        let range_error = || {
            ApiError::invalid_parameter(
                name,
                format!("{name} must be a whole number from {minimum} to {maximum}; got {text:?}."),
                json!({ "minimum": minimum, "maximum": maximum }),
            )
        };
        let value: i128 = text.trim().parse().map_err(|_| range_error())?;
        if value < i128::from(minimum) || value > i128::from(maximum) {
            return Err(range_error());
        }
        Ok(value as u64)
    }

    /// A finite decimal number from `minimum` to `maximum`.
    pub fn number(&self, name: &str, default: f64, minimum: f64, maximum: f64) -> Result<f64, ApiError> {
        let Some(text) = self.text(name) else {
            return Ok(default);
        };
        text.trim()
            .parse::<f64>()
            .ok()
            .filter(|value| (minimum..=maximum).contains(value))
            .ok_or_else(|| {
                ApiError::invalid_parameter(
                    name,
                    format!("{name} must be a number from {minimum} to {maximum}; got {text:?}."),
                    json!({ "minimum": minimum, "maximum": maximum }),
                )
            })
    }

    /// An ISO 8601 time with its offset (`2026-01-31T00:00:00Z`), or a UTC date (`2026-01-31`).
    pub fn time(&self, name: &str) -> Result<Option<Timestamp>, ApiError> {
        let Some(text) = self.text(name) else {
            return Ok(None);
        };
        let parsed = DateTime::parse_from_rfc3339(text.trim())
            .map(|time| time.to_utc())
            .ok()
            .or_else(|| {
                chrono::NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
                    .ok()
                    .and_then(|date| date.and_hms_opt(0, 0, 0))
                    .map(|time| time.and_utc())
            });
        parsed.map(Some).ok_or_else(|| {
            ApiError::invalid_parameter(
                name,
                format!("{name} must be an ISO 8601 time such as 2026-01-31T00:00:00Z, or a date; got {text:?}."),
                json!({ "format": "date-time" }),
            )
        })
    }

    /// A value from a fixed set, matched case-insensitively by `parse`.
    pub fn choice<T>(
        &self,
        name: &str,
        allowed: &[&str],
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Option<T>, ApiError> {
        let Some(text) = self.text(name) else {
            return Ok(None);
        };
        parse(text).map(Some).ok_or_else(|| {
            ApiError::invalid_parameter(
                name,
                format!("{name} must be one of {}; got {text:?}.", allowed.join(", ")),
                json!({ "allowed": allowed }),
            )
        })
    }
}

fn exchange(parameters: &QueryParameters) -> Result<Option<Exchange>, ApiError> {
    let allowed: Vec<&str> = Exchange::ALL.iter().map(|exchange| exchange.as_str()).collect();
    parameters.choice("exchange", &allowed, |text| Exchange::from_str(text).ok())
}

fn category(parameters: &QueryParameters) -> Result<Option<Category>, ApiError> {
    let allowed: Vec<&str> = Category::ALL.iter().map(|category| category.as_str()).collect();
    parameters.choice("category", &allowed, |text| Category::from_str(text).ok())
}

fn offset(parameters: &QueryParameters) -> Result<u64, ApiError> {
    parameters.integer("offset", 0, 0, MAX_OFFSET)
}

/// `GET /api/v1/markets`: the store query and whether to include outcomes.
pub fn list_markets(query: Option<&str>) -> Result<(MarketQuery, bool), ApiError> {
    let parameters = QueryParameters::parse(
        query,
        &[
            "limit",
            "offset",
            "exchange",
            "status",
            "category",
            "search",
            "sortBy",
            "sortOrder",
            "include",
            "externalMarketId",
        ],
    )?;
    let limit = parameters.integer("limit", MARKETS_DEFAULT_LIMIT, 1, MARKETS_MAX_LIMIT)?;
    let offset = offset(&parameters)?;
    let exchange = exchange(&parameters)?;
    let status_names: Vec<&str> = MarketStatus::ALL.iter().map(|status| status.as_str()).collect();
    let status = parameters.choice("status", &status_names, |text| MarketStatus::from_str(text).ok())?;
    let category = category(&parameters)?;
    let sort_names: Vec<&str> = MarketSort::ALL.iter().map(|sort| sort.as_str()).collect();
    let sort = parameters
        .choice("sortBy", &sort_names, |text| {
            MarketSort::ALL
                .into_iter()
                .find(|sort| sort.as_str().eq_ignore_ascii_case(text))
        })?
        .unwrap_or(MarketSort::Volume24h);
    let order = parameters
        .choice("sortOrder", &["asc", "desc"], |text| {
            match text.to_ascii_lowercase().as_str() {
                "asc" => Some(SortOrder::Asc),
                "desc" => Some(SortOrder::Desc),
                _ => None,
            }
        })?
        .unwrap_or(SortOrder::Desc);
    let include_outcomes = parameters
        .choice("include", &["outcomes"], |text| {
            text.eq_ignore_ascii_case("outcomes").then_some(true)
        })?
        .unwrap_or(false);
    let search = match parameters.text("search") {
        None => None,
        Some(text) => Some(search_words(text)?),
    };
    let external_id = parameters
        .text("externalMarketId")
        .map(external_market_id)
        .transpose()?;
    let filter = MarketFilter {
        exchange,
        status,
        category,
        search,
        external_id,
    };
    Ok((
        MarketQuery {
            filter,
            sort,
            order,
            limit: limit as u32,
            offset,
        },
        include_outcomes,
    ))
}

fn external_market_id(text: &str) -> Result<String, ApiError> {
    if text.chars().count() > MAX_EXTERNAL_ID_LEN {
        return Err(ApiError::invalid_parameter(
            "externalMarketId",
            format!("externalMarketId is longer than {MAX_EXTERNAL_ID_LEN} characters."),
            json!({ "maximumLength": MAX_EXTERNAL_ID_LEN }),
        ));
    }
    Ok(text.to_owned())
}

fn search_words(text: &str) -> Result<SearchWords, ApiError> {
    if text.chars().count() > MAX_SEARCH_LEN {
        return Err(ApiError::invalid_parameter(
            "search",
            format!("search is longer than {MAX_SEARCH_LEN} characters."),
            json!({ "maximumLength": MAX_SEARCH_LEN }),
        ));
    }
    let words = SearchWords::parse(text).ok_or_else(|| {
        ApiError::invalid_parameter("search", "search must contain at least one letter or digit.", json!({}))
    })?;
    if words.words().len() > MAX_SEARCH_WORDS {
        return Err(ApiError::invalid_parameter(
            "search",
            format!("search has more than {MAX_SEARCH_WORDS} words."),
            json!({ "maximumWords": MAX_SEARCH_WORDS }),
        ));
    }
    Ok(words)
}

/// `GET /api/v1/events`.
pub fn list_events(query: Option<&str>) -> Result<EventQuery, ApiError> {
    let parameters = QueryParameters::parse(query, &["limit", "offset", "exchange", "category"])?;
    Ok(EventQuery {
        limit: parameters.integer("limit", EVENTS_DEFAULT_LIMIT, 1, EVENTS_MAX_LIMIT)? as u32,
        offset: offset(&parameters)?,
        exchange: exchange(&parameters)?,
        category: category(&parameters)?,
    })
}

/// `GET /api/v1/markets/{id}/history`.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryQuery {
    pub interval: Interval,
    /// Candles starting at or after this time, if given.
    pub from: Option<Timestamp>,
    /// Candles starting before this time, if given.
    pub to: Option<Timestamp>,
    pub limit: u32,
    pub offset: u64,
}

pub fn history(query: Option<&str>) -> Result<HistoryQuery, ApiError> {
    let parameters = QueryParameters::parse(query, &["interval", "from", "to", "limit", "offset"])?;
    let interval_names: Vec<&str> = Interval::ALL.iter().map(|interval| interval.as_str()).collect();
    let interval = parameters
        .choice("interval", &interval_names, Interval::parse)?
        .unwrap_or(Interval::Hour);
    let from = parameters.time("from")?;
    let to = parameters.time("to")?;
    if let (Some(from), Some(to)) = (from, to)
        && from > to
    {
        return Err(ApiError::invalid_parameter(
            "from",
            "from must not be later than to.",
            json!({ "from": from, "to": to }),
        ));
    }
    Ok(HistoryQuery {
        interval,
        from,
        to,
        limit: parameters.integer("limit", HISTORY_DEFAULT_LIMIT, 1, HISTORY_MAX_LIMIT)? as u32,
        offset: offset(&parameters)?,
    })
}

/// `GET /api/v1/spreads`.
pub fn spreads(query: Option<&str>) -> Result<SpreadQuery, ApiError> {
    let parameters = QueryParameters::parse(
        query,
        &["minSimilarity", "minVolume24h", "category", "sortBy", "limit", "offset"],
    )?;
    let sort_names: Vec<&str> = SpreadSort::ALL.iter().map(|sort| sort.as_str()).collect();
    Ok(SpreadQuery {
        min_similarity: parameters.number("minSimilarity", 0.0, 0.0, 1.0)?,
        min_volume_24h: parameters.number("minVolume24h", 0.0, 0.0, MAX_MIN_VOLUME)?,
        category: category(&parameters)?,
        sort: parameters
            .choice("sortBy", &sort_names, |text| {
                SpreadSort::ALL
                    .into_iter()
                    .find(|sort| sort.as_str().eq_ignore_ascii_case(text))
            })?
            .unwrap_or(SpreadSort::Spread),
        limit: parameters.integer("limit", SPREADS_DEFAULT_LIMIT, 1, SPREADS_MAX_LIMIT)? as u32,
        offset: offset(&parameters)?,
    })
}

/// `GET /api/v1/orderbooks`: the market ids of `ids` (comma-separated, required), each once,
/// in the order first given.
pub fn order_books(query: Option<&str>) -> Result<Vec<String>, ApiError> {
    let parameters = QueryParameters::parse(query, &["ids"])?;
    let required = || {
        ApiError::invalid_parameter(
            "ids",
            "ids is required: market ids (UUIDs), separated by commas.",
            json!({ "maximum": ORDER_BOOKS_MAX_IDS }),
        )
    };
    let text = parameters.text("ids").ok_or_else(required)?;
    if text.len() > MAX_IDS_LEN {
        return Err(ApiError::invalid_parameter(
            "ids",
            format!("ids is longer than {MAX_IDS_LEN} characters: at most {ORDER_BOOKS_MAX_IDS} ids are taken."),
            json!({ "maximumLength": MAX_IDS_LEN, "maximum": ORDER_BOOKS_MAX_IDS }),
        ));
    }
    // A repeat is the same market however its UUID is written (case, braces, no hyphens), so
    // that it is served and charged once; what is not a UUID is kept as written, for the 404
    // that names it.
    let mut ids: Vec<String> = Vec::new();
    for id in text.split(',').map(str::trim).filter(|id| !id.is_empty()) {
        let id = uuid::Uuid::parse_str(id).map_or_else(|_| id.to_owned(), |uuid| uuid.to_string());
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    if ids.is_empty() {
        return Err(required());
    }
    if ids.len() > ORDER_BOOKS_MAX_IDS {
        return Err(ApiError::invalid_parameter(
            "ids",
            format!(
                "ids names {} markets; at most {ORDER_BOOKS_MAX_IDS} are taken.",
                ids.len()
            ),
            json!({ "maximum": ORDER_BOOKS_MAX_IDS }),
        ));
    }
    Ok(ids)
}

/// `GET /api/v1/markets/{id}/trades`.
#[derive(Debug, Clone, PartialEq)]
pub struct TradesQuery {
    /// The depth source's token of the page asked for (the decoded `cursor`); `None` for the
    /// first page.
    pub after: Option<String>,
    pub limit: u32,
}

pub fn trades(query: Option<&str>) -> Result<TradesQuery, ApiError> {
    let parameters = QueryParameters::parse(query, &["cursor", "limit"])?;
    let after = match parameters.text("cursor") {
        None => None,
        Some(cursor) => Some(decode_cursor(cursor).ok_or_else(|| {
            ApiError::invalid_parameter(
                "cursor",
                "cursor must be a nextCursor this server returned.",
                json!({ "maximumLength": MAX_CURSOR_LEN }),
            )
        })?),
    };
    Ok(TradesQuery {
        after,
        limit: parameters.integer("limit", TRADES_DEFAULT_LIMIT, 1, TRADES_MAX_LIMIT)? as u32,
    })
}

/// The `nextCursor` of a page: the depth source's token for the next page, in hex, so that a
/// client treats it as opaque and it needs no escaping in a URL.
pub fn encode_cursor(token: &str) -> String {
    hex::encode(token.as_bytes())
}

fn decode_cursor(cursor: &str) -> Option<String> {
    if cursor.len() > MAX_CURSOR_LEN {
        return None;
    }
    String::from_utf8(hex::decode(cursor).ok()?).ok()
}

/// Endpoints that take no parameters refuse any, so that a typo is never silently ignored.
pub fn none(query: Option<&str>) -> Result<(), ApiError> {
    QueryParameters::parse(query, &[]).map(|_| ())
}

/// The explain query, from the query string or the body: required, bounded (as sent,
/// spaces included), then trimmed.
pub fn explain_query(text: Option<&str>) -> Result<String, ApiError> {
    if text.is_some_and(|text| text.chars().count() > MAX_EXPLAIN_QUERY_LEN) {
        return Err(ApiError::invalid_parameter(
            "query",
            format!("query is longer than {MAX_EXPLAIN_QUERY_LEN} characters."),
            json!({ "maximumLength": MAX_EXPLAIN_QUERY_LEN }),
        ));
    }
    let text = text
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .ok_or(ApiError::MissingQuery)?;
    Ok(text.to_owned())
}

/// `GET /api/v1/explain`.
pub fn explain(query: Option<&str>) -> Result<String, ApiError> {
    let parameters = QueryParameters::parse(query, &["query"])?;
    explain_query(parameters.text("query"))
}

/// `GET /api/v1/markets/lookup`: the exchange URL, required and bounded (as sent) like
/// explain's query.
pub fn lookup(query: Option<&str>) -> Result<String, ApiError> {
    let parameters = QueryParameters::parse(query, &["url"])?;
    let sent = parameters.text("url");
    if sent.is_some_and(|url| url.chars().count() > MAX_EXPLAIN_QUERY_LEN) {
        return Err(ApiError::invalid_parameter(
            "url",
            format!("url is longer than {MAX_EXPLAIN_QUERY_LEN} characters."),
            json!({ "maximumLength": MAX_EXPLAIN_QUERY_LEN }),
        ));
    }
    let url = sent.map(str::trim).filter(|url| !url.is_empty()).ok_or_else(|| {
        ApiError::invalid_parameter("url", "url is required: a Polymarket or Kalshi market URL.", json!({}))
    })?;
    Ok(url.to_owned())
}

/// The bytes of a request's JSON body: 415 unless its `Content-Type` is JSON (any
/// parameters after `;` allowed), 413 past the body limit, 400 when it could not be read.
pub fn json_body_bytes(headers: &HeaderMap, body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"));
    if !is_json {
        return Err(ApiError::UnsupportedMediaType);
    }
    body.map_err(|rejection| match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge,
        _ => ApiError::InvalidJson {
            message: "The request body could not be read.".to_owned(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn code_and_parameter(result: Result<(MarketQuery, bool), ApiError>) -> (String, String) {
        match result {
            Err(ApiError::InvalidParameter { parameter, .. }) => ("INVALID_PARAMETER".into(), parameter),
            Err(other) => (other.code().into(), String::new()),
            Ok(_) => ("OK".into(), String::new()),
        }
    }

    #[test]
    fn defaults() {
        let (query, include) = list_markets(None).unwrap();
        assert_eq!(
            (query.limit, query.offset, query.sort, query.order, include),
            (50, 0, MarketSort::Volume24h, SortOrder::Desc, false)
        );
        let events = list_events(Some("")).unwrap();
        assert_eq!((events.limit, events.offset), (20, 0));
    }

    #[test]
    fn accepts_canonical_and_case_insensitive_values() {
        let (query, include) = list_markets(Some(
            "limit=200&offset=3&exchange=kalshi&status=Open&category=science%20%26%20technology&sortBy=createdat&sortOrder=ASC&include=outcomes&search=Bitcoin%20100k",
        ))
        .unwrap();
        assert_eq!(query.limit, 200);
        assert_eq!(query.filter.exchange, Some(Exchange::Kalshi));
        assert_eq!(query.filter.status, Some(MarketStatus::Open));
        assert_eq!(query.filter.category, Some(Category::ScienceAndTechnology));
        assert_eq!(
            (query.sort, query.order, include),
            (MarketSort::CreatedAt, SortOrder::Asc, true)
        );
        assert_eq!(query.filter.search.unwrap().words(), ["bitcoin", "100k"]);
        let (query, _) = list_markets(Some("externalMarketId=KXELONMARS-99")).unwrap();
        assert_eq!(query.filter.external_id.as_deref(), Some("KXELONMARS-99"));
        let too_long = format!("externalMarketId={}", "x".repeat(MAX_EXTERNAL_ID_LEN + 1));
        assert_eq!(
            code_and_parameter(list_markets(Some(&too_long))),
            ("INVALID_PARAMETER".into(), "externalMarketId".into())
        );
    }

    #[test]
    fn refuses_each_kind_of_mistake_naming_the_parameter() {
        let cases = [
            ("limit=0", "limit"),
            ("limit=201", "limit"),
            ("limit=ten", "limit"),
            ("limit=-1", "limit"),
            ("offset=-5", "offset"),
            ("exchange=nyse", "exchange"),
            ("status=open2", "status"),
            ("category=Elections", "category"),
            ("sortBy=price", "sortBy"),
            ("sortOrder=up", "sortOrder"),
            ("include=everything", "include"),
            ("search=%3F%21", "search"),
            ("limit=5&limit=6", "limit"),
            ("sortby=volume", "sortby"),
            ("externalmarketid=1", "externalmarketid"),
        ];
        for (query, parameter) in cases {
            assert_eq!(
                code_and_parameter(list_markets(Some(query))),
                ("INVALID_PARAMETER".into(), parameter.into()),
                "{query}"
            );
        }
        assert!(matches!(
            list_events(Some("limit=101")),
            Err(ApiError::InvalidParameter { .. })
        ));
        assert!(none(Some("x=1")).is_err());
        assert!(matches!(explain(Some("query=%20")), Err(ApiError::MissingQuery)));
        assert!(matches!(explain(None), Err(ApiError::MissingQuery)));
        // The bound applies to the value as sent: padding cannot smuggle a longer one past it.
        let padded = format!("bitcoin{}", " ".repeat(MAX_EXPLAIN_QUERY_LEN));
        assert!(matches!(
            explain_query(Some(&padded)),
            Err(ApiError::InvalidParameter { .. })
        ));
        assert!(
            lookup(Some(&format!(
                "url=https://kalshi.com/markets/x{}",
                "%20".repeat(MAX_EXPLAIN_QUERY_LEN)
            )))
            .is_err()
        );
    }

    #[test]
    fn history_and_spreads_parameters() {
        let history_query = history(Some(
            "interval=4H&from=2026-01-31&to=2026-02-01T12:00:00%2B01:00&limit=1000",
        ))
        .unwrap();
        assert_eq!(history_query.interval, Interval::FourHours);
        assert_eq!(
            history_query.from.map(marketlens_domain::time::to_iso8601).as_deref(),
            Some("2026-01-31T00:00:00.000Z")
        );
        assert_eq!(
            history_query.to.map(marketlens_domain::time::to_iso8601).as_deref(),
            Some("2026-02-01T11:00:00.000Z")
        );
        assert_eq!(history(None).unwrap().interval, Interval::Hour);
        for (query, parameter) in [
            ("interval=2h", "interval"),
            ("from=yesterday", "from"),
            ("from=2026-02-02&to=2026-02-01", "from"),
            ("limit=1001", "limit"),
        ] {
            match history(Some(query)) {
                Err(ApiError::InvalidParameter { parameter: named, .. }) => assert_eq!(named, parameter, "{query}"),
                other => panic!("{query}: {other:?}"),
            }
        }
        let spread_query = spreads(Some(
            "minSimilarity=0.9&minVolume24h=1000&sortBy=VOLUME24H&category=crypto",
        ))
        .unwrap();
        assert_eq!(
            (
                spread_query.min_similarity,
                spread_query.min_volume_24h,
                spread_query.sort
            ),
            (0.9, 1000.0, SpreadSort::Volume24h)
        );
        for (query, parameter) in [
            ("minSimilarity=1.5", "minSimilarity"),
            ("minSimilarity=NaN", "minSimilarity"),
            ("minVolume24h=-1", "minVolume24h"),
            ("sortBy=price", "sortBy"),
            ("limit=201", "limit"),
        ] {
            match spreads(Some(query)) {
                Err(ApiError::InvalidParameter { parameter: named, .. }) => assert_eq!(named, parameter, "{query}"),
                other => panic!("{query}: {other:?}"),
            }
        }
    }

    proptest! {
        #[test]
        fn any_query_string_is_either_accepted_or_refused_with_a_named_parameter(query in ".{0,300}") {
            match list_markets(Some(&query)) {
                Ok((parsed, _)) => {
                    prop_assert!((1..=200).contains(&parsed.limit));
                    prop_assert!(parsed.offset <= MAX_OFFSET);
                }
                Err(ApiError::InvalidParameter { parameter, .. }) => prop_assert!(!parameter.is_empty()),
                Err(other) => prop_assert!(false, "unexpected error {other:?}"),
            }
        }

        #[test]
        fn valid_parameter_combinations_are_accepted(
            limit in 1u64..=200, offset in 0u64..=MAX_OFFSET,
            sort in prop::sample::select(vec!["volume", "volume24h", "liquidity", "createdAt"]),
            order in prop::sample::select(vec!["asc", "desc", "ASC"]),
            exchange in prop::sample::select(vec!["POLYMARKET", "kalshi"]),
        ) {
            let query = format!("limit={limit}&offset={offset}&sortBy={sort}&sortOrder={order}&exchange={exchange}");
            let (parsed, _) = list_markets(Some(&query)).unwrap();
            prop_assert_eq!(u64::from(parsed.limit), limit);
            prop_assert_eq!(parsed.offset, offset);
        }
    }
}
