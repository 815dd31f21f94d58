//! The OpenAPI 3.1 document of the API, generated from the code so that it cannot drift: the
//! response schemas are derived from the view types that build the responses ([`crate::views`],
//! [`crate::error`]), the operations from the handlers' annotations (each route module registers its handlers with
//! their documentation, so no route is served undocumented or documented unserved), and the parameters'
//! bounds and allowed values from the same constants and domain lists that [`crate::params`]
//! checks requests against; each operation's example is a real request and answer recorded
//! from the demo data ([`examples`]). The document is built once and served at
//! `/api/v1/openapi.json`; [`crate::reference`] renders it as the `/docs` page.
//!
//! Tests hold the document to the live server: every documented response of every operation
//! validates against its schema, and every documented bound is the one the server enforces.

mod examples;

use std::sync::OnceLock;

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;

use crate::error::ErrorBody;
use crate::routes;
use crate::state::AppState;

/// The document, as the code describes it.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Marketlens API",
        description = "Prediction markets of Polymarket and Kalshi through one JSON API: markets, events, \
cross-exchange matches and explanations from recent news. Every `/api/v1` call but this document takes \
an API key (`Authorization: Bearer <API_KEY>`) and is charged credits against the key's account, \
within the account's requests-per-minute limit. Errors share one shape (`ErrorBody`).",
        license(name = "MIT OR Apache-2.0", identifier = "MIT OR Apache-2.0")
    ),
    servers((url = "/", description = "The server that serves this document.")),
    components(schemas(
        ErrorBody,
        crate::stream::messages::ClientMessage,
        crate::stream::messages::MarketMessage,
        crate::stream::messages::ControlMessage
    )),
    tags(
        (name = "markets", description = "Markets of both exchanges, with their cross-exchange matches."),
        (name = "events", description = "Events: the groups of markets an exchange lists together."),
        (name = "explain", description = "A market's summary and key factors from recent news."),
        (name = "account", description = "The calling key's account: credits, tier and rate limit."),
        (name = "history", description = "A market's price history as candles."),
        (name = "spreads", description = "Matched pairs of open markets and the gap between their prices."),
        (name = "depth", description = "Order books and trades of a market, fetched from its exchange (or, in the demo, as recorded), and the live stream of their changes (a WebSocket)."),
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
                    .description(Some("An API key made by the operator (`marketlens keys create`)."))
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
/// headers on success; and on every charged one, the `Idempotency-Key` header and its errors.
/// Added here once rather than repeated on every handler. (`Idempotent-Replayed`, on replayed
/// answers only, is described with the header: a response header documented here is one every
/// answer of its status carries.)
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
                    add(
                        "409",
                        "The call first sent with this `Idempotency-Key` was still running when this one stopped waiting for it, after the request timeout (`IDEMPOTENCY_KEY_IN_PROGRESS`; see `Retry-After`).",
                    );
                    add(
                        "422",
                        "This `Idempotency-Key` was used with another request: another method, path, query or body (`IDEMPOTENCY_KEY_REUSED`).",
                    );
                    operation
                        .parameters
                        .get_or_insert_with(Vec::new)
                        .push(idempotency_key_parameter());
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

/// The `Idempotency-Key` header of every charged operation (`crate::idempotency`).
fn idempotency_key_parameter() -> utoipa::openapi::path::Parameter {
    use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ParameterBuilder::new()
        .name("Idempotency-Key")
        .parameter_in(ParameterIn::Header)
        .required(utoipa::openapi::Required::False)
        .description(Some(
            "Makes a retry safe: the first call with this key (per account) runs and is charged, and its \
answer is kept for 24 hours (the server's `--idempotency-ttl-secs`); a repeat with the same key, method, path, \
query and body gets that answer back uncharged, marked `Idempotent-Replayed: true`, or, while the first still \
runs, waits for it (409 `IDEMPOTENCY_KEY_IN_PROGRESS` if it still runs after the request timeout). The kept \
answer's `X-Credits-Used` and `X-Credits-Remaining` are the first call's. The same key with another request is \
422 `IDEMPOTENCY_KEY_REUSED`. Only charged answers are kept: after an error, a retry with the key runs again. \
1 to 255 printable ASCII characters, e.g. a UUID.",
        ))
        .schema(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(crate::idempotency::MAX_KEY_LEN))
                .pattern(Some("^[ -~]+$")),
        ))
        .build()
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

/// Operations that name no security scheme are public; the document says so with an empty
/// list of requirements (`security: []`), because validators read an operation without
/// `security` as "unknown", not as "needs nothing" (and generators read `[{}]` as "needs a
/// key").
struct PublicOperations;

impl Modify for PublicOperations {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            for operation in [&mut item.get, &mut item.post, &mut item.patch, &mut item.delete]
                .into_iter()
                .flatten()
            {
                operation.security.get_or_insert_with(Vec::new);
            }
        }
    }
}

/// utoipa 5 copies a generic envelope's type argument into the envelope's schema
/// (`ListEnvelope<MarketListItem>` holds a second `MarketListItem`; juhaku/utoipa#1586), and a
/// generator would make an anonymous type of each copy. Each envelope's `data` names the
/// component instead, where the copy is the component exactly.
struct ReferencedEnvelopeData;

impl ReferencedEnvelopeData {
    const ENVELOPES: [&str; 2] = ["DataEnvelope_", "ListEnvelope_"];
}

impl Modify for ReferencedEnvelopeData {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::RefBuilder;
        use utoipa::openapi::schema::{ArrayItems, Schema};
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let envelopes: Vec<String> = components.schemas.keys().cloned().collect();
        for envelope in envelopes {
            let Some(argument) = Self::ENVELOPES.iter().find_map(|prefix| envelope.strip_prefix(prefix)) else {
                continue;
            };
            let argument = argument.strip_prefix("Vec_").unwrap_or(argument);
            let component = components.schemas.get(argument).map(serde_json::to_value);
            let Some(RefOr::T(Schema::Object(envelope))) = components.schemas.get_mut(&envelope) else {
                continue;
            };
            let copy = match envelope.properties.get_mut("data") {
                Some(RefOr::T(Schema::Array(array))) => {
                    array.description.get_or_insert_with(|| "The items.".to_owned());
                    match &mut array.items {
                        ArrayItems::RefOrSchema(items) => items.as_mut(),
                        ArrayItems::False => continue,
                    }
                }
                Some(data) => data,
                None => continue,
            };
            let Some(Ok(component)) = component else {
                continue;
            };
            if serde_json::to_value(&*copy).ok().as_ref() == Some(&component) {
                let description = component["description"].as_str().unwrap_or_default();
                *copy = RefOr::Ref(
                    RefBuilder::new()
                        .ref_location_from_schema_name(argument)
                        .description(Some(description))
                        .build(),
                );
            }
        }
    }
}

/// The header every charged response carries; its presence marks an operation as charged.
const CREDITS_USED_HEADER: &str = "X-Credits-Used";

/// The document: the routes' own documentation ([`routes::keyed`], [`routes::operations`] and
/// the admin API's, listed whether or not this server has an admin token), then the security
/// schemes and the responses every keyed or admin operation shares.
pub fn document() -> utoipa::openapi::OpenApi {
    let (_, mut document) = OpenApiRouter::<AppState>::with_openapi(ApiDoc::openapi())
        .merge(routes::keyed())
        .merge(routes::operations())
        .merge(routes::admin::router())
        .split_for_parts();
    // PublicOperations last: KeyedResponses tells keyed operations by their security.
    let modifiers: [&dyn Modify; 5] = [
        &BearerAuth,
        &KeyedResponses,
        &AdminResponses,
        &PublicOperations,
        &ReferencedEnvelopeData,
    ];
    for modifier in modifiers {
        modifier.modify(&mut document);
    }
    examples::add_to(&mut document);
    document
}

/// The document as JSON, built on first use.
pub fn document_json() -> &'static str {
    static DOCUMENT: OnceLock<String> = OnceLock::new();
    DOCUMENT.get_or_init(|| document().to_pretty_json().expect("the OpenAPI document serializes"))
}

/// The same document as a JSON value, for what is rendered or derived from it (`/docs`,
/// `/llms.txt`, the MCP tools), parsed once.
pub fn document_value() -> &'static serde_json::Value {
    static VALUE: OnceLock<serde_json::Value> = OnceLock::new();
    VALUE.get_or_init(|| serde_json::from_str(document_json()).expect("the OpenAPI document is JSON"))
}
