//! The error contract on paths and methods outside the resources, and request ids.

use reqwest::Method;

use crate::{TestServer, assert_error, json_of};

#[tokio::test]
async fn unknown_paths_and_wrong_methods() {
    let server = TestServer::start().await;
    let key = server.key().await;
    // `/` leads to `/docs` (reference.rs).
    for path in ["/api/v1/nothing", "/api/v2/markets", "/api/v1/markets/a/b"] {
        let (status, body) = json_of(server.request(Method::GET, path, Some(&key)).send().await.unwrap()).await;
        assert_error(status, &body, 404, "NOT_FOUND");
    }
    for (method, path) in [
        (Method::DELETE, "/api/v1/markets"),
        (Method::POST, "/api/v1/account"),
        (Method::PUT, "/api/v1/explain"),
    ] {
        let (status, body) = json_of(server.request(method, path, Some(&key)).send().await.unwrap()).await;
        assert_error(status, &body, 405, "METHOD_NOT_ALLOWED");
    }
}

#[tokio::test]
async fn the_error_body_lists_its_fields_in_the_contract_order() {
    let server = TestServer::start().await;
    let text = server
        .request(Method::GET, "/api/v1/markets", None)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        text.starts_with(r#"{"success":false,"error":{"code":"MISSING_API_KEY","message":"#),
        "{text}"
    );
    assert!(text.contains(r#"},"requestId":""#), "{text}");
}

#[tokio::test]
async fn bodies_over_16_kib_are_refused_on_every_path() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let response = server
        .request(Method::GET, "/api/v1/markets", Some(&key))
        .body(vec![b'x'; 16 * 1024 + 1])
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(response).await;
    assert_error(status, &body, 413, "PAYLOAD_TOO_LARGE");
}

#[tokio::test]
async fn every_response_carries_a_request_id_echoing_sane_client_ids() {
    let server = TestServer::start().await;
    let key = server.key().await;
    let response = server
        .request(Method::GET, "/api/v1/markets?limit=1", Some(&key))
        .header("x-request-id", "client-trace-42")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "client-trace-42");

    let response = server
        .request(Method::GET, "/api/v1/markets", None)
        .header("x-request-id", "bad id\twith tab")
        .send()
        .await
        .unwrap();
    let generated = response.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert!(
        generated.parse::<uuid::Uuid>().is_ok(),
        "an insane id is replaced: {generated}"
    );
    let (_, body) = json_of(response).await;
    assert_eq!(
        body["requestId"],
        generated.as_str(),
        "the error body names the same id"
    );

    for path in ["/healthz", "/readyz", "/nowhere"] {
        let response = server.request(Method::GET, path, None).send().await.unwrap();
        assert!(response.headers().contains_key("x-request-id"), "{path}");
    }
}

#[tokio::test]
async fn health_and_readiness_need_no_key() {
    let server = TestServer::start().await;
    let (status, body) = json_of(server.request(Method::GET, "/healthz", None).send().await.unwrap()).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("ok")));
    let (status, body) = json_of(server.request(Method::GET, "/readyz", None).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "ready");
    assert_eq!(body["matchedPairs"], 1);
}
