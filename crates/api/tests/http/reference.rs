//! `GET /docs` in a real headless browser (Debian's chromium): the page loads, lists every
//! operation of the OpenAPI document, and asks no other host for anything. Chromium's proxy
//! points at a listener that records the host of each request: any request to another host
//! reaches it (loopback bypasses the proxy), and a page that loads an outside image proves it
//! does. The browser's own calls home on start are told apart by their hosts.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::Method;

use crate::{TestServer, json_of};

/// The browser: `MARKETLENS_TEST_CHROMIUM` (set by `scripts/test`), else Debian's path.
fn chromium() -> PathBuf {
    let path = std::env::var_os("MARKETLENS_TEST_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    assert!(
        path.exists(),
        "the /docs test needs a headless chromium at {}: run scripts/test (it installs Debian's \
         chromium) or set MARKETLENS_TEST_CHROMIUM",
        path.display()
    );
    path
}

/// Hosts the browser itself calls on start (time, component updates, sign-in) or when a page
/// has a form (autofill), whatever page it shows; they are not the page's requests. A font or
/// script CDN is not among them.
const BROWSER_SERVICE_HOSTS: [&str; 9] = [
    "content-autofill.googleapis.com",
    "clients2.google.com",
    "update.googleapis.com",
    "accounts.google.com",
    "clientservices.googleapis.com",
    "optimizationguide-pa.googleapis.com",
    "safebrowsingohttpgateway.googleapis.com",
    "redirector.gvt1.com",
    "edgedl.me.gvt1.com",
];

/// A listener that records the host of every request sent to it: the browser's proxy.
fn outside_world() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let hosts = Arc::new(Mutex::new(Vec::new()));
    let recorded = hosts.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            stream.set_read_timeout(Some(Duration::from_secs(2))).ok();
            let mut request_line = String::new();
            let mut reader = BufReader::new(stream);
            reader.read_line(&mut request_line).ok();
            // Recorded before the connection closes, so before the browser can go on.
            recorded.lock().unwrap().push(proxied_host(&request_line));
            drop(reader);
        }
    });
    (address, hosts)
}

/// The host of a proxy request line: `CONNECT host:443 HTTP/1.1` or `GET http://host/path HTTP/1.1`.
fn proxied_host(request_line: &str) -> String {
    let target = request_line.split_whitespace().nth(1).unwrap_or_default();
    let authority = target.split_once("://").map_or(target, |(_, rest)| rest);
    let authority = authority.split('/').next().unwrap_or_default();
    authority
        .rsplit_once(':')
        .map_or(authority, |(host, _)| host)
        .to_owned()
}

/// The hosts asked for that the browser's own services do not explain.
fn page_requests(hosts: &Mutex<Vec<String>>) -> Vec<String> {
    hosts
        .lock()
        .unwrap()
        .iter()
        .filter(|host| !BROWSER_SERVICE_HOSTS.contains(&host.as_str()))
        .cloned()
        .collect()
}

/// The DOM of `url` after it loaded, in headless chromium behind `proxy`.
async fn dump_dom(url: String, proxy: String) -> String {
    tokio::task::spawn_blocking(move || {
        let profile = tempfile::tempdir().unwrap();
        let output = Command::new(chromium())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("--proxy-server=http://{proxy}"))
            .arg("--dump-dom")
            .arg(&url)
            .output()
            .expect("chromium starts");
        assert!(
            output.status.success(),
            "chromium failed on {url}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    })
    .await
    .unwrap()
}

/// The OpenAPI document `server` serves.
async fn served_document(server: &TestServer) -> serde_json::Value {
    let response = server
        .request(Method::GET, "/api/v1/openapi.json", None)
        .send()
        .await
        .unwrap();
    json_of(response).await.1
}

#[tokio::test]
async fn the_reference_page_lists_every_operation_and_asks_no_other_host() {
    let server = TestServer::start().await;
    let document = served_document(&server).await;

    let (proxy, hosts) = outside_world();
    let dom = dump_dom(format!("{}/docs", server.base_url), proxy.clone()).await;
    assert!(dom.contains("Marketlens API"), "{dom}");
    let mut operations = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            let anchor: String = format!("{method}-{path}")
                .chars()
                .filter(|character| character.is_ascii_alphanumeric() || *character == '-')
                .collect();
            assert!(
                dom.contains(&format!("id=\"{anchor}\"")),
                "no section for {method} {path}"
            );
            assert!(dom.contains(&format!("<code>{path}</code>")), "{path} is not shown");
            operations += 1;
        }
    }
    assert!(operations >= 11, "{operations}");
    for schema in document["components"]["schemas"].as_object().unwrap().keys() {
        assert!(
            dom.contains(&format!("id=\"schema-{schema}\"")),
            "schema {schema} is not shown"
        );
    }
    assert_eq!(
        page_requests(&hosts),
        Vec::<String>::new(),
        "the page asked other hosts for something"
    );

    // The control: a page that does load something from outside reaches the counter.
    dump_dom(
        "data:text/html,<img src='http://outside.example/pixel.png'>".to_owned(),
        proxy,
    )
    .await;
    assert_eq!(
        page_requests(&hosts),
        ["outside.example"],
        "the proxy trap did not see the control's request: the check above proves nothing"
    );
}

#[tokio::test]
async fn the_root_leads_to_the_reference_which_also_answers_with_a_slash() {
    let server = TestServer::start().await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let root = client.get(format!("{}/", server.base_url)).send().await.unwrap();
    assert_eq!(root.status(), 307);
    assert_eq!(root.headers()["location"], "/docs");
    for path in ["/docs", "/docs/"] {
        let page = server.request(Method::GET, path, None).send().await.unwrap();
        assert_eq!(page.status(), 200, "{path}");
        let policy = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
        // Its own script and requests to its own origin, nothing from anywhere else.
        for directive in [
            "default-src 'none'",
            "script-src 'self'",
            "connect-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(policy.contains(directive), "{path}: {policy}");
        }
        assert!(!policy.contains("http"), "{path}: {policy}");
        let html = page.text().await.unwrap();
        assert!(html.contains(r#"<script src="/docs/try.js">"#), "{path}");
        assert!(html.contains("form class=\"try\""), "{path}");
    }
    let script = server.request(Method::GET, "/docs/try.js", None).send().await.unwrap();
    assert_eq!(script.status(), 200);
    assert_eq!(script.headers()["content-type"], "text/javascript; charset=utf-8");
    assert!(script.text().await.unwrap().contains("fetch("));
}

#[tokio::test]
async fn llms_txt_lists_every_operation_with_what_it_needs_and_an_example() {
    let server = TestServer::start().await;
    let document = served_document(&server).await;
    let response = server.request(Method::GET, "/llms.txt", None).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/plain; charset=utf-8");
    let text = response.text().await.unwrap();
    assert!(text.starts_with("# Marketlens API\n"), "{text}");
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let line = format!(
                "- {} {path} (`{}`, ",
                method.to_uppercase(),
                operation["operationId"].as_str().unwrap()
            );
            assert!(text.contains(&line), "{line} is missing");
        }
    }
    assert!(text.contains("(`listMarkets`, API key)"));
    assert!(text.contains("(`checkLiveness`, no key)"));
    assert!(text.contains("(`adminCreateAccount`, admin token)"));
    assert!(
        text.contains("  - example: `curl -s -H \"Authorization: Bearer $KEY\" 'http://127.0.0.1:8080/api/v1/markets?")
    );
    // Markets come before the admin API, as on the page.
    assert!(text.find("listMarkets").unwrap() < text.find("adminListAccounts").unwrap());
}
