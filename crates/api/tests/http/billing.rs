use marketlens_domain::account::LedgerKind;
use reqwest::Method;

use crate::{TestServer, assert_error, json_of, seed};

#[tokio::test]
async fn each_call_costs_its_price_and_errors_cost_nothing() {
    let server = TestServer::start().await;
    let (account, key) = server.account("enterprise", 100).await;
    let (left, _) = seed::matched_pair();
    let event = marketlens_domain::ids::event_id(marketlens_domain::Exchange::Kalshi, "KXNEWPOPE-70");
    let calls = [
        ("/api/v1/markets".to_owned(), 200, 1),
        (format!("/api/v1/markets/{left}"), 200, 1),
        ("/api/v1/events".to_owned(), 200, 1),
        (format!("/api/v1/events/{event}"), 200, 1),
        ("/api/v1/explain?query=bitcoin".to_owned(), 200, 5),
        ("/api/v1/account".to_owned(), 200, 0),
        (format!("/api/v1/markets/{}", uuid::Uuid::new_v4()), 404, 0),
        ("/api/v1/events?limit=1000".to_owned(), 400, 0),
        ("/api/v1/explain?query=qqqzzzxxx".to_owned(), 404, 0),
    ];
    let mut expected_remaining = 100;
    for (path, status, cost) in calls {
        let (actual, body) = server.get(&path, &key).await;
        assert_eq!(actual, status, "{path}: {body}");
        expected_remaining -= cost;
        assert_eq!(server.remaining_credits(account.id).await, expected_remaining, "{path}");
    }
    let ledger = server.store.ledger(account.id, None, 1000).await.unwrap();
    let charges: Vec<_> = ledger.iter().filter(|entry| entry.kind == LedgerKind::Charge).collect();
    assert_eq!(charges.len(), 5, "five successful charged calls; errors write nothing");
    assert!(
        charges
            .iter()
            .all(|entry| entry.request_id.as_deref().is_some_and(|id| !id.is_empty()))
    );
}

#[tokio::test]
async fn charged_responses_say_what_they_cost_and_what_remains() {
    let server = TestServer::start().await;
    let (_, key) = server.account("enterprise", 100).await;
    let response = server
        .request(Method::GET, "/api/v1/explain?query=bitcoin", Some(&key))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["x-credits-used"], "5");
    assert_eq!(response.headers()["x-credits-remaining"], "95");
    let response = server
        .request(Method::GET, "/api/v1/markets?limit=1000", Some(&key))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    assert!(
        response.headers().get("x-credits-used").is_none(),
        "errors are not charged"
    );
}

#[tokio::test]
async fn insufficient_credits_is_402_with_the_figures() {
    let server = TestServer::start().await;
    let (account, key) = server.account("free", 3).await;
    let (status, body) = server.get("/api/v1/explain?query=bitcoin", &key).await;
    let error = assert_error(status, &body, 402, "INSUFFICIENT_CREDITS");
    assert_eq!(error["details"], serde_json::json!({ "required": 5, "remaining": 3 }));
    assert_eq!(error["message"], "This call costs 5 credits; 3 remain.");
    // Parameters are checked before credits.
    let (status, body) = server.get("/api/v1/explain", &key).await;
    assert_error(status, &body, 400, "MISSING_QUERY");
    assert_eq!(server.remaining_credits(account.id).await, 3);
    for _ in 0..3 {
        assert_eq!(server.get("/api/v1/markets?limit=1", &key).await.0, 200);
    }
    let (status, body) = server.get("/api/v1/markets?limit=1", &key).await;
    assert_error(status, &body, 402, "INSUFFICIENT_CREDITS");
    assert_eq!(
        server.get("/api/v1/account", &key).await.0,
        200,
        "the free call still works at zero"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_spending_never_overspends_or_double_charges() {
    let server = TestServer::start().await;
    let credits = 23;
    let (account, key) = server.account("enterprise", credits).await;
    let paths = [
        "/api/v1/markets?limit=5",
        "/api/v1/events",
        "/api/v1/markets?search=bitcoin",
    ];
    let requests = (0..90).map(|index| {
        let request = server.request(Method::GET, paths[index % paths.len()], Some(&key));
        async move { json_of(request.send().await.unwrap()).await }
    });
    let results = futures::future::join_all(requests).await;
    let succeeded = results.iter().filter(|(status, _)| *status == 200).count();
    for (status, body) in &results {
        if *status != 200 {
            assert_error(*status, body, 402, "INSUFFICIENT_CREDITS");
        }
    }
    assert_eq!(
        succeeded as i64, credits,
        "exactly as many calls succeed as there were credits"
    );
    let after = server.store.get_account(account.id).await.unwrap().unwrap();
    assert_eq!(
        (after.credits_remaining, after.credits_used, after.credits_purchased),
        (0, credits, credits)
    );
    let totals = server.store.ledger_totals(account.id).await.unwrap();
    assert_eq!((totals.charged, totals.credited), (credits, credits));
    assert_eq!(
        totals.lines,
        credits as u64 + 1,
        "one line per charged call, and the credit"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_explains_on_one_account_charge_whole_calls_only() {
    let server = TestServer::start().await;
    let (account, key) = server.account("enterprise", 12).await;
    let requests = (0..10).map(|_| {
        let request = server
            .request(Method::POST, "/api/v1/explain", Some(&key))
            .header("content-type", "application/json")
            .body(r#"{"query":"bitcoin 100k"}"#);
        async move { json_of(request.send().await.unwrap()).await.0 }
    });
    let statuses = futures::future::join_all(requests).await;
    assert_eq!(statuses.iter().filter(|&&status| status == 200).count(), 2);
    assert_eq!(statuses.iter().filter(|&&status| status == 402).count(), 8);
    assert_eq!(server.remaining_credits(account.id).await, 2);
}
