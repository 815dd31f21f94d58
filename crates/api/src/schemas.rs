//! OpenAPI schemas of values and of query parameters, built from the domain's own lists and
//! the parsers' limits, so that the document cannot drift from what the server accepts. A
//! leaf: the views, the errors, the routes and the admin API describe themselves with it.

use marketlens_domain::depth::{BookSource as DepthSourceKind, TakerSide as TakerSideKind};
use marketlens_domain::{Category as CategoryKind, Exchange as ExchangeKind, MarketStatus as MarketStatusKind};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};

/// A string that is one of `values`, as a builder that can take a default.
pub(crate) fn one_of(values: impl IntoIterator<Item = &'static str>) -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String).enum_values(Some(values))
}

/// A set of strings documented once, as its own component, so that a generated client has one
/// type for it (`Exchange`, not an enum per field). Fields name it with
/// `#[schema(value_type = schemas::Exchange)]`, which keeps the field's own description (a
/// `schema_with` function would drop it); parameters with [`reference`].
macro_rules! string_set {
    ($(#[doc = $doc:literal])+ $name:ident = $values:expr) => {
        $crate::schemas::string_set! { $(#[doc = $doc])+ $name, named stringify!($name), = $values }
    };
    ($(#[doc = $doc:literal])+ $name:ident, named $component:expr, = $values:expr) => {
        $(#[doc = $doc])+
        pub struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                let description = [$($doc),+].map(str::trim).join(" ");
                $crate::schemas::one_of($values).description(Some(description)).build().into()
            }
        }

        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                $component.into()
            }
        }
    };
}
pub(crate) use string_set;

string_set! {
    /// An exchange: `POLYMARKET` or `KALSHI`.
    Exchange = ExchangeKind::ALL.map(ExchangeKind::as_str)
}

string_set! {
    /// An exchange in explain's lower case: `polymarket` or `kalshi`.
    Platform = ExchangeKind::ALL.map(ExchangeKind::platform)
}

string_set! {
    /// Where a market is in its life: `OPEN` (trading), `CLOSED` (trading has stopped, the
    /// result is not yet known) or `RESOLVED` (the result is known).
    MarketStatus = MarketStatusKind::ALL.map(MarketStatusKind::as_str)
}

string_set! {
    /// Explain's status of a market: `open` while it trades, `closed` after.
    ExplainStatus = {
        let mut values: Vec<&'static str> = MarketStatusKind::ALL.map(MarketStatusKind::explain_status).to_vec();
        values.dedup();
        values
    }
}

string_set! {
    /// The subject a market or event is filed under, the same for both exchanges
    /// (`docs/contract/decisions.md#d6-category`).
    Category = CategoryKind::ALL.map(CategoryKind::as_str)
}

string_set! {
    /// Where an order book or trades came from: `stream` (the exchange's live stream, while a
    /// stream client of this server follows the market),
    /// `rest` (fetched from the exchange's REST API, shared for a short while), or
    /// `recording` (recorded earlier and served as recorded: the demo).
    DepthSource = DepthSourceKind::ALL.map(DepthSourceKind::as_str)
}

string_set! {
    /// Whether a trade's taker bought or sold the outcome traded.
    TakerSide = TakerSideKind::ALL.map(TakerSideKind::as_str)
}

/// A reference to the component `T`, for a parameter's schema.
pub(crate) fn reference<T: utoipa::ToSchema>() -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name(T::name()))
}

/// Query parameters' schemas. The server also takes an empty value of an optional parameter
/// (`?status=`) as absent, as many clients send an unset option that way
/// (`docs/contract/interface.md`), but the document does not advertise it: a generated
/// client would type every parameter as "its type, or the empty string".
pub mod parameters {
    use serde_json::json;
    use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
    use utoipa::openapi::schema::{AnyOfBuilder, KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type};
    use utoipa::openapi::{RefOr, Required};

    use crate::params::MAX_OFFSET;

    pub(crate) fn query(name: &str, description: &str, required: bool, schema: impl Into<RefOr<Schema>>) -> Parameter {
        ParameterBuilder::new()
            .name(name)
            .parameter_in(ParameterIn::Query)
            .required(if required { Required::True } else { Required::False })
            .description(Some(description))
            .schema(Some(schema))
            .build()
    }

    /// A decimal number in a range.
    pub(crate) fn number(default: f64, minimum: f64, maximum: f64) -> ObjectBuilder {
        ObjectBuilder::new()
            .schema_type(Type::Number)
            .minimum(Some(minimum))
            .maximum(Some(maximum))
            .default(Some(json!(default)))
    }

    /// An ISO 8601 time, or a UTC date.
    pub(crate) fn time() -> AnyOfBuilder {
        let string_of = |format| {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(format)))
        };
        AnyOfBuilder::new()
            .item(string_of(KnownFormat::DateTime))
            .item(string_of(KnownFormat::Date))
    }

    /// A whole number in a range.
    pub(crate) fn integer(default: u64, minimum: u64, maximum: u64) -> ObjectBuilder {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(minimum as f64))
            .maximum(Some(maximum as f64))
            .default(Some(json!(default)))
    }

    /// Text of at most `max_length` characters; a required parameter must not be empty.
    pub(crate) fn text(max_length: usize, required: bool) -> ObjectBuilder {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .min_length(Some(usize::from(required)))
            .max_length(Some(max_length))
    }

    pub(crate) fn limit(default: u64, maximum: u64) -> Parameter {
        query(
            "limit",
            "How many items a page holds.",
            false,
            integer(default, 1, maximum),
        )
    }

    pub(crate) fn offset() -> Parameter {
        query("offset", "How many items to skip.", false, integer(0, 0, MAX_OFFSET))
    }

    pub(crate) fn exchange() -> Parameter {
        query(
            "exchange",
            "Only this exchange's items (case-insensitive).",
            false,
            super::reference::<super::Exchange>(),
        )
    }

    pub(crate) fn category() -> Parameter {
        query(
            "category",
            "Only this category (case-insensitive).",
            false,
            super::reference::<super::Category>(),
        )
    }
}
