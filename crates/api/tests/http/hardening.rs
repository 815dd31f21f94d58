//! What an outside security review found a client without a key could do, each closed: grow
//! `/metrics` with made-up methods, hold connections with idle cleartext HTTP/2, get a 500 for
//! a bad path parameter, have a shared cache keep a paid answer, put its own id in another
//! account's ledger, read credentials from readiness, guess without limit, and send two
//! `Authorization` headers.

use std::time::{Duration, Instant};

use chrono::Utc;
use marketlens_api::ApiSettings;
use marketlens_api::admin_token::AdminToken;
use marketlens_api::connections::ConnectionLimits;
use marketlens_domain::Exchange;
use marketlens_storage::{FeedPoll, SyncKind, SyncRun, UpsertCounts};
use reqwest::Method;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::hostile::closed_within;
use crate::metrics::scrape;
use crate::{TestServer, assert_error, json_of, seed};

const ADMIN_TOKEN: &str = "f1e2d3c4b5a6978812345678abcdef90-hardening";

#[tokio::test]
async fn made_up_methods_add_no_metric_series() {
    let server = TestServer::start().await;
    let address = server.base_url.trim_start_matches("http://").to_owned();
    let methods: Vec<String> = (0..300).map(|index| format!("M{index:03}{}", "X".repeat(60))).collect();
    for method in &methods {
        // Raw HTTP/1.1: reqwest would send the method as given too, but one connection per
        // request keeps this independent of its pooling.
        let mut stream = TcpStream::connect(&address).await.unwrap();
        stream
            .write_all(format!("{method} /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.unwrap();
        assert!(
            answer.starts_with(b"HTTP/1.1 405"),
            "{}",
            String::from_utf8_lossy(&answer)
        );
    }
    let text = scrape(&server).await;
    for method in &methods {
        assert!(!text.contains(method.as_str()), "a made-up method became a label");
    }
    let labelled_methods: std::collections::BTreeSet<&str> = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split("method=\"").nth(1))
        .filter_map(|rest| rest.split('"').next())
        .collect();
    let closed_set = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE", "other",
    ];
    assert!(
        labelled_methods.iter().all(|method| closed_set.contains(method)),
        "{labelled_methods:?}"
    );
    assert!(labelled_methods.contains("other"), "{labelled_methods:?}");
}

/// The HTTP/2 connection preface and an empty SETTINGS frame: what an h2c client with prior
/// knowledge sends first.
const H2_PREFACE_AND_SETTINGS: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00";

#[tokio::test]
async fn idle_cleartext_http2_is_refused_and_a_flood_of_it_leaves_clients_served() {
    let limits = ConnectionLimits {
        max_connections: 16,
        header_read_timeout: Duration::from_secs(1),
        ..ConnectionLimits::default()
    };
    let server = TestServer::start_with_limits(ApiSettings::default(), limits).await;
    let address = server.base_url.trim_start_matches("http://").to_owned();

    let mut one = TcpStream::connect(&address).await.unwrap();
    one.write_all(H2_PREFACE_AND_SETTINGS).await.unwrap();
    let started = Instant::now();
    assert!(
        closed_within(&mut one, Duration::from_secs(3)).await.is_some(),
        "an HTTP/2 connection that sent only its preface was kept open"
    );
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());

    // As many as the cap allows, all idle after their preface: new clients are still served.
    let mut flood = Vec::new();
    for _ in 0..limits.max_connections {
        let mut stream = TcpStream::connect(&address).await.unwrap();
        stream.write_all(H2_PREFACE_AND_SETTINGS).await.unwrap();
        flood.push(stream);
    }
    let deadline = Instant::now() + Duration::from_secs(3);
    let served = loop {
        match reqwest::get(format!("{}/healthz", server.base_url)).await {
            Ok(response) if response.status() == 200 => break true,
            _ if Instant::now() > deadline => break false,
            _ => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    };
    assert!(served, "a flood of idle HTTP/2 connections kept a new client out");
    for stream in &mut flood {
        assert!(
            closed_within(stream, Duration::from_secs(3)).await.is_some(),
            "a flooding connection was kept"
        );
    }
}

#[tokio::test]
async fn a_client_that_stops_reading_is_cut_off() {
    let limits = ConnectionLimits {
        write_timeout: Duration::from_secs(1),
        header_read_timeout: Duration::from_secs(1),
        ..ConnectionLimits::default()
    };
    let server = TestServer::start_with_limits(ApiSettings::default(), limits).await;
    let address = server.base_url.trim_start_matches("http://").to_owned();
    let one_answer = reqwest::get(format!("{}/api/v1/openapi.json", server.base_url))
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap()
        .len();
    // Far more than the socket buffers hold, asked for at once and not read.
    let requests = 200;
    let mut stream = TcpStream::connect(&address).await.unwrap();
    let request = "GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n".repeat(requests);
    stream.write_all(request.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_secs(4)).await;
    let mut received = 0;
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await {
            Ok(Ok(0) | Err(_)) => break,
            Ok(Ok(read)) => received += read,
            Err(_) => panic!("the connection of a client that stopped reading was kept open"),
        }
    }
    assert!(
        received < one_answer * requests,
        "all {requests} answers were written to a client that did not read ({received} bytes)"
    );
    assert_eq!(
        reqwest::get(format!("{}/healthz", server.base_url))
            .await
            .unwrap()
            .status(),
        200
    );
}

#[tokio::test]
async fn a_path_id_that_does_not_decode_is_a_400_on_every_id_route() {
    let server = TestServer::start_with(ApiSettings {
        admin_token: Some(AdminToken::new(ADMIN_TOKEN).unwrap()),
        ..ApiSettings::default()
    })
    .await;
    let key = server.key().await;
    for path in [
        "/api/v1/markets/%FF",
        "/api/v1/markets/%FF/history",
        "/api/v1/events/%FF",
    ] {
        let (status, body) = json_of(server.request(Method::GET, path, Some(&key)).send().await.unwrap()).await;
        let error = assert_error(status, &body, 400, "INVALID_PARAMETER");
        assert_eq!(error["details"]["parameter"], "id", "{path}");
    }
    for (method, path) in [
        (Method::GET, "/admin/v1/accounts/%FF"),
        (Method::PATCH, "/admin/v1/accounts/%FF"),
        (Method::POST, "/admin/v1/accounts/%FF/credits"),
        (Method::GET, "/admin/v1/accounts/%FF/keys"),
        (Method::POST, "/admin/v1/accounts/%FF/keys"),
        (Method::GET, "/admin/v1/accounts/%FF/ledger"),
        (Method::DELETE, "/admin/v1/keys/%FF"),
    ] {
        let response = server
            .request_as(method.clone(), path, Some(ADMIN_TOKEN))
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap();
        let (status, body) = json_of(response).await;
        let error = assert_error(status, &body, 400, "INVALID_PARAMETER");
        assert_eq!(error["details"]["parameter"], "id", "{method} {path}");
    }
    // Logged and counted as what the client got.
    let text = scrape(&server).await;
    assert!(
        text.lines()
            .any(|line| line.starts_with("marketlens_http_requests_total")
                && line.contains("route=\"/api/v1/markets/{id}\"")
                && line.contains("status=\"400\"")),
        "{text}"
    );
}

#[tokio::test]
async fn keyed_and_admin_answers_are_not_for_shared_caches() {
    let server = TestServer::start_with(ApiSettings {
        admin_token: Some(AdminToken::new(ADMIN_TOKEN).unwrap()),
        ..ApiSettings::default()
    })
    .await;
    let key = server.key().await;
    let market = seed::matched_pair().0;
    let event = seed::events()[0].id();
    let keyed = [
        (Method::GET, "/api/v1/markets".to_owned()),
        (Method::GET, format!("/api/v1/markets/{market}")),
        (Method::GET, format!("/api/v1/markets/{market}/history")),
        (
            Method::GET,
            "/api/v1/markets/lookup?url=https://polymarket.com/event/x".to_owned(),
        ),
        (Method::GET, "/api/v1/spreads".to_owned()),
        (Method::GET, "/api/v1/events".to_owned()),
        (Method::GET, format!("/api/v1/events/{event}")),
        (Method::GET, "/api/v1/explain?query=bitcoin".to_owned()),
        (Method::GET, "/api/v1/account".to_owned()),
        (Method::GET, "/api/v1/markets?limit=0".to_owned()),
        (Method::GET, format!("/api/v1/markets/{}", uuid::Uuid::nil())),
    ];
    for (method, path) in &keyed {
        let response = server.request(method.clone(), path, Some(&key)).send().await.unwrap();
        assert_eq!(
            response
                .headers()
                .get("cache-control")
                .and_then(|value| value.to_str().ok()),
            Some("private, no-store"),
            "{method} {path}: {}",
            response.status()
        );
    }
    let explain = server
        .request(Method::POST, "/api/v1/explain", Some(&key))
        .json(&serde_json::json!({ "query": "bitcoin" }))
        .send()
        .await
        .unwrap();
    assert_eq!(explain.headers()["cache-control"], "private, no-store");
    // Refusals on keyed routes too: they say whose key failed.
    let refused = server
        .request(Method::GET, "/api/v1/account", None)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    assert_eq!(refused.headers()["cache-control"], "private, no-store");
    let unknown_account = format!("/admin/v1/accounts/{}", uuid::Uuid::nil());
    for (path, status) in [("/admin/v1/accounts", 200), (unknown_account.as_str(), 404)] {
        let response = server
            .request_as(Method::GET, path, Some(ADMIN_TOKEN))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), status, "{path}");
        assert_eq!(response.headers()["cache-control"], "private, no-store", "{path}");
    }
    // Every answer, public documents included, is neither sniffed nor framed.
    for path in ["/docs", "/api/v1/openapi.json", "/healthz", "/api/v1/markets"] {
        let response = server.request(Method::GET, path, None).send().await.unwrap();
        let headers = response.headers();
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        let policy = headers["content-security-policy"].to_str().unwrap();
        assert!(policy.contains("frame-ancestors 'none'"), "{path}: {policy}");
    }
}

#[tokio::test]
async fn a_clients_request_id_is_echoed_but_never_the_ledgers() {
    let server = TestServer::start().await;
    let (first, first_key) = server.account("pro", 100).await;
    let (second, second_key) = server.account("pro", 100).await;
    let mut server_ids = Vec::new();
    for key in [&first_key, &second_key] {
        let response = server
            .request(Method::GET, "/api/v1/markets?limit=1", Some(key))
            .header("x-request-id", "shared-client-id")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["x-request-id"], "shared-client-id");
        server_ids.push(response.headers()["x-server-request-id"].to_str().unwrap().to_owned());
    }
    let mut ledger_ids = Vec::new();
    for account in [first.id, second.id] {
        let entries = server.store.ledger(account, None, 100).await.unwrap();
        let charge = entries
            .iter()
            .find(|entry| entry.operation.as_deref() == Some("listMarkets"))
            .expect("the call was charged");
        let id = charge.request_id.clone().expect("a charge carries its request id");
        assert!(
            uuid::Uuid::parse_str(&id).is_ok(),
            "the ledger holds {id:?}, not an id the server made"
        );
        ledger_ids.push(id);
    }
    assert_ne!(ledger_ids[0], ledger_ids[1]);
    // The client is told the id its charge is known by.
    assert_eq!(ledger_ids, server_ids);
    // An error names the server's id, which is the ledger's and the logs' key.
    let response = server
        .request(Method::GET, "/api/v1/markets?limit=0", Some(&first_key))
        .header("x-request-id", "shared-client-id")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "shared-client-id");
    let (_, body) = json_of(response).await;
    assert!(
        uuid::Uuid::parse_str(body["requestId"].as_str().unwrap()).is_ok(),
        "{body}"
    );
}

#[tokio::test]
async fn credentials_in_configured_urls_show_nowhere() {
    let server = TestServer::start().await;
    let secret = "s3cretTOKEN42";
    let feed = format!("https://reader:{secret}@news.example/feed.xml?apikey={secret}");
    let now = Utc::now();
    server
        .store
        .record_feed_poll(&FeedPoll {
            url: feed.clone(),
            polled_at: now,
            error: Some(format!(
                "GET {feed}: gave up after 5 attempts; last: error sending request for url ({feed})"
            )),
            articles_added: 0,
        })
        .await
        .unwrap();
    server
        .store
        .record_sync_run(&SyncRun {
            exchange: Exchange::Kalshi,
            kind: SyncKind::Incremental,
            started_at: now,
            finished_at: now,
            succeeded: false,
            pages: 0,
            counts: UpsertCounts::default(),
            records_skipped: 0,
            errors: 1,
            error: Some(format!(
                "cannot connect: https://proxy.example/trade-api/v2/events?token={secret}"
            )),
        })
        .await
        .unwrap();
    let response = server.request(Method::GET, "/readyz", None).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let readiness = response.text().await.unwrap();
    assert!(!readiness.contains(secret), "{readiness}");
    assert!(
        readiness.contains("https://***@news.example/feed.xml?***"),
        "{readiness}"
    );
    let metrics = scrape(&server).await;
    assert!(!metrics.contains(secret));
}

#[tokio::test]
async fn failed_authentication_is_limited_per_address_and_known_keys_still_pass() {
    let server = TestServer::start_with(ApiSettings {
        failed_auth_per_minute: 5,
        admin_token: Some(AdminToken::new(ADMIN_TOKEN).unwrap()),
        ..ApiSettings::default()
    })
    .await;
    let key = server.key().await;
    // The key is known (and cached) before the guessing starts.
    assert_eq!(server.get("/api/v1/account", &key).await.0, 200);
    for attempt in 0..5 {
        // Well-formed but unknown (each costs a lookup), then malformed.
        let wrong = if attempt < 3 {
            format!("pm_live_{attempt}{}", "0".repeat(39))
        } else {
            format!("pm_live_not-a-key-{attempt}")
        };
        let (status, body) = json_of(
            server
                .request_as(Method::GET, "/api/v1/account", Some(&wrong))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_error(status, &body, 401, "INVALID_API_KEY");
    }
    // The sixth failure within the minute, and a wrong admin token, are refused unread.
    let response = server
        .request_as(Method::GET, "/api/v1/account", Some("pm_live_guess"))
        .send()
        .await
        .unwrap();
    let retry_after: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let (status, body) = json_of(response).await;
    let error = assert_error(status, &body, 429, "RATE_LIMITED");
    assert_eq!(error["details"]["failedAuthenticationsPerMinute"], 5);
    let (status, body) = json_of(
        server
            .request_as(Method::GET, "/admin/v1/accounts", Some("not-the-admin-token"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_error(status, &body, 429, "RATE_LIMITED");
    // The right admin token, and a key the server knows, are still served from the same
    // address: a throttled address cannot lock the operator or a live client out.
    let admin = server
        .request_as(Method::GET, "/admin/v1/accounts", Some(ADMIN_TOKEN))
        .send()
        .await
        .unwrap();
    assert_eq!(admin.status(), 200);
    assert_eq!(server.get("/api/v1/account", &key).await.0, 200);
}

/// A client's first calls, sent at once with its right key, are not failed attempts: they take
/// turns to look the key up, so the burst costs one lookup and none of them is refused, however
/// many are in flight before the first lookup ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_calls_with_a_right_key_not_yet_cached_is_served() {
    let limit = 5;
    let server = TestServer::start_with(ApiSettings {
        failed_auth_per_minute: limit,
        ..ApiSettings::default()
    })
    .await;
    let key = server.key().await;
    let calls = (0..10 * limit).map(|_| {
        let request = server.request(Method::GET, "/api/v1/account", Some(&key));
        async move { request.send().await.unwrap().status() }
    });
    let statuses = futures::future::join_all(calls).await;
    assert!(statuses.iter().all(|status| *status == 200), "{statuses:?}");
}

#[tokio::test]
async fn two_authorization_headers_are_refused() {
    let server = TestServer::start_with(ApiSettings {
        admin_token: Some(AdminToken::new(ADMIN_TOKEN).unwrap()),
        ..ApiSettings::default()
    })
    .await;
    let key = server.key().await;
    for path in ["/api/v1/account", "/admin/v1/accounts"] {
        let response = server
            .client
            .get(format!("{}{path}", server.base_url))
            .header("authorization", format!("Bearer {}", key.as_str()))
            .header("authorization", format!("Bearer {ADMIN_TOKEN}"))
            .send()
            .await
            .unwrap();
        let (status, body) = json_of(response).await;
        assert_error(status, &body, 400, "INVALID_REQUEST");
    }
}
