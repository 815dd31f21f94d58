//! The tools, each an operation of `/api/v1` as the OpenAPI document describes it: the tool's
//! description is the operation's summary, description and answer (with its cost), and its
//! input schema is the operation's parameters, their bounds, allowed values and descriptions.
//! Read from the document rather than written again, they cannot drift from what the REST
//! call takes; the REST call itself checks the arguments.

use rmcp::ErrorData;
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use url::{Position, Url};

/// Each tool's name and the id of the operation it calls.
const TOOLS: [(&str, &str); 8] = [
    ("search_markets", "listMarkets"),
    ("get_market", "getMarket"),
    ("list_events", "listEvents"),
    ("get_event", "getEvent"),
    ("explain", "explainMarket"),
    ("market_history", "getMarketHistory"),
    ("list_spreads", "listSpreads"),
    ("get_account", "getAccount"),
];

/// Where a component schema that a parameter names is found.
const COMPONENT_PREFIX: &str = "#/components/schemas/";

/// A tool and the GET request of its operation.
pub(crate) struct RestTool {
    pub tool: Tool,
    /// The operation's path, with `{name}` where a path parameter goes.
    path: String,
}

pub(crate) struct Tools(Vec<RestTool>);

impl Tools {
    /// The tools of [`TOOLS`], from the OpenAPI document (JSON).
    pub fn from_document(document: &Value) -> Tools {
        Tools(
            TOOLS
                .into_iter()
                .map(|(name, operation_id)| RestTool::new(document, name, operation_id))
                .collect(),
        )
    }

    pub fn get(&self, name: &str) -> Option<&RestTool> {
        self.0.iter().find(|rest_tool| rest_tool.tool.name == name)
    }

    pub fn list(&self) -> Vec<Tool> {
        self.0.iter().map(|rest_tool| rest_tool.tool.clone()).collect()
    }
}

impl RestTool {
    /// # Panics
    ///
    /// When the document has no GET operation `operation_id`, or one of its parameters names
    /// a schema the document lacks: the document and [`TOOLS`] are both in the code.
    fn new(document: &Value, name: &'static str, operation_id: &str) -> RestTool {
        let (path, operation) = document["paths"]
            .as_object()
            .into_iter()
            .flatten()
            .find_map(|(path, item)| {
                let operation = item.get("get")?;
                (operation["operationId"] == operation_id).then_some((path, operation))
            })
            .unwrap_or_else(|| panic!("the OpenAPI document has no GET operation {operation_id}"));
        let description = ["summary", "description"]
            .into_iter()
            .filter_map(|field| operation[field].as_str())
            .chain(operation["responses"]["200"]["description"].as_str())
            .collect::<Vec<_>>()
            .join("\n\n");
        let tool = Tool::new(name, description, Arc::new(input_schema(document, operation)))
            .with_annotations(ToolAnnotations::new().read_only(true));
        RestTool {
            tool,
            path: path.clone(),
        }
    }

    /// The path and query of the REST request for `arguments`: each path parameter in its
    /// place, percent-encoded, every other argument in the query string.
    pub fn path_and_query(&self, arguments: &JsonObject) -> Result<String, ErrorData> {
        let mut url = Url::parse("http://marketlens.invalid").expect("a valid URL");
        let mut path_parameters = Vec::new();
        {
            let mut segments = url.path_segments_mut().expect("an http URL has a path");
            segments.clear();
            for segment in self.path.trim_start_matches('/').split('/') {
                match segment.strip_prefix('{').and_then(|rest| rest.strip_suffix('}')) {
                    Some(parameter) => {
                        let value = arguments.get(parameter).map(argument_text).transpose()?.flatten();
                        let value = value.ok_or_else(|| {
                            ErrorData::invalid_params(format!("The argument {parameter:?} is required."), None)
                        })?;
                        segments.push(&value);
                        path_parameters.push(parameter);
                    }
                    None => {
                        segments.push(segment);
                    }
                }
            }
        }
        let mut query = Vec::new();
        for (name, value) in arguments {
            if !path_parameters.contains(&name.as_str())
                && let Some(text) = argument_text(value)?
            {
                query.push((name, text));
            }
        }
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        Ok(url[Position::BeforePath..].to_owned())
    }
}

/// An argument as a parameter's text; `null` counts as absent. Anything but a string, a
/// number or a boolean is refused, as no parameter takes one.
fn argument_text(value: &Value) -> Result<Option<String>, ErrorData> {
    match value {
        Value::Null => Ok(None),
        Value::String(text) => Ok(Some(text.clone())),
        Value::Number(number) => Ok(Some(number.to_string())),
        Value::Bool(flag) => Ok(Some(flag.to_string())),
        Value::Array(_) | Value::Object(_) => Err(ErrorData::invalid_params(
            "Each argument is a string, a number or a boolean.",
            None,
        )),
    }
}

/// The JSON Schema of an operation's parameters as one object of arguments, each parameter's
/// schema (a named component inlined) with the parameter's description. Header parameters
/// (`Idempotency-Key`) are not arguments: a tool call is one call, which its client retries
/// through MCP, not through HTTP.
fn input_schema(document: &Value, operation: &Value) -> JsonObject {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for parameter in operation["parameters"].as_array().into_iter().flatten() {
        if parameter["in"] == "header" {
            continue;
        }
        let name = parameter["name"].as_str().expect("a parameter has a name");
        let schema = &parameter["schema"];
        let mut schema = match schema["$ref"].as_str() {
            Some(reference) => {
                let component = reference.strip_prefix(COMPONENT_PREFIX).unwrap_or(reference);
                document["components"]["schemas"][component].clone()
            }
            None => schema.clone(),
        };
        let Value::Object(schema) = &mut schema else {
            panic!("the OpenAPI document has no schema of the parameter {name}");
        };
        schema.insert("description".to_owned(), parameter["description"].clone());
        properties.insert(name.to_owned(), Value::Object(schema.clone()));
        if parameter["required"] == true {
            required.push(name);
        }
    }
    let mut input_schema = json!({ "type": "object", "properties": properties, "additionalProperties": false });
    if !required.is_empty() {
        input_schema["required"] = json!(required);
    }
    match input_schema {
        Value::Object(object) => object,
        _ => unreachable!("built as an object"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Tools {
        Tools::from_document(crate::openapi::document_value())
    }

    fn arguments(value: Value) -> JsonObject {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn every_tool_has_its_operations_parameters() {
        let tools = tools();
        assert_eq!(tools.list().len(), TOOLS.len());
        let search = &tools.get("search_markets").unwrap().tool;
        let properties = search.input_schema["properties"].as_object().unwrap();
        assert_eq!(properties["exchange"]["enum"], json!(["POLYMARKET", "KALSHI"]));
        assert_eq!(properties["limit"]["maximum"], json!(200));
        assert!(properties["search"]["description"].as_str().unwrap().contains("words"));
        assert!(search.description.as_deref().unwrap().contains("(1 credit)"));
        assert!(
            !properties.contains_key("Idempotency-Key"),
            "a header parameter is not a tool argument"
        );
        let explain = &tools.get("explain").unwrap().tool;
        assert_eq!(explain.input_schema["required"], json!(["query"]));
        assert!(explain.description.as_deref().unwrap().contains("(5 credits)"));
    }

    #[test]
    fn arguments_become_the_path_and_query() {
        let tools = tools();
        let history = tools.get("market_history").unwrap();
        let path = history
            .path_and_query(&arguments(
                json!({ "id": "a b/c", "interval": "1d", "limit": 5, "to": null }),
            ))
            .unwrap();
        assert_eq!(path, "/api/v1/markets/a%20b%2Fc/history?interval=1d&limit=5");
        let account = tools.get("get_account").unwrap();
        assert_eq!(account.path_and_query(&JsonObject::new()).unwrap(), "/api/v1/account");
        let search = tools.get("search_markets").unwrap();
        assert_eq!(
            search
                .path_and_query(&arguments(json!({ "search": "fed & rates" })))
                .unwrap(),
            "/api/v1/markets?search=fed+%26+rates"
        );
    }

    #[test]
    fn a_missing_path_argument_or_a_structured_one_is_refused() {
        let tools = tools();
        assert!(
            tools
                .get("get_market")
                .unwrap()
                .path_and_query(&JsonObject::new())
                .is_err()
        );
        let search = tools.get("search_markets").unwrap();
        assert!(search.path_and_query(&arguments(json!({ "search": ["a"] }))).is_err());
    }
}
