//! `/llms.txt`: the API as plain text for language models and agents (the llmstxt.org form:
//! a title, a summary, then sections of links and notes): every operation with its method,
//! path, operationId, what it needs, its parameters and a curl line, from the OpenAPI document.

use std::fmt::Write;
use std::sync::OnceLock;

use serde_json::Value;

use super::page::{Access, object, operations, text};

fn render(document: &Value) -> String {
    let info = &document["info"];
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", text(&info["title"]));
    let _ = writeln!(out, "> {}\n", text(&info["description"]));
    let _ = writeln!(
        out,
        "Authenticate with `Authorization: Bearer <API_KEY>`. Answers are JSON; errors are \
         `{{\"success\": false, \"error\": {{\"code\", \"message\", \"details\"}}, \"requestId\"}}`.\n"
    );
    let _ = writeln!(out, "## Docs\n");
    let _ = writeln!(
        out,
        "- [OpenAPI document](/api/v1/openapi.json): every operation and schema, OpenAPI {}",
        text(&document["openapi"])
    );
    let _ = writeln!(
        out,
        "- [Reference](/docs): the same, for people, with real examples and a try-it form\n"
    );
    let _ = writeln!(out, "## Operations\n");
    for operation in operations(document) {
        let value = operation.value;
        let needs = match operation.access() {
            Access::ApiKey => "API key",
            Access::AdminToken => "admin token",
            Access::Public => "no key",
        };
        let _ = writeln!(
            out,
            "- {} {} (`{}`, {needs}): {}",
            operation.method.to_uppercase(),
            operation.path,
            text(&value["operationId"]),
            operation.summary()
        );
        for parameter in value["parameters"].as_array().into_iter().flatten() {
            let required = if parameter["required"] == Value::Bool(true) {
                ", required"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "  - `{}` ({}{required}): {}",
                text(&parameter["name"]),
                text(&parameter["in"]),
                text(&parameter["description"])
            );
        }
        if let Some(curl) = operation.curl() {
            let _ = writeln!(out, "  - example: `{curl}`");
        }
        for (status, response) in object(&value["responses"]) {
            if status.starts_with('2') {
                let _ = writeln!(out, "  - {status}: {}", text(&response["description"]));
            }
        }
    }
    out
}

/// The text, rendered on first use.
pub fn plain(document: &Value) -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| render(document))
}
