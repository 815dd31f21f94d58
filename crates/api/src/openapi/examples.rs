//! A real request and answer for every operation, recorded from the demo data by
//! `scripts/openapi-examples` into `examples.json`: the document shows each operation's
//! answer as its success response's `example`, the request as a curl line (`x-codeSamples`,
//! which Redocly and other renderers show) and each parameter's value in it as the
//! parameter's `example`, which the `/docs` page's "try it" form starts from. Recorded rather
//! than written by hand so that an example is what the server really answers; the HTTP suite
//! checks each against its documented schema.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{Schema, SchemaType, Type};
use utoipa::openapi::security::SecurityRequirement;
use utoipa::openapi::{OpenApi, RefOr};

/// Where the curl lines send their requests: the server's default `--bind`.
const BASE_URL: &str = "http://127.0.0.1:8080";

/// One recorded call.
#[derive(Debug, Deserialize)]
pub struct Example {
    pub method: String,
    /// The path with its query, as sent.
    pub path: String,
    pub status: u16,
    /// The JSON body sent, if any.
    pub body: Option<Value>,
    /// The answer: JSON, or text for a text response.
    pub response: Value,
}

/// The recorded calls, by operationId.
pub fn recorded() -> BTreeMap<String, Example> {
    serde_json::from_str(include_str!("examples.json")).expect("examples.json is a map of examples")
}

/// The curl line that makes `example`'s request; `credential` names the shell variable that
/// holds the key or token, if the operation takes one.
pub fn curl(example: &Example, credential: Option<&str>) -> String {
    let mut line = String::from("curl -s");
    if example.method != "GET" {
        line.push_str(&format!(" -X {}", example.method));
    }
    if let Some(credential) = credential {
        line.push_str(&format!(" -H \"Authorization: Bearer ${credential}\""));
    }
    if let Some(body) = &example.body {
        line.push_str(&format!(" -H 'Content-Type: application/json' -d '{body}'"));
    }
    line.push_str(&format!(" '{BASE_URL}{}'", example.path));
    line
}

/// Adds every recorded example to the operation it was recorded for.
pub fn add_to(document: &mut OpenApi) {
    let examples = recorded();
    for (path, item) in document.paths.paths.iter_mut() {
        for operation in [&mut item.get, &mut item.post, &mut item.patch, &mut item.delete]
            .into_iter()
            .flatten()
        {
            if operation.responses.responses.contains_key(SWITCHING_PROTOCOLS) {
                add_websocket_sample(path, operation);
                continue;
            }
            let Some(example) = operation.operation_id.as_ref().and_then(|id| examples.get(id)) else {
                continue;
            };
            add_example(path, operation, example);
        }
    }
}

/// The status of an operation that upgrades to a WebSocket (`GET /api/v1/stream`).
pub const SWITCHING_PROTOCOLS: &str = "101";

/// A WebSocket's sample opens it with websocat, which sends what is typed as messages: no
/// answer to record, since a stream's messages are the feed's, described by the document's
/// `Stream*Message` schemas.
fn add_websocket_sample(path: &str, operation: &mut Operation) {
    let websocket_url = BASE_URL.replacen("http", "ws", 1);
    let source = format!("websocat -H \"Authorization: Bearer $KEY\" '{websocket_url}{path}'");
    let sample = json!([{ "lang": "Shell", "label": "websocat", "source": source }]);
    let extensions = operation.extensions.get_or_insert_with(Default::default);
    extensions.merge(ExtensionsBuilder::new().add("x-codeSamples", sample).build());
}

fn add_example(template: &str, operation: &mut Operation, example: &Example) {
    let public = operation
        .security
        .iter()
        .flatten()
        .all(|requirement| *requirement == SecurityRequirement::default());
    let credential = match (public, template.starts_with(super::ADMIN_PREFIX)) {
        (true, _) => None,
        (false, true) => Some("ADMIN_TOKEN"),
        (false, false) => Some("KEY"),
    };
    let sample = json!([{ "lang": "Shell", "label": "curl", "source": curl(example, credential) }]);
    let extensions = operation.extensions.get_or_insert_with(Default::default);
    extensions.merge(ExtensionsBuilder::new().add("x-codeSamples", sample).build());

    if let Some(RefOr::T(response)) = operation.responses.responses.get_mut(&example.status.to_string()) {
        for content in response.content.values_mut() {
            content.example = Some(example.response.clone());
        }
    }
    if let (Some(body), Some(request_body)) = (&example.body, operation.request_body.as_mut()) {
        for content in request_body.content.values_mut() {
            content.example = Some(body.clone());
        }
    }
    let values = parameter_values(template, &example.path);
    for parameter in operation.parameters.iter_mut().flatten() {
        let place = match parameter.parameter_in {
            ParameterIn::Path => "path",
            ParameterIn::Query => "query",
            _ => continue,
        };
        if let Some(value) = values.get(&(place, parameter.name.clone())) {
            let example = typed(value, parameter.schema.as_ref());
            *parameter = ParameterBuilder::from(parameter.clone()).example(Some(example)).build();
        }
    }
}

/// A parameter's value as its schema types it: a number for a number, else the text.
fn typed(value: &str, schema: Option<&RefOr<Schema>>) -> Value {
    let numeric = matches!(
        schema,
        Some(RefOr::T(Schema::Object(object)))
            if matches!(object.schema_type, SchemaType::Type(Type::Integer | Type::Number))
    );
    match value.parse::<serde_json::Number>() {
        Ok(number) if numeric => Value::Number(number),
        _ => Value::String(value.to_owned()),
    }
}

/// The path and query parameters of `path`, sent for the route `template`
/// (`/api/v1/markets/{id}`).
fn parameter_values(template: &str, path: &str) -> BTreeMap<(&'static str, String), String> {
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let mut values = BTreeMap::new();
    for (name, value) in template.split('/').zip(path.split('/')) {
        if let Some(name) = name.strip_prefix('{').and_then(|name| name.strip_suffix('}')) {
            values.insert(("path", name.to_owned()), value.to_owned());
        }
    }
    for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
        values.insert(("query", name.into_owned()), value.into_owned());
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_read_from_the_path_and_the_query() {
        let values = parameter_values(
            "/api/v1/markets/{id}/history",
            "/api/v1/markets/abc/history?interval=1d&q=a%20b",
        );
        assert_eq!(values.get(&("path", "id".into())).map(String::as_str), Some("abc"));
        assert_eq!(
            values.get(&("query", "interval".into())).map(String::as_str),
            Some("1d")
        );
        assert_eq!(values.get(&("query", "q".into())).map(String::as_str), Some("a b"));
    }

    #[test]
    fn a_curl_line_carries_the_method_the_credential_and_the_body() {
        let example = Example {
            method: "POST".into(),
            path: "/api/v1/explain".into(),
            status: 200,
            body: Some(json!({"query": "fed"})),
            response: json!({}),
        };
        assert_eq!(
            curl(&example, Some("KEY")),
            "curl -s -X POST -H \"Authorization: Bearer $KEY\" -H 'Content-Type: application/json' \
             -d '{\"query\":\"fed\"}' 'http://127.0.0.1:8080/api/v1/explain'"
        );
    }
}
