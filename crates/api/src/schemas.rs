//! OpenAPI schemas of values and of query parameters, built from the domain's own lists and
//! the parsers' limits, so that the document cannot drift from what the server accepts. A
//! leaf: the views, the errors, the routes and the admin API describe themselves with it.

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

/// Query parameters' schemas: each optional one also takes the empty value, which counts as
/// absent (many clients send an unset option as `?status=`).
pub mod parameters {
    use marketlens_domain::{Category, Exchange};
    use serde_json::json;
    use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
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

    /// A decimal number in a range, or the empty value, which counts as absent.
    pub(crate) fn number(default: f64, minimum: f64, maximum: f64) -> OneOfBuilder {
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
    pub(crate) fn time() -> OneOfBuilder {
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
    pub(crate) fn integer(default: u64, minimum: u64, maximum: u64) -> OneOfBuilder {
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
    pub(crate) fn optional_one_of(values: impl IntoIterator<Item = &'static str>) -> ObjectBuilder {
        let values = values.into_iter().chain([""]);
        ObjectBuilder::new().schema_type(Type::String).enum_values(Some(values))
    }

    /// Text of at most `max_length` characters; a required parameter must not be empty, an
    /// optional one empty counts as absent.
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
            optional_one_of(Exchange::ALL.map(Exchange::as_str)),
        )
    }

    pub(crate) fn category() -> Parameter {
        query(
            "category",
            "Only this category (case-insensitive).",
            false,
            optional_one_of(Category::ALL.map(Category::as_str)),
        )
    }
}
