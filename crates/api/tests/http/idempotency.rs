//! Idempotency keys: a charged call with an `Idempotency-Key` runs and is charged once; its
//! repeats get the kept answer, uncharged, on any node and after a restart.

use chrono::Utc;
use marketlens_api::ApiSettings;
use marketlens_domain::account::LedgerKind;
use marketlens_storage::{IdempotencyClaim, NewClaim};
use reqwest::{Method, RequestBuilder};
use std::time::Duration;
use uuid::Uuid;

use crate::{TestServer, assert_error, json_of};

/// What a test compares of an answer.
#[derive(Debug)]
struct Answer {
    status: u16,
    body: String,
    replayed: bool,
    credits_used: Option<String>,
    credits_remaining: Option<String>,
    rate_limit_remaining: Option<i64>,
    content_type: Option<String>,
}

async fn send(request: RequestBuilder) -> Answer {
    let response = request.send().await.unwrap();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|value| value.to_str().unwrap().to_owned())
    };
    let replayed = match header("idempotent-replayed").as_deref() {
        None => false,
        Some("true") => true,
        Some(other) => panic!("Idempotent-Replayed: {other}"),
    };
    Answer {
        status: response.status().as_u16(),
        replayed,
        credits_used: header("x-credits-used"),
        credits_remaining: header("x-credits-remaining"),
        rate_limit_remaining: header("x-ratelimit-remaining").map(|value| value.parse().unwrap()),
        content_type: header("content-type"),
        body: response.text().await.unwrap(),
    }
}

fn with_key(request: RequestBuilder, key: &str) -> RequestBuilder {
    request.header("Idempotency-Key", key)
}

/// The charge lines of the account's ledger.
async fn charges(server: &TestServer, account_id: Uuid) -> usize {
    let ledger = server.store.ledger(account_id, None, 1000).await.unwrap();
    ledger.iter().filter(|entry| entry.kind == LedgerKind::Charge).count()
}

#[tokio::test]
async fn a_repeat_gets_the_kept_answer_uncharged() {
    let server = TestServer::start().await;
    crate::stay_within_one_minute().await;
    let (account, key) = server.account("enterprise", 100).await;
    let explain = || {
        with_key(
            server.request(Method::GET, "/api/v1/explain?query=bitcoin", Some(&key)),
            "order-7f3a",
        )
    };
    let first = send(explain()).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert!(!first.replayed);
    assert_eq!(first.credits_used.as_deref(), Some("5"));
    assert_eq!(first.credits_remaining.as_deref(), Some("95"));
    // The explanation's processing time and timestamp differ between two runs: an identical
    // body is the kept one.
    tokio::time::sleep(Duration::from_millis(5)).await;
    let repeat = send(explain()).await;
    assert_eq!(repeat.status, 200);
    assert!(repeat.replayed);
    assert_eq!(repeat.body, first.body);
    assert_eq!(repeat.content_type, first.content_type);
    assert_eq!(repeat.credits_used.as_deref(), Some("5"), "as the kept answer said");
    assert_eq!(repeat.credits_remaining.as_deref(), Some("95"));
    // A repeat is a request: the rate limit counts it.
    assert_eq!(
        repeat.rate_limit_remaining,
        first.rate_limit_remaining.map(|remaining| remaining - 1)
    );
    assert_eq!(server.remaining_credits(account.id).await, 95);
    assert_eq!(charges(&server, account.id).await, 1);

    // Without the key, the same call runs and is charged as before.
    let unkeyed = send(server.request(Method::GET, "/api/v1/explain?query=bitcoin", Some(&key))).await;
    assert!(!unkeyed.replayed);
    assert_eq!(server.remaining_credits(account.id).await, 90);

    // The same parameters in another order, or the same JSON laid out otherwise, are the same request.
    let list = |query: &str| {
        with_key(
            server.request(Method::GET, &format!("/api/v1/markets?{query}"), Some(&key)),
            "list-1",
        )
    };
    let first = send(list("limit=2&offset=1")).await;
    let repeat = send(list("offset=1&limit=2")).await;
    assert_eq!((first.status, first.replayed), (200, false));
    assert_eq!((repeat.status, repeat.replayed), (200, true));
    assert_eq!(repeat.body, first.body);
    let post = |body: &'static str| {
        with_key(
            server
                .request(Method::POST, "/api/v1/explain", Some(&key))
                .header("content-type", "application/json")
                .body(body),
            "post-1",
        )
    };
    let first = send(post(r#"{"query":"bitcoin"}"#)).await;
    let repeat = send(post("{ \"query\" : \"bitcoin\" }\n")).await;
    assert_eq!((first.status, first.replayed), (200, false));
    assert_eq!((repeat.status, repeat.replayed), (200, true));
    assert_eq!(repeat.body, first.body);
    assert_eq!(server.remaining_credits(account.id).await, 100 - 5 - 5 - 1 - 5);
    assert_eq!(charges(&server, account.id).await, 4);
}

#[tokio::test]
async fn the_same_key_with_another_request_is_422_and_uncharged() {
    let server = TestServer::start().await;
    let (account, key) = server.account("enterprise", 100).await;
    let first = send(with_key(
        server.request(Method::GET, "/api/v1/markets?limit=1", Some(&key)),
        "k",
    ))
    .await;
    assert_eq!(first.status, 200);
    for (method, path) in [
        (Method::GET, "/api/v1/markets?limit=2"),
        (Method::GET, "/api/v1/markets?limit=1&offset=0"),
        (Method::GET, "/api/v1/events?limit=1"),
        (Method::POST, "/api/v1/explain"),
    ] {
        let request = server
            .request(method.clone(), path, Some(&key))
            .header("content-type", "application/json")
            .body(if method == Method::POST {
                r#"{"query":"bitcoin"}"#
            } else {
                ""
            });
        let (status, body) = json_of(with_key(request, "k").send().await.unwrap()).await;
        assert_error(status, &body, 422, "IDEMPOTENCY_KEY_REUSED");
    }
    assert_eq!(server.remaining_credits(account.id).await, 99);
    assert_eq!(charges(&server, account.id).await, 1);
}

#[tokio::test]
async fn twenty_concurrent_repeats_of_one_explain_cost_five_credits() {
    let server = TestServer::start().await;
    let (account, key) = server.account("enterprise", 100).await;
    let calls = (0..20).map(|_| {
        send(with_key(
            server.request(Method::GET, "/api/v1/explain?query=bitcoin", Some(&key)),
            "burst",
        ))
    });
    let answers = futures::future::join_all(calls).await;
    assert!(answers.iter().all(|answer| answer.status == 200), "{answers:?}");
    assert!(answers.iter().all(|answer| answer.body == answers[0].body));
    assert_eq!(answers.iter().filter(|answer| !answer.replayed).count(), 1);
    assert!(
        answers
            .iter()
            .all(|answer| answer.credits_remaining.as_deref() == Some("95"))
    );
    assert_eq!(server.remaining_credits(account.id).await, 95);
    assert_eq!(charges(&server, account.id).await, 1);
}

#[tokio::test]
async fn concurrent_repeats_across_two_nodes_run_once() {
    let server = TestServer::start().await;
    let other = server.another_node(ApiSettings::default()).await;
    let (account, key) = server.account("enterprise", 100).await;
    let calls = (0..20).map(|index| {
        let base_url = if index % 2 == 0 {
            &server.base_url
        } else {
            &other.base_url
        };
        let request = server
            .client
            .get(format!("{base_url}/api/v1/explain?query=bitcoin"))
            .bearer_auth(key.as_str());
        send(with_key(request, "two-nodes"))
    });
    let answers = futures::future::join_all(calls).await;
    assert!(answers.iter().all(|answer| answer.status == 200), "{answers:?}");
    assert!(answers.iter().all(|answer| answer.body == answers[0].body));
    assert_eq!(answers.iter().filter(|answer| !answer.replayed).count(), 1);
    assert_eq!(server.remaining_credits(account.id).await, 95);
    assert_eq!(charges(&server, account.id).await, 1);
}

#[tokio::test]
async fn a_key_of_another_account_is_its_own() {
    let server = TestServer::start().await;
    let (first_account, first_key) = server.account("enterprise", 100).await;
    let (second_account, second_key) = server.account("enterprise", 100).await;
    for key in [&first_key, &second_key] {
        let answer = send(with_key(
            server.request(Method::GET, "/api/v1/explain?query=bitcoin", Some(key)),
            "shared-name",
        ))
        .await;
        assert_eq!((answer.status, answer.replayed), (200, false));
    }
    assert_eq!(server.remaining_credits(first_account.id).await, 95);
    assert_eq!(server.remaining_credits(second_account.id).await, 95);
}

#[tokio::test]
async fn an_error_is_not_kept_and_a_retry_runs() {
    let server = TestServer::start().await;
    let (account, key) = server.account("enterprise", 3).await;
    let explain = || {
        with_key(
            server.request(Method::GET, "/api/v1/explain?query=bitcoin", Some(&key)),
            "buy-then-retry",
        )
    };
    let (status, body) = json_of(explain().send().await.unwrap()).await;
    assert_error(status, &body, 402, "INSUFFICIENT_CREDITS");
    server.store.add_credits(account.id, 10, Utc::now()).await.unwrap();
    let retry = send(explain()).await;
    assert_eq!((retry.status, retry.replayed), (200, false), "{}", retry.body);
    assert_eq!(server.remaining_credits(account.id).await, 8);

    // A 404 is not kept either: the retry runs (and fails again), and the key is free for
    // another request.
    let missing = format!("/api/v1/markets/{}", Uuid::new_v4());
    for _ in 0..2 {
        let answer = send(with_key(server.request(Method::GET, &missing, Some(&key)), "not-found")).await;
        assert_eq!((answer.status, answer.replayed), (404, false));
    }
    let answer = send(with_key(
        server.request(Method::GET, "/api/v1/markets?limit=1", Some(&key)),
        "not-found",
    ))
    .await;
    assert_eq!((answer.status, answer.replayed), (200, false));
    assert_eq!(server.remaining_credits(account.id).await, 7);
    assert_eq!(charges(&server, account.id).await, 2);
}

#[tokio::test]
async fn invalid_keys_are_400_and_uncharged_routes_ignore_the_header() {
    let server = TestServer::start().await;
    let (account, key) = server.account("enterprise", 100).await;
    let too_long = "k".repeat(256);
    let longest = "k".repeat(255);
    let cases: [&[u8]; 4] = [b"", too_long.as_bytes(), b"tab\there", b"caf\xc3\xa9"];
    for case in cases {
        let request = server
            .request(Method::GET, "/api/v1/markets?limit=1", Some(&key))
            .header(
                "Idempotency-Key",
                reqwest::header::HeaderValue::from_bytes(case).unwrap(),
            );
        let (status, body) = json_of(request.send().await.unwrap()).await;
        let error = assert_error(status, &body, 400, "INVALID_PARAMETER");
        assert_eq!(error["details"]["parameter"], "Idempotency-Key", "{case:?}");
    }
    let twice = server
        .request(Method::GET, "/api/v1/markets?limit=1", Some(&key))
        .header("Idempotency-Key", "a")
        .header("Idempotency-Key", "b");
    let (status, body) = json_of(twice.send().await.unwrap()).await;
    assert_error(status, &body, 400, "INVALID_PARAMETER");
    assert_eq!(server.remaining_credits(account.id).await, 100);

    let answer = send(with_key(
        server.request(Method::GET, "/api/v1/markets?limit=1", Some(&key)),
        &longest,
    ))
    .await;
    assert_eq!(answer.status, 200, "255 characters is a key");
    for path in ["/api/v1/account", "/healthz", "/api/v1/openapi.json"] {
        for _ in 0..2 {
            let answer = send(with_key(server.request(Method::GET, path, Some(&key)), "")).await;
            assert_eq!((answer.status, answer.replayed), (200, false), "{path}");
        }
    }
}

#[tokio::test]
async fn a_kept_answer_survives_a_restart() {
    let server = TestServer::start().await;
    let (account, key) = server.account("enterprise", 100).await;
    let first = send(with_key(
        server.request(Method::GET, "/api/v1/explain?query=bitcoin", Some(&key)),
        "across-restarts",
    ))
    .await;
    assert_eq!(first.status, 200);
    let restarted = server.another_node(ApiSettings::default()).await;
    let repeat = send(with_key(
        server
            .client
            .get(format!("{}/api/v1/explain?query=bitcoin", restarted.base_url))
            .bearer_auth(key.as_str()),
        "across-restarts",
    ))
    .await;
    assert_eq!((repeat.status, repeat.replayed), (200, true));
    assert_eq!(repeat.body, first.body);
    assert_eq!(server.remaining_credits(account.id).await, 95);
}

#[tokio::test]
async fn an_expired_answer_is_not_replayed_and_the_call_is_charged_again() {
    let server = TestServer::start_with(ApiSettings {
        idempotency_ttl: Duration::from_millis(500),
        ..ApiSettings::default()
    })
    .await;
    let (account, key) = server.account("enterprise", 100).await;
    let explain = || {
        with_key(
            server.request(Method::GET, "/api/v1/explain?query=bitcoin", Some(&key)),
            "short-lived",
        )
    };
    assert_eq!(send(explain()).await.status, 200);
    assert!(send(explain()).await.replayed);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let after = send(explain()).await;
    assert_eq!((after.status, after.replayed), (200, false));
    assert_eq!(after.credits_remaining.as_deref(), Some("90"));
    assert_eq!(charges(&server, account.id).await, 2);
    // The sweep deletes what expired, and nothing else.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        server
            .store
            .delete_expired_idempotency_records(Utc::now())
            .await
            .unwrap(),
        1
    );
}

/// Claims the key in the store as another request would, holding it until `lease_until`.
async fn claim_elsewhere(
    server: &TestServer,
    account_id: Uuid,
    key: &str,
    lease_until: chrono::DateTime<Utc>,
) -> IdempotencyClaim {
    let claim = IdempotencyClaim {
        account_id,
        key: key.to_owned(),
        owner: Uuid::new_v4(),
    };
    let path_fingerprint =
        marketlens_api::idempotency::fingerprint(&Method::GET, "/api/v1/explain", Some("query=bitcoin"), b"");
    let outcome = server
        .store
        .claim_idempotency_key(&NewClaim {
            claim: claim.clone(),
            fingerprint: path_fingerprint,
            request_id: "elsewhere".into(),
            now: Utc::now(),
            lease_until,
        })
        .await
        .unwrap();
    assert_eq!(outcome, marketlens_storage::ClaimOutcome::Claimed);
    claim
}

#[tokio::test]
async fn a_repeat_waits_for_the_running_call_and_gives_up_at_the_request_timeout() {
    let server = TestServer::start_with(ApiSettings {
        request_timeout: Duration::from_millis(400),
        ..ApiSettings::default()
    })
    .await;
    let (account, key) = server.account("enterprise", 100).await;
    let explain = |idempotency_key: &str| {
        with_key(
            server.request(Method::GET, "/api/v1/explain?query=bitcoin", Some(&key)),
            idempotency_key,
        )
    };
    // Held by a call on another node that outlasts the wait.
    claim_elsewhere(&server, account.id, "slow", Utc::now() + chrono::TimeDelta::seconds(60)).await;
    let started = std::time::Instant::now();
    let response = explain("slow").send().await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(400));
    assert_eq!(response.headers()["retry-after"], "1");
    let (status, body) = json_of(response).await;
    assert_error(status, &body, 409, "IDEMPOTENCY_KEY_IN_PROGRESS");

    // Held by a call that ends uncharged while the repeat waits: the repeat runs it.
    let released = claim_elsewhere(
        &server,
        account.id,
        "released",
        Utc::now() + chrono::TimeDelta::seconds(60),
    )
    .await;
    let store = server.store.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(150)).await;
        store.release_idempotency_key(&released).await.unwrap();
    });
    let answer = send(explain("released")).await;
    assert_eq!((answer.status, answer.replayed), (200, false), "{}", answer.body);

    // Held by a node that died: once its lease is up, the repeat takes the key over.
    claim_elsewhere(
        &server,
        account.id,
        "orphaned",
        Utc::now() + chrono::TimeDelta::milliseconds(100),
    )
    .await;
    let answer = send(explain("orphaned")).await;
    assert_eq!((answer.status, answer.replayed), (200, false), "{}", answer.body);
    assert_eq!(server.remaining_credits(account.id).await, 90);
    assert_eq!(charges(&server, account.id).await, 2);
}

/// A client that gives up at any moment, even while its key is being claimed, leaves the key
/// either kept (charged) or free: its retry at once gets an answer, never a wait for a claim
/// that nothing releases (until its lease ends), and every key is charged once.
#[tokio::test]
async fn a_call_given_up_at_any_moment_leaves_its_key_kept_or_free() {
    let server = TestServer::start().await;
    let (account, key) = server.account("enterprise", 10_000).await;
    let calls = 150;
    for call in 0..calls {
        let idempotency_key = format!("given-up-{call}");
        let request = || {
            with_key(
                server.request(Method::GET, "/api/v1/markets?limit=2", Some(&key)),
                &idempotency_key,
            )
        };
        // From 0.1 ms to 15 ms: before, during and after the claim, the work and the charge.
        let impatient = request().timeout(Duration::from_micros(100 * (call + 1)));
        let _ = impatient.send().await;
        let retry = send(request().timeout(Duration::from_secs(5))).await;
        assert_eq!(retry.status, 200, "call {call}: {}", retry.body);
    }
    assert_eq!(charges(&server, account.id).await, calls as usize);
    assert_eq!(server.remaining_credits(account.id).await, 10_000 - calls as i64);
}
