//! The OpenAPI 3.1 document of the API, generated from the code so that it cannot drift: the
//! response schemas are derived from the view types that build the responses ([`crate::views`],
//! [`crate::error`]), the operations from the handlers' annotations, and the parameters'
//! bounds and allowed values from the same constants and domain lists that [`crate::params`]
//! checks requests against. The document is built once and served at
//! `/api/v1/openapi.json`; [`crate::reference`] renders it as the `/docs` page.
//!
//! Tests hold the document to the live server: every documented response of every operation
//! validates against its schema, and every documented bound is the one the server enforces.

use std::sync::OnceLock;

use axum::http::header;
use axum::response::IntoResponse;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::admin;
use crate::error::ErrorBody;
use crate::routes::{account, events, explain, health, history, markets, spreads};
use crate::telemetry;

/// The document, as the code describes it.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Marketlens API",
        description = "Prediction markets of Polymarket and Kalshi through one JSON API: markets, events, \
cross-exchange matches and explanations from recent news. Every `/api/v1` call but this document takes \
an API key (`Authorization: Bearer <API_KEY>`) and is charged credits against the key's account, \
within the account's requests-per-minute limit. Errors share one shape (`ErrorBody`).",
        license(name = "MIT OR Apache-2.0")
    ),
    paths(
        markets::list,
        markets::lookup,
        markets::get,
        history::history,
        spreads::list,
        events::list,
        events::get,
        explain::get,
        explain::post,
        account::get,
        openapi_json,
        health::alive,
        health::ready,
        telemetry::render,
        admin::create_account,
        admin::list_accounts,
        admin::get_account,
        admin::update_account,
        admin::add_credits,
        admin::create_key,
        admin::list_keys,
        admin::revoke_key,
        admin::ledger,
    ),
    components(schemas(ErrorBody)),
    modifiers(&BearerAuth, &KeyedResponses, &AdminResponses),
    tags(
        (name = "markets", description = "Markets of both exchanges, with their cross-exchange matches."),
        (name = "events", description = "Events: the groups of markets an exchange lists together."),
        (name = "explain", description = "A market's summary and key factors from recent news."),
        (name = "account", description = "The calling key's account: credits, tier and rate limit."),
        (name = "operations", description = "Health, readiness and this document; no key needed."),
        (name = "admin", description = "The operator's calls: accounts, tiers, suspension, credits, keys and ledgers. \
They exist only when the server has an admin token (`MARKETLENS_ADMIN_TOKEN`), which they take instead of an API key."),
    )
)]
struct ApiDoc;

/// The security scheme every charged operation names.
pub const BEARER: &str = "bearer";
/// The security scheme of the admin operations.
pub const ADMIN: &str = "admin";
/// Where the admin operations live.
const ADMIN_PREFIX: &str = "/admin/";

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            BEARER,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("An API key made by the operator (`marketlens key create`)."))
                    .build(),
            ),
        );
        components.add_security_scheme(
            ADMIN,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("The server's admin token (`MARKETLENS_ADMIN_TOKEN`)."))
                    .build(),
            ),
        );
    }
}

/// Documents `status` as an error of the one error shape, unless the operation already
/// documents that status itself.
fn add_error(
    responses: &mut std::collections::BTreeMap<String, utoipa::openapi::RefOr<utoipa::openapi::Response>>,
    status: &str,
    description: &str,
) {
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    responses.entry(status.to_owned()).or_insert_with(|| {
        ResponseBuilder::new()
            .description(description)
            .content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("ErrorBody")))
                    .build(),
            )
            .build()
            .into()
    });
}

/// What every operation that takes a key can answer besides its own responses: the errors of
/// authentication, parameters, credits, the rate limit and the store, and the rate-limit
/// headers on success. Added here once rather than repeated on every handler.
struct KeyedResponses;

impl Modify for KeyedResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{header::HeaderBuilder, schema::Type};
        let integer_header = |description: &str| {
            HeaderBuilder::new()
                .schema(utoipa::openapi::schema::ObjectBuilder::new().schema_type(Type::Integer))
                .description(Some(description))
                .build()
        };
        for (path, item) in openapi.paths.paths.iter_mut() {
            if path.starts_with(ADMIN_PREFIX) {
                continue;
            }
            for operation in [&mut item.get, &mut item.post].into_iter().flatten() {
                if operation.security.is_none() {
                    continue;
                }
                let responses = &mut operation.responses.responses;
                let charged = responses.iter().any(|(_, response)| match response {
                    utoipa::openapi::RefOr::T(response) => response.headers.contains_key(CREDITS_USED_HEADER),
                    utoipa::openapi::RefOr::Ref(_) => false,
                });
                if let Some(utoipa::openapi::RefOr::T(success)) = responses.get_mut("200") {
                    for (name, description) in [
                        ("X-RateLimit-Limit", "The account's requests per minute."),
                        ("X-RateLimit-Remaining", "Requests left in this minute."),
                        (
                            "X-RateLimit-Reset",
                            "When this minute's window ends, in seconds since the epoch.",
                        ),
                    ] {
                        success.headers.insert(name.to_owned(), integer_header(description));
                    }
                }
                let mut add = |status: &str, description: &str| add_error(responses, status, description);
                add(
                    "400",
                    "A parameter is unknown, repeated or out of range (`INVALID_PARAMETER`, naming it), or a required one is missing; or two `Authorization` headers (`INVALID_REQUEST`).",
                );
                add(
                    "401",
                    "No key (`MISSING_API_KEY`), or an unknown, malformed or revoked one (`INVALID_API_KEY`).",
                );
                if charged {
                    add(
                        "402",
                        "The account has fewer credits than the call costs (`INSUFFICIENT_CREDITS`).",
                    );
                }
                add("403", "The account is suspended (`ACCOUNT_SUSPENDED`).");
                add(
                    "429",
                    "Over the account's requests-per-minute limit, or too many failed authentications from the client's address (`RATE_LIMITED`; see `Retry-After`).",
                );
                add(
                    "503",
                    "The store is unavailable or the call took too long (`SERVICE_UNAVAILABLE`); not charged.",
                );
            }
        }
    }
}

/// The errors every admin operation can answer, added here once: a bad parameter or body, a
/// missing or wrong token, too many wrong tokens from one address, an unknown id where the path has one, and a body too large or not
/// JSON where the operation takes one.
struct AdminResponses;

impl Modify for AdminResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in openapi.paths.paths.iter_mut() {
            if !path.starts_with(ADMIN_PREFIX) {
                continue;
            }
            let names_an_id = path.contains("{id}");
            for operation in [&mut item.get, &mut item.post, &mut item.patch, &mut item.delete]
                .into_iter()
                .flatten()
            {
                let takes_a_body = operation.request_body.is_some();
                let responses = &mut operation.responses.responses;
                let mut add = |status: &str, description: &str| add_error(responses, status, description);
                add(
                    "400",
                    "A parameter or field is unknown, repeated or out of range (`INVALID_PARAMETER`, naming it), the body is not a JSON object of this call's fields (`INVALID_JSON`), or two `Authorization` headers (`INVALID_REQUEST`).",
                );
                add("401", "No admin token, or another (`INVALID_ADMIN_TOKEN`).");
                add(
                    "429",
                    "Too many failed authentications from the client's address within a minute (`RATE_LIMITED`; see `Retry-After`).",
                );
                if names_an_id {
                    add("404", "No account or key has this id (`NOT_FOUND`).");
                }
                if takes_a_body {
                    add("413", "The body is larger than 16 KiB (`PAYLOAD_TOO_LARGE`).");
                    add(
                        "415",
                        "The body is not sent as `application/json` (`UNSUPPORTED_MEDIA_TYPE`).",
                    );
                }
                add(
                    "503",
                    "The store is unavailable or the call took too long (`SERVICE_UNAVAILABLE`).",
                );
            }
        }
    }
}

/// The header every charged response carries; its presence marks an operation as charged.
const CREDITS_USED_HEADER: &str = "X-Credits-Used";

/// The document as JSON, built on first use.
pub fn document_json() -> &'static str {
    static DOCUMENT: OnceLock<String> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        ApiDoc::openapi()
            .to_pretty_json()
            .expect("the OpenAPI document serializes")
    })
}

/// This OpenAPI document. Free, and needs no key.
#[utoipa::path(
    get,
    path = "/api/v1/openapi.json",
    tag = "operations",
    responses((status = 200, description = "The OpenAPI 3.1 document of this server.", content_type = "application/json", body = Object))
)]
pub async fn openapi_json() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], document_json())
}

/// The body of `POST /api/v1/explain`: `{"query": "..."}`, bounded as the query parameter is.
pub struct ExplainRequest;

impl utoipa::PartialSchema for ExplainRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
        ObjectBuilder::new()
            .property(
                "query",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .min_length(Some(1))
                    .max_length(Some(crate::params::MAX_EXPLAIN_QUERY_LEN))
                    .description(Some(
                        "A Polymarket or Kalshi market URL (parsed, never fetched) or free words.",
                    )),
            )
            .required("query")
            .additional_properties(Some(AdditionalProperties::FreeForm(false)))
            .into()
    }
}

impl utoipa::ToSchema for ExplainRequest {}

/// Schemas of values the views hold as plain strings, listing what they can be from the
/// domain's own lists.
pub mod schemas {
    use marketlens_domain::{Category, Exchange, MarketStatus};
    use utoipa::openapi::schema::{KnownFormat, Object, ObjectBuilder, SchemaFormat, Type};

    /// A string that is one of `values`.
    pub(crate) fn one_of(values: impl IntoIterator<Item = &'static str>) -> Object {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(values))
            .build()
    }

    pub fn exchange() -> Object {
        one_of(Exchange::ALL.map(Exchange::as_str))
    }

    /// Explain's lower-case exchange name.
    pub fn platform() -> Object {
        one_of(Exchange::ALL.map(Exchange::platform))
    }

    pub fn market_status() -> Object {
        one_of(MarketStatus::ALL.map(MarketStatus::as_str))
    }

    /// Explain's `open` or `closed`.
    pub fn explain_status() -> Object {
        let mut values: Vec<&'static str> = MarketStatus::ALL.map(MarketStatus::explain_status).to_vec();
        values.dedup();
        one_of(values)
    }

    pub fn category() -> Object {
        one_of(Category::ALL.map(Category::as_str))
    }

    pub fn date_time() -> Object {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
            .build()
    }

    pub fn error_code() -> Object {
        one_of(crate::error::ApiError::CODES.iter().copied())
    }
}

/// The query parameters of each operation, from the constants and lists the parser uses.
pub mod parameters {
    use marketlens_domain::{Category, Exchange, MarketStatus};
    use marketlens_storage::MarketSort;
    use serde_json::json;
    use utoipa::IntoParams;
    use utoipa::openapi::RefOr;
    use utoipa::openapi::Required;
    use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};

    use crate::params::{
        EVENTS_DEFAULT_LIMIT, EVENTS_MAX_LIMIT, HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT, MARKETS_DEFAULT_LIMIT,
        MARKETS_MAX_LIMIT, MAX_EXPLAIN_QUERY_LEN, MAX_EXTERNAL_ID_LEN, MAX_MIN_VOLUME, MAX_OFFSET, MAX_SEARCH_LEN,
        SPREADS_DEFAULT_LIMIT, SPREADS_MAX_LIMIT,
    };
    use marketlens_catalog::SpreadSort;
    use marketlens_domain::history::Interval;

    fn query(name: &str, description: &str, required: bool, schema: impl Into<RefOr<Schema>>) -> Parameter {
        ParameterBuilder::new()
            .name(name)
            .parameter_in(ParameterIn::Query)
            .required(if required { Required::True } else { Required::False })
            .description(Some(description))
            .schema(Some(schema))
            .build()
    }

    /// A decimal number in a range, or the empty value, which counts as absent.
    fn number(default: f64, minimum: f64, maximum: f64) -> OneOfBuilder {
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Number)
                    .minimum(Some(minimum))
                    .maximum(Some(maximum)),
            )
            .item(ObjectBuilder::new().schema_type(Type::String).enum_values(Some([""])))
            .default(Some(json!(default)))
    }

    /// An ISO 8601 time or date, or the empty value, which counts as absent.
    fn time() -> OneOfBuilder {
        use utoipa::openapi::schema::{KnownFormat, SchemaFormat};
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime))),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Date))),
            )
            .item(ObjectBuilder::new().schema_type(Type::String).enum_values(Some([""])))
    }

    /// A whole number in a range, or the empty value, which counts as absent.
    fn integer(default: u64, minimum: u64, maximum: u64) -> OneOfBuilder {
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(minimum as f64))
                    .maximum(Some(maximum as f64)),
            )
            .item(ObjectBuilder::new().schema_type(Type::String).enum_values(Some([""])))
            .default(Some(json!(default)))
    }

    /// An optional parameter's allowed values, and the empty value, which counts as absent
    /// (many clients send an unset option as `?status=`).
    fn one_of(values: impl IntoIterator<Item = &'static str>) -> ObjectBuilder {
        let values = values.into_iter().chain([""]);
        ObjectBuilder::new().schema_type(Type::String).enum_values(Some(values))
    }

    /// Text of at most `max_length` characters; a required parameter must not be empty, an
    /// optional one empty counts as absent.
    fn text(max_length: usize, required: bool) -> ObjectBuilder {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .min_length(Some(usize::from(required)))
            .max_length(Some(max_length))
    }

    fn limit(default: u64, maximum: u64) -> Parameter {
        query(
            "limit",
            "How many items a page holds.",
            false,
            integer(default, 1, maximum),
        )
    }

    fn offset() -> Parameter {
        query("offset", "How many items to skip.", false, integer(0, 0, MAX_OFFSET))
    }

    fn exchange() -> Parameter {
        query(
            "exchange",
            "Only this exchange's items (case-insensitive).",
            false,
            one_of(Exchange::ALL.map(Exchange::as_str)),
        )
    }

    fn category() -> Parameter {
        query(
            "category",
            "Only this category (case-insensitive).",
            false,
            one_of(Category::ALL.map(Category::as_str)),
        )
    }

    /// `GET /api/v1/markets`.
    pub struct ListMarkets;

    impl IntoParams for ListMarkets {
        fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
            vec![
                limit(MARKETS_DEFAULT_LIMIT, MARKETS_MAX_LIMIT),
                offset(),
                exchange(),
                query(
                    "status",
                    "Only markets of this status (case-insensitive).",
                    false,
                    one_of(MarketStatus::ALL.map(MarketStatus::as_str)),
                ),
                category(),
                query(
                    "search",
                    "Words that every market found has in its question (prefixes of the last word count): at \
least one letter or digit, at most 12 words.",
                    false,
                    text(MAX_SEARCH_LEN, false),
                ),
                query(
                    "sortBy",
                    "The sort key (case-insensitive).",
                    false,
                    one_of(MarketSort::ALL.map(MarketSort::as_str))
                        .default(Some(json!(MarketSort::Volume24h.as_str()))),
                ),
                query(
                    "sortOrder",
                    "The sort order (case-insensitive).",
                    false,
                    one_of(["asc", "desc"]).default(Some(json!("desc"))),
                ),
                query(
                    "include",
                    "`outcomes` adds each market's outcomes to the list.",
                    false,
                    one_of(["outcomes"]),
                ),
                query(
                    "externalMarketId",
                    "Only the market with this exchange id (a Polymarket market id or a Kalshi ticker), \
matched exactly.",
                    false,
                    text(MAX_EXTERNAL_ID_LEN, false),
                ),
            ]
        }
    }

    /// `GET /api/v1/markets/{id}/history`.
    pub struct History;

    impl IntoParams for History {
        fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
            vec![
                query(
                    "interval",
                    "The candles' width (case-insensitive). With the default retention, 5-minute candles cover the \
last 7 days, hourly and 4-hour ones the last 90 days, daily ones all the history kept.",
                    false,
                    one_of(Interval::ALL.map(Interval::as_str)).default(Some(json!(Interval::Hour.as_str()))),
                ),
                query(
                    "from",
                    "Only candles starting at or after this time (ISO 8601, or a UTC date).",
                    false,
                    time(),
                ),
                query(
                    "to",
                    "Only candles starting before this time (ISO 8601, or a UTC date); not before `from`.",
                    false,
                    time(),
                ),
                limit(HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT),
                offset(),
            ]
        }
    }

    /// `GET /api/v1/spreads`.
    pub struct Spreads;

    impl IntoParams for Spreads {
        fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
            vec![
                query(
                    "minSimilarity",
                    "Only pairs matched at least this similar (0 to 1).",
                    false,
                    number(0.0, 0.0, 1.0),
                ),
                query(
                    "minVolume24h",
                    "Only pairs whose two markets have each traded at least this much (USD) in 24 hours.",
                    false,
                    number(0.0, 0.0, MAX_MIN_VOLUME),
                ),
                query(
                    "category",
                    "Only pairs of which either market is of this category (case-insensitive).",
                    false,
                    one_of(Category::ALL.map(Category::as_str)),
                ),
                query(
                    "sortBy",
                    "Largest first: `spread` (the price difference) or `volume24h` (the smaller of the two \
markets' 24-hour volumes). Case-insensitive.",
                    false,
                    one_of(SpreadSort::ALL.map(SpreadSort::as_str)).default(Some(json!(SpreadSort::Spread.as_str()))),
                ),
                limit(SPREADS_DEFAULT_LIMIT, SPREADS_MAX_LIMIT),
                offset(),
            ]
        }
    }

    /// `GET /api/v1/events`.
    pub struct ListEvents;

    impl IntoParams for ListEvents {
        fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
            vec![
                limit(EVENTS_DEFAULT_LIMIT, EVENTS_MAX_LIMIT),
                offset(),
                exchange(),
                category(),
            ]
        }
    }

    /// `GET /api/v1/explain`.
    pub struct Explain;

    impl IntoParams for Explain {
        fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
            vec![query(
                "query",
                "A Polymarket or Kalshi market URL (parsed, never fetched) or free words.",
                true,
                text(MAX_EXPLAIN_QUERY_LEN, true),
            )]
        }
    }

    /// `GET /admin/v1/accounts/{id}/ledger`.
    pub struct Ledger;

    impl IntoParams for Ledger {
        fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
            use crate::admin::{LEDGER_DEFAULT_LIMIT, LEDGER_MAX_AFTER, LEDGER_MAX_LIMIT};
            vec![
                query(
                    "after",
                    "The id of the last line already read (the previous page's `nextAfter`).",
                    false,
                    integer(0, 0, LEDGER_MAX_AFTER).default(None),
                ),
                limit(LEDGER_DEFAULT_LIMIT, LEDGER_MAX_LIMIT),
            ]
        }
    }

    /// `GET /api/v1/markets/lookup`.
    pub struct Lookup;

    impl IntoParams for Lookup {
        fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
            vec![query(
                "url",
                "A Polymarket or Kalshi market or event URL (parsed, never fetched).",
                true,
                text(MAX_EXPLAIN_QUERY_LEN, true),
            )]
        }
    }
}
