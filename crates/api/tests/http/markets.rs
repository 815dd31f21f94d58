use serde_json::Value;
use std::collections::BTreeSet;

use crate::seed::{self, SPECS};
use crate::{TestServer, assert_error};

fn keys_of(item: &Value) -> BTreeSet<String> {
    item.as_object().unwrap().keys().cloned().collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|name| name.to_string()).collect()
}

const LIST_FIELDS: &[&str] = &[
    "id",
    "exchangeId",
    "externalMarketId",
    "question",
    "status",
    "category",
    "liquidity",
    "volume",
    "volume24h",
    "createdAt",
];

#[tokio::test]
async fn list_defaults_fields_and_presence_rules() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let (status, body) = server.get("/api/v1/markets", &key).await;
    assert_eq!(status, 200, "{body}");
    let pagination = &body["pagination"];
    assert_eq!(pagination["total"], SPECS.len());
    assert_eq!(pagination["limit"], 50);
    assert_eq!(pagination["offset"], 0);
    assert_eq!(pagination["hasMore"], false);
    let items = body["data"].as_array().unwrap();
    assert_eq!(items.len(), SPECS.len());
    for item in items {
        assert_eq!(
            keys_of(item),
            set(LIST_FIELDS),
            "list items lack outcomes and get-only fields: {item}"
        );
        assert!(item["id"].as_str().unwrap().parse::<uuid::Uuid>().is_ok());
        assert!(["POLYMARKET", "KALSHI"].contains(&item["exchangeId"].as_str().unwrap()));
        assert!(["OPEN", "RESOLVED", "CLOSED"].contains(&item["status"].as_str().unwrap()));
        for number in ["liquidity", "volume", "volume24h"] {
            assert!(item[number].is_number(), "{number} is a number");
        }
        assert!(chrono::DateTime::parse_from_rfc3339(item["createdAt"].as_str().unwrap()).is_ok());
    }
    // Default order: volume24h descending, ties by id descending.
    let order: Vec<(f64, String)> = items
        .iter()
        .map(|item| {
            (
                item["volume24h"].as_f64().unwrap(),
                item["id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let mut expected = order.clone();
    expected.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
    assert_eq!(order, expected);
}

#[tokio::test]
async fn include_outcomes_adds_outcomes_without_ids() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let (_, body) = server
        .get(
            "/api/v1/markets?include=outcomes&search=bitcoin%20100k&exchange=POLYMARKET",
            &key,
        )
        .await;
    let item = &body["data"][0];
    assert_eq!(item["externalMarketId"], "501");
    let outcomes = item["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 2);
    assert_eq!(
        outcomes[0],
        serde_json::json!({ "name": "Yes", "price": 0.42, "bestBidPrice": 0.41 })
    );
    assert_eq!(outcomes[1], serde_json::json!({ "name": "No", "price": 0.58 }));
}

#[tokio::test]
async fn every_sort_key_in_both_orders_is_deterministic() {
    let server = TestServer::start().await;
    let key = server.key().await;
    for (sort, field) in [
        ("volume", "volume"),
        ("volume24h", "volume24h"),
        ("liquidity", "liquidity"),
        ("createdAt", "createdAt"),
    ] {
        for order in ["asc", "desc"] {
            let (status, body) = server
                .get(&format!("/api/v1/markets?sortBy={sort}&sortOrder={order}"), &key)
                .await;
            assert_eq!(status, 200);
            let rows: Vec<(String, String)> = body["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|item| {
                    let value = match &item[field] {
                        Value::Number(number) => format!("{:020.4}", number.as_f64().unwrap()),
                        other => other.as_str().unwrap().to_owned(),
                    };
                    (value, item["id"].as_str().unwrap().to_owned())
                })
                .collect();
            let mut expected = rows.clone();
            expected.sort();
            if order == "desc" {
                expected.reverse();
            }
            assert_eq!(rows, expected, "sortBy={sort}&sortOrder={order}");
        }
    }
}

#[tokio::test]
async fn filters_match_case_insensitively_and_answer_canonically() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let cases = [
        (
            "exchange=kalshi",
            SPECS.iter().filter(|spec| spec.exchange.as_str() == "KALSHI").count(),
        ),
        ("status=resolved", 2),
        ("category=CULTURE", 3),
        ("category=climate%20%26%20weather", 1),
        ("exchange=Polymarket&status=OPEN&category=crypto", 1),
        ("search=bitcoin", 3),
        ("search=BITCOIN%20150", 1),
        ("search=pokemon", 1),
        ("search=Pok%C3%A9", 1),
        ("search=pope%20tagle", 1),
        ("search=nothingmatchesthis", 0),
        // One token also names a market by its exchange id (any case) or URL slug (D6 departure).
        ("search=kxbtc-26dec31-t100000", 1),
        ("search=501", 1),
        ("search=MARKET-501", 1),
        ("search=KXBTC-26DEC31", 0),
    ];
    for (query, expected) in cases {
        let (status, body) = server.get(&format!("/api/v1/markets?{query}"), &key).await;
        assert_eq!(status, 200, "{query}: {body}");
        assert_eq!(body["pagination"]["total"], expected, "{query}");
        assert_eq!(body["data"].as_array().unwrap().len(), expected, "{query}");
    }
    let (_, body) = server
        .get("/api/v1/markets?exchange=kalshi&category=sports", &key)
        .await;
    assert_eq!(body["data"][0]["exchangeId"], "KALSHI");
    assert_eq!(body["data"][0]["category"], "Sports");
}

#[tokio::test]
async fn pages_concatenate_to_the_whole_list_without_overlap() {
    let server = TestServer::start().await;
    let key = server.key().await;
    for sort in ["volume24h", "createdAt"] {
        let (_, whole) = server
            .get(&format!("/api/v1/markets?sortBy={sort}&limit=200"), &key)
            .await;
        let whole: Vec<Value> = whole["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item["id"].clone())
            .collect();
        let mut paged = Vec::new();
        let mut offset = 0;
        loop {
            let (_, page) = server
                .get(&format!("/api/v1/markets?sortBy={sort}&limit=3&offset={offset}"), &key)
                .await;
            let items = page["data"].as_array().unwrap();
            paged.extend(items.iter().map(|item| item["id"].clone()));
            let has_more = page["pagination"]["hasMore"].as_bool().unwrap();
            assert_eq!(
                has_more,
                offset + items.len() < SPECS.len(),
                "hasMore at offset {offset}"
            );
            if !has_more {
                break;
            }
            offset += 3;
        }
        assert_eq!(paged, whole, "{sort}");
    }
    let (status, past_end) = server.get("/api/v1/markets?offset=500", &key).await;
    assert_eq!(status, 200);
    assert_eq!(past_end["data"], serde_json::json!([]));
    assert_eq!(past_end["pagination"]["hasMore"], false);
    assert_eq!(past_end["pagination"]["total"], SPECS.len());
}

#[tokio::test]
async fn list_parameter_errors_name_the_parameter() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let cases = [
        ("limit=201", "limit"),
        ("limit=0", "limit"),
        ("limit=abc", "limit"),
        ("offset=-1", "offset"),
        ("exchange=NYSE", "exchange"),
        ("status=PENDING", "status"),
        ("category=Elections", "category"),
        ("sortBy=price", "sortBy"),
        ("sortOrder=sideways", "sortOrder"),
        ("include=matches", "include"),
        ("colour=blue", "colour"),
        ("limit=1&limit=2", "limit"),
    ];
    for (query, parameter) in cases {
        let (status, body) = server.get(&format!("/api/v1/markets?{query}"), &key).await;
        let error = assert_error(status, &body, 400, "INVALID_PARAMETER");
        assert_eq!(error["details"]["parameter"], parameter, "{query}: {body}");
    }
    let (status, body) = server.get("/api/v1/markets?limit=500", &key).await;
    let error = assert_error(status, &body, 400, "INVALID_PARAMETER");
    assert!(
        error["message"].as_str().unwrap().contains("200"),
        "the message states the maximum: {body}"
    );
    assert_eq!(error["details"]["maximum"], 200);
    let (status, body) = server.get("/api/v1/markets?sortBy=price", &key).await;
    let error = assert_error(status, &body, 400, "INVALID_PARAMETER");
    assert_eq!(
        error["details"]["allowed"],
        serde_json::json!(["volume", "volume24h", "liquidity", "createdAt"])
    );
}

#[tokio::test]
async fn get_returns_every_field_with_outcome_ids_and_matches() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let (left, right) = seed::matched_pair();
    let (status, body) = server.get(&format!("/api/v1/markets/{left}"), &key).await;
    assert_eq!(status, 200, "{body}");
    let market = &body["data"];
    let mut expected_fields = set(LIST_FIELDS);
    expected_fields.extend(set(&[
        "description",
        "startDate",
        "endDate",
        "updatedAt",
        "outcomes",
        "matchedMarkets",
        "lastSyncedAt",
        "eventId",
        "url",
        "rules",
        "resolution",
    ]));
    assert_eq!(keys_of(market), expected_fields);
    assert_eq!(market["externalMarketId"], "501");
    assert_eq!(
        market["eventId"],
        marketlens_domain::ids::event_id(marketlens_domain::Exchange::Polymarket, "9001").to_string()
    );
    assert_eq!(market["url"], "https://polymarket.com/market/market-501");
    assert_eq!(
        market["rules"],
        serde_json::json!({
            "primary": "Resolves Yes if: Will Bitcoin reach $100k by December 31, 2026?",
            "secondary": null,
            "source": null
        })
    );
    assert_eq!(market["resolution"], Value::Null, "an open market");
    // No sync has run: the seed's write is the latest confirmation.
    assert_eq!(
        market["lastSyncedAt"],
        marketlens_domain::time::to_iso8601(seed::at(400))
    );
    assert_eq!(
        market["description"],
        "Resolves Yes if: Will Bitcoin reach $100k by December 31, 2026?"
    );
    assert_eq!(market["startDate"], "2026-01-02T00:00:00.000Z");
    assert_eq!(market["endDate"], "2027-01-02T00:00:00.000Z");
    assert_eq!(market["createdAt"], "2026-01-02T00:00:00.000Z");
    assert_eq!(market["updatedAt"], "2026-01-03T00:00:00.000Z");
    let outcomes = market["outcomes"].as_array().unwrap();
    assert!(
        outcomes
            .iter()
            .all(|outcome| outcome["id"].as_str().unwrap().parse::<uuid::Uuid>().is_ok())
    );
    assert_ne!(outcomes[0]["id"], outcomes[1]["id"]);
    let matched = &market["matchedMarkets"];
    assert_eq!(matched.as_array().unwrap().len(), 1, "{matched}");
    assert_eq!(matched[0]["id"], right.to_string());
    assert_eq!(matched[0]["exchangeId"], "KALSHI");
    assert_eq!(
        matched[0]["question"],
        "Will Bitcoin be above $100k on December 31, 2026?"
    );
    assert_eq!(matched[0]["similarity"], 0.912);
    // The reason is the matcher's reading now, field by field: this seeded pair is a reading
    // on a day against a deadline, which it says.
    let reason = matched[0]["reason"].as_str().unwrap();
    assert!(reason.starts_with("same subject (bitcoin)"), "{reason}");
    assert!(reason.contains("date differs"), "{reason}");
    // Symmetric: the other side lists this one.
    let (_, other) = server.get(&format!("/api/v1/markets/{right}"), &key).await;
    assert_eq!(other["data"]["matchedMarkets"][0]["id"], left.to_string());
    // A market with no end date gives null.
    let pokemon = seed::market(&SPECS[4]).id();
    let (_, undated) = server.get(&format!("/api/v1/markets/{pokemon}"), &key).await;
    assert_eq!(undated["data"]["endDate"], Value::Null);
    assert_eq!(undated["data"]["matchedMarkets"], serde_json::json!([]));
    assert_eq!(undated["data"]["eventId"], Value::Null, "a market of no event");
}

#[tokio::test]
async fn get_unknown_or_malformed_ids_are_not_found() {
    let server = TestServer::start().await;
    let key = server.key().await;
    for id in ["00000000-0000-0000-0000-000000000000", "not-a-uuid", "501", "%20"] {
        let (status, body) = server.get(&format!("/api/v1/markets/{id}"), &key).await;
        assert_error(status, &body, 404, "NOT_FOUND");
    }
    let (left, _) = seed::matched_pair();
    let (status, body) = server
        .get(&format!("/api/v1/markets/{left}?include=outcomes"), &key)
        .await;
    assert_error(status, &body, 400, "INVALID_PARAMETER");
}

#[tokio::test]
async fn external_market_id_finds_the_exchange_s_own_market() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let ids = |body: &serde_json::Value| -> Vec<String> {
        body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|market| market["externalMarketId"].as_str().unwrap().to_owned())
            .collect()
    };
    for (query, expected) in [
        ("externalMarketId=KXBTC-26DEC31-T100000", vec!["KXBTC-26DEC31-T100000"]),
        ("externalMarketId=501&include=outcomes", vec!["501"]),
        ("externalMarketId=501&exchange=KALSHI", vec![]),
        ("externalMarketId=501&search=bitcoin", vec!["501"]),
        ("externalMarketId=501&search=pokemon", vec![]),
        ("externalMarketId=kxbtc-26dec31-t100000", vec![]),
        ("externalMarketId=nope", vec![]),
    ] {
        let (status, body) = server.get(&format!("/api/v1/markets?{query}"), &key).await;
        assert_eq!(status, 200, "{query}: {body}");
        assert_eq!(ids(&body), expected, "{query}");
        assert_eq!(body["pagination"]["total"], expected.len(), "{query}");
    }
}
