//! The `/docs` page, rendered from the OpenAPI document: a sidebar with a search box and the
//! operations by tag in the document's order (admin last), then for each operation its
//! parameters, a curl line and the real answer recorded from the demo data
//! ([`crate::openapi`]'s examples), a "try it" form, and its responses; then every schema,
//! each field described. The only script is the page's own (`try.js`), served from this
//! origin.

use std::sync::OnceLock;

use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde_json::{Map, Value};

const STYLE: &str = "*{box-sizing:border-box}body{margin:0;font-family:system-ui,sans-serif;color:#1d1d1f;\
line-height:1.5}code,pre,textarea{font-family:ui-monospace,monospace;font-size:.9em}\
aside{position:fixed;top:0;left:0;bottom:0;overflow:auto;width:290px;background:#f6f7f9;\
border-right:1px solid #dde;padding:1em}aside label{display:block;margin-top:.8em;font-size:.9em}aside a{color:inherit;text-decoration:none}aside h4{margin:1em 0 .2em;\
font-size:.8em;text-transform:uppercase;color:#667}aside ul{list-style:none;margin:0;padding:0}aside li{margin:.1em 0;\
font-size:.92em}aside input{width:100%;padding:.35em;margin:.2em 0 .5em;border:1px solid #ccd;border-radius:4px}\
.brand{display:block;font-weight:700;font-size:1.1em}main{margin-left:290px;max-width:1040px;padding:1em 2em}\
section.operation{border-top:1px solid #ddd;padding:1em 0}.method{display:inline-block;min-width:4.2em;\
text-align:center;font-weight:700;font-size:.75em;text-transform:uppercase;color:#fff;background:#0a7;\
border-radius:3px;padding:.05em .3em;margin-right:.4em}.method.post{background:#27c}.method.patch{background:#b70}\
.method.delete{background:#c33}table{border-collapse:collapse;width:100%;margin:.4em 0}th,td{text-align:left;\
vertical-align:top;border-bottom:1px solid #eee;padding:.25em .5em}pre{background:#f6f7f9;padding:.6em;\
overflow:auto;border-radius:4px;max-height:28em}form.try{background:#f3f8ff;border:1px solid #cde;\
border-radius:4px;padding:.6em}form.try label{display:block;margin:.2em 0}form.try input{padding:.25em;\
border:1px solid #ccd;border-radius:3px;width:22em;max-width:100%}form.try textarea{width:100%;height:5em}\
button{padding:.35em 1.2em;border-radius:4px;border:1px solid #27c;background:#27c;color:#fff;cursor:pointer}\
.auth{color:#556}section.tag>h2{text-transform:capitalize}";

/// The page, rendered on first use.
pub fn html(document: &Value) -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| render(document).into_string())
}

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// An operation of the document.
pub(super) struct Operation<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub value: &'a Value,
}

/// The operations of the document, by tag in the document's order of tags (a reader's
/// order, admin last), then in the document's order.
pub(super) fn operations(document: &Value) -> Vec<Operation<'_>> {
    let mut found = Vec::new();
    for (path, item) in object(&document["paths"]) {
        for method in METHODS {
            if let Some(value) = item.get(method) {
                found.push(Operation { method, path, value });
            }
        }
    }
    let tags: Vec<&str> = document["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|tag| text(&tag["name"]))
        .collect();
    found.sort_by_key(|operation| {
        tags.iter()
            .position(|tag| *tag == operation.tag())
            .unwrap_or(tags.len())
    });
    found
}

/// Who may call an operation, from its security requirements.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Access {
    Public,
    ApiKey,
    AdminToken,
}

impl Operation<'_> {
    pub fn access(&self) -> Access {
        let names: Vec<&String> = self.value["security"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .flat_map(Map::keys)
            .collect();
        if names.iter().any(|name| *name == crate::openapi::ADMIN) {
            Access::AdminToken
        } else if names.is_empty() {
            Access::Public
        } else {
            Access::ApiKey
        }
    }

    pub fn summary(&self) -> &str {
        text(&self.value["summary"])
    }

    pub fn curl(&self) -> Option<&str> {
        self.value["x-codeSamples"][0]["source"].as_str()
    }

    fn tag(&self) -> &str {
        text(&self.value["tags"][0])
    }
}

pub(super) fn object(value: &Value) -> &Map<String, Value> {
    static EMPTY: OnceLock<Map<String, Value>> = OnceLock::new();
    value.as_object().unwrap_or_else(|| EMPTY.get_or_init(Map::new))
}

pub(super) fn text(value: &Value) -> &str {
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

fn pretty(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

fn render(document: &Value) -> Markup {
    let info = &document["info"];
    let operations = operations(document);
    let tags: Vec<&Value> = document["tags"]
        .as_array()
        .map(|tags| tags.iter().collect())
        .unwrap_or_default();
    let schemas = object(&document["components"]["schemas"]);
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
                aside {
                    a.brand href="#top" { (text(&info["title"])) " " small { (text(&info["version"])) } }
                    label { "API key" input #api-key type="password" placeholder="pm_live_..." autocomplete="off"; }
                    input #filter type="search" placeholder="Search operations and schemas" aria-label="Search";
                    nav {
                        @for tag in &tags {
                            @let name = text(&tag["name"]);
                            h4 { a href={ "#tag-" (name) } { (name) } }
                            ul {
                                @for operation in operations.iter().filter(|operation| operation.tag() == name) {
                                    li data-search=(format!("{} {} {} {}", operation.method, operation.path, operation.summary(), text(&operation.value["operationId"])).to_lowercase()) {
                                        a href={ "#" (anchor(operation.method, operation.path)) } {
                                            span class={ "method " (operation.method) } { (operation.method) } (prose(&operation.value["summary"]))
                                        }
                                    }
                                }
                            }
                        }
                        h4 { a href="#schemas" { "schemas" } }
                        ul {
                            @for name in schemas.keys() {
                                li data-search=(name.to_lowercase()) { a href={ "#schema-" (name) } { code { (name) } } }
                            }
                        }
                    }
                }
                main #top {
                    h1 { (text(&info["title"])) }
                    p { (prose(&info["description"])) }
                    p {
                        "Every example below is a real request and answer, recorded from the demo data ("
                        code { "marketlens demo" } "). With the demo's key in " code { "KEY" }
                        " (" code { "export KEY=pm_live_..." } "), the curl lines run as they are. "
                        "Paste a key in the sidebar to send any request from this page. "
                        "Machine-readable: " a href="/api/v1/openapi.json" { code { "/api/v1/openapi.json" } }
                        " (OpenAPI " (text(&document["openapi"])) ") and " a href="/llms.txt" { code { "/llms.txt" } } "."
                    }
                    @for tag in &tags {
                        @let name = text(&tag["name"]);
                        section.tag id={ "tag-" (name) } {
                            h2 { (name) }
                            p { (prose(&tag["description"])) }
                            @for operation in operations.iter().filter(|operation| operation.tag() == name) {
                                (render_operation(operation))
                            }
                        }
                    }
                    section #schemas {
                        h2 { "Schemas" }
                        @for (name, schema) in schemas {
                            section id={ "schema-" (name) } {
                                h3 { code { (name) } }
                                (render_schema(schema))
                            }
                        }
                    }
                }
                script src="/docs/try.js" {}
            }
        }
    }
}

fn render_operation(operation: &Operation) -> Markup {
    let Operation { method, path, value } = operation;
    let access = operation.access();
    let parameters = value["parameters"].as_array().map(Vec::as_slice).unwrap_or_default();
    let example_body = value["requestBody"]["content"]["application/json"]["example"].clone();
    html! {
        section.operation id=(anchor(method, path)) {
            h3 { (prose(&value["summary"])) }
            p { span class={ "method " (method) } { (method) } code { (path) } " " small { code { (text(&value["operationId"])) } } }
            @if let Some(description) = value.get("description") { p { (prose(description)) } }
            p.auth {
                @match access {
                    Access::ApiKey => { "Needs an API key: " code { "Authorization: Bearer <API_KEY>" } "." }
                    Access::AdminToken => { "Needs the admin token: " code { "Authorization: Bearer <ADMIN_TOKEN>" } "." }
                    Access::Public => { "No key needed." }
                }
            }
            @if !parameters.is_empty() {
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
            @if let Some(body) = value.get("requestBody") {
                h4 { "Body" }
                @for (media_type, content) in object(&body["content"]) {
                    p { code { (media_type) } ": " (describe(&content["schema"])) }
                }
            }
            @if let Some(curl) = operation.curl() {
                h4 { "Example" }
                pre { code { (curl) } }
            }
            @for (status, response) in object(&value["responses"]) {
                @for content in object(&response["content"]).values() {
                    @if let Some(example) = content.get("example") {
                        details open[status.starts_with('2')] {
                            summary { "Answer " (status) ": " (prose(&response["description"])) }
                            pre { code { (pretty(example)) } }
                        }
                    }
                }
            }
            h4 { "Try it" }
            form.try data-method=(method) data-path=(path) data-access=(match access { Access::ApiKey => "key", Access::AdminToken => "admin", Access::Public => "none" }) {
                @if access == Access::AdminToken {
                    label { "Admin token " input.token type="password" autocomplete="off"; }
                }
                @for parameter in parameters {
                    label {
                        code { (text(&parameter["name"])) } " "
                        input data-in=(text(&parameter["in"])) name=(text(&parameter["name"]))
                            value=(parameter.get("example").map(pretty).unwrap_or_default())
                            required[parameter["required"] == Value::Bool(true)];
                    }
                }
                @if value.get("requestBody").is_some() {
                    label { "Body (JSON)" textarea name="body" { (if example_body.is_null() { String::new() } else { pretty(&example_body) }) } }
                }
                button type="submit" { "Send" }
                pre.answer hidden {}
            }
            h4 { "Responses" }
            table {
                tr { th { "Status" } th { "Body" } th { "Description" } }
                @for (status, response) in object(&value["responses"]) {
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
    for (key, joiner) in [("oneOf", "one of: "), ("anyOf", "any of: ")] {
        if let Some(variants) = schema[key].as_array() {
            return html! { (joiner) @for (position, variant) in variants.iter().enumerate() { @if position > 0 { ", " } (describe(variant)) } };
        }
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

/// A field's description: its own, or that of the variant of a nullable field that has one
/// (utoipa puts an optional field's description on the variant).
fn description_of(property: &Value) -> &Value {
    property
        .get("description")
        .or_else(|| {
            property["oneOf"]
                .as_array()?
                .iter()
                .find_map(|variant| variant.get("description"))
        })
        .unwrap_or(&Value::Null)
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
                        td { (prose(description_of(property))) }
                    }
                }
            }
        } @else {
            p { (describe(schema)) }
        }
    }
}
