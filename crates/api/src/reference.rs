//! `GET /docs`: the API reference, rendered on the server from the OpenAPI document
//! ([`crate::openapi`]) as one self-contained HTML page: no script, no font, no request to any
//! other host (its Content-Security-Policy allows nothing but its own inline style). Rendering
//! from the document rather than writing the page by hand keeps it as exact as the document.

use std::sync::OnceLock;

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde_json::{Map, Value};

use crate::openapi::document_json;

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;\
color:#1d1d1f;line-height:1.45}code,pre{font-family:ui-monospace,monospace;font-size:.92em}\
section.operation{border-top:1px solid #ddd;padding:.6em 0}.method{font-weight:700;text-transform:uppercase;\
margin-right:.5em}table{border-collapse:collapse;width:100%;margin:.4em 0}th,td{text-align:left;\
vertical-align:top;border-bottom:1px solid #eee;padding:.25em .5em}nav li{margin:.1em 0}";

/// The page, rendered on first use.
pub async fn page() -> Response {
    static PAGE: OnceLock<String> = OnceLock::new();
    let page = PAGE.get_or_init(|| {
        let document: Value = serde_json::from_str(document_json()).expect("the OpenAPI document is JSON");
        render(&document).into_string()
    });
    let mut response = (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )],
        page.as_str(),
    )
        .into_response();
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"),
    );
    response
}

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// The operations of the document, in its order: (method, path, operation).
fn operations(document: &Value) -> Vec<(&str, &str, &Value)> {
    let mut found = Vec::new();
    for (path, item) in object(&document["paths"]) {
        for method in METHODS {
            if let Some(operation) = item.get(method) {
                found.push((method, path.as_str(), operation));
            }
        }
    }
    found
}

fn object(value: &Value) -> &Map<String, Value> {
    static EMPTY: OnceLock<Map<String, Value>> = OnceLock::new();
    value.as_object().unwrap_or_else(|| EMPTY.get_or_init(Map::new))
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

/// A description with its `code spans` shown as code (the document's only markup).
fn prose(value: &Value) -> Markup {
    html! {
        @for (position, part) in text(value).split('`').enumerate() {
            @if position % 2 == 1 { code { (part) } } @else { (part) }
        }
    }
}

fn anchor(method: &str, path: &str) -> String {
    let mut id = format!("{method}-{path}");
    id.retain(|character| character.is_ascii_alphanumeric() || character == '-');
    id
}

fn render(document: &Value) -> Markup {
    let info = &document["info"];
    let operations = operations(document);
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (text(&info["title"])) " reference" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { (text(&info["title"])) " " small { (text(&info["version"])) } }
                p { (prose(&info["description"])) }
                p { "The machine-readable document: " a href="/api/v1/openapi.json" { code { "/api/v1/openapi.json" } } " (OpenAPI " (text(&document["openapi"])) ")." }
                h2 { "Endpoints" }
                nav { ul {
                    @for (method, path, operation) in &operations {
                        li { a href={ "#" (anchor(method, path)) } { span.method { (method) } code { (path) } } " " (prose(&operation["summary"])) }
                    }
                } }
                @for (method, path, operation) in &operations {
                    (render_operation(method, path, operation))
                }
                h2 { "Schemas" }
                @for (name, schema) in object(&document["components"]["schemas"]) {
                    section id={ "schema-" (name) } {
                        h3 { code { (name) } }
                        (render_schema(schema))
                    }
                }
            }
        }
    }
}

fn render_operation(method: &str, path: &str, operation: &Value) -> Markup {
    let secured = operation.get("security").is_some();
    html! {
        section.operation id=(anchor(method, path)) {
            h3 { span.method { (method) } code { (path) } }
            p { (prose(&operation["summary"])) }
            @if let Some(description) = operation.get("description") { p { (prose(description)) } }
            p { @if secured { "Needs an API key: " code { "Authorization: Bearer <API_KEY>" } "." } @else { "No key needed." } }
            @if let Some(parameters) = operation["parameters"].as_array() {
                h4 { "Parameters" }
                table {
                    tr { th { "Name" } th { "In" } th { "Schema" } th { "Description" } }
                    @for parameter in parameters {
                        tr {
                            td { code { (text(&parameter["name"])) } @if parameter["required"] == Value::Bool(true) { " (required)" } }
                            td { (text(&parameter["in"])) }
                            td { (describe(&parameter["schema"])) }
                            td { (prose(&parameter["description"])) }
                        }
                    }
                }
            }
            @if let Some(body) = operation.get("requestBody") {
                h4 { "Body" }
                @for (media_type, content) in object(&body["content"]) {
                    p { code { (media_type) } ": " (describe(&content["schema"])) }
                }
            }
            h4 { "Responses" }
            table {
                tr { th { "Status" } th { "Body" } th { "Description" } }
                @for (status, response) in object(&operation["responses"]) {
                    tr {
                        td { (status) }
                        td { @for content in object(&response["content"]).values() { (describe(&content["schema"])) } }
                        td {
                            (prose(&response["description"]))
                            @for (header_name, header) in object(&response["headers"]) {
                                br; "Header " code { (header_name) } ": " (prose(&header["description"]))
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A schema in one line: a link to a named schema, or its type and constraints.
fn describe(schema: &Value) -> Markup {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or_default();
        return html! { a href={ "#schema-" (name) } { code { (name) } } };
    }
    if let Some(variants) = schema["oneOf"].as_array() {
        return html! { "one of: " @for (position, variant) in variants.iter().enumerate() { @if position > 0 { ", " } (describe(variant)) } };
    }
    let kind = match &schema["type"] {
        Value::Array(kinds) => kinds.iter().map(text).collect::<Vec<_>>().join(" or "),
        Value::String(kind) => kind.clone(),
        _ => "any".to_owned(),
    };
    let mut notes = Vec::new();
    if let Some(format) = schema["format"].as_str() {
        notes.push(format.to_owned());
    }
    if let Some(values) = schema["enum"].as_array() {
        let values: Vec<String> = values.iter().map(|value| value.to_string()).collect();
        notes.push(format!("one of {}", values.join(", ")));
    }
    for (key, label) in [
        ("minimum", "min"),
        ("maximum", "max"),
        ("minLength", "min length"),
        ("maxLength", "max length"),
        ("default", "default"),
    ] {
        if let Some(value) = schema.get(key) {
            notes.push(format!("{label} {value}"));
        }
    }
    html! {
        code { (kind) }
        @if kind == "array" { " of " (describe(&schema["items"])) }
        @if !notes.is_empty() { " (" (notes.join("; ")) ")" }
    }
}

fn render_schema(schema: &Value) -> Markup {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map_or(Vec::new(), |names| names.iter().map(text).collect());
    html! {
        @if let Some(description) = schema.get("description") { p { (prose(description)) } }
        @if let Some(properties) = schema["properties"].as_object() {
            table {
                tr { th { "Field" } th { "Schema" } th { "Description" } }
                @for (name, property) in properties {
                    tr {
                        td { code { (name) } @if !required.contains(&name.as_str()) { " (optional)" } }
                        td { (describe(property)) }
                        td { (prose(&property["description"])) }
                    }
                }
            }
        } @else {
            p { (describe(schema)) }
        }
    }
}
