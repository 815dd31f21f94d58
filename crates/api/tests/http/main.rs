//! HTTP integration tests: each test starts the real server on a random port over a store of
//! its own and speaks HTTP to it. The store is a temporary SQLite file, or a PostgreSQL
//! schema of its own when `MARKETLENS_TEST_BACKEND=postgres` (`scripts/test` runs the suite
//! both ways).

mod account;
mod admin;
mod auth;
mod billing;
mod depth;
mod errors;
mod events;
mod explain;
mod freshness;
mod hardening;
mod history;
mod hostile;
mod idempotency;
mod lookup;
mod markets;
mod mcp;
mod metrics;
mod news;
mod openapi;
mod recorded_markets;
mod reference;
mod seed;
mod spreads;
mod stream;

use chrono::Utc;
use marketlens_api::connections::ConnectionLimits;
use marketlens_api::stream::StreamHub;
use marketlens_api::{ApiSettings, AppState};
use marketlens_catalog::{LiveCatalog, LiveNews};
use marketlens_domain::account::Account;
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::article::Article;
use marketlens_domain::depth::DepthSource;
use marketlens_domain::rate_limit::TierTable;
use marketlens_storage::{NewAccount, Store};
use marketlens_testkit::TestDatabase;
use reqwest::{Client, Method, RequestBuilder, Response};
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::oneshot;

pub struct TestServer {
    pub base_url: String,
    pub store: Arc<dyn Store>,
    pub client: Client,
    news: Arc<LiveNews>,
    catalog: Arc<LiveCatalog>,
    _shutdown: oneshot::Sender<()>,
    _database: TestDatabase,
}

/// The test database of the backend `MARKETLENS_TEST_BACKEND` names (SQLite by default).
async fn test_database() -> TestDatabase {
    match std::env::var("MARKETLENS_TEST_BACKEND").as_deref() {
        Ok("postgres") => TestDatabase::postgres()
            .await
            .expect("MARKETLENS_TEST_BACKEND=postgres needs MARKETLENS_TEST_DATABASE_URL"),
        Ok("sqlite") | Err(_) => TestDatabase::sqlite(),
        Ok(other) => panic!("MARKETLENS_TEST_BACKEND must be sqlite or postgres, not {other:?}"),
    }
}

impl TestServer {
    /// A server over the synthetic catalogue of [`seed`].
    pub async fn start() -> TestServer {
        TestServer::start_with(ApiSettings::default()).await
    }

    pub async fn start_with(settings: ApiSettings) -> TestServer {
        TestServer::start_with_limits(settings, ConnectionLimits::default()).await
    }

    pub async fn start_with_limits(settings: ApiSettings, limits: ConnectionLimits) -> TestServer {
        TestServer::start_serving(settings, limits, Sources::default()).await
    }

    /// A server whose order books and trades come from `depth`.
    pub async fn start_with_depth(settings: ApiSettings, depth: Arc<dyn DepthSource>) -> TestServer {
        let sources = Sources {
            depth: Some(depth),
            stream: None,
        };
        TestServer::start_serving(settings, ConnectionLimits::default(), sources).await
    }

    /// A server whose live streams come from `hub`.
    pub async fn start_with_stream(settings: ApiSettings, hub: StreamHub) -> TestServer {
        let sources = Sources {
            depth: None,
            stream: Some(hub),
        };
        TestServer::start_serving(settings, ConnectionLimits::default(), sources).await
    }

    async fn start_serving(settings: ApiSettings, limits: ConnectionLimits, sources: Sources) -> TestServer {
        let database = test_database().await;
        let store = database.open().await;
        seed::catalogue(store.as_ref()).await;
        let (node, state) = Node::start(store.clone(), settings, limits, sources).await;
        TestServer {
            base_url: node.base_url,
            store,
            client: Client::new(),
            news: state.news.clone(),
            catalog: state.catalog.clone(),
            _shutdown: node._shutdown,
            _database: database,
        }
    }

    /// Another server over this one's database, with a store connection, state, memory and
    /// port of its own: a second node of a cluster, or this server as it is after a restart.
    pub async fn another_node(&self, settings: ApiSettings) -> Node {
        Node::start(
            self._database.open().await,
            settings,
            ConnectionLimits::default(),
            Sources::default(),
        )
        .await
        .0
    }

    /// Stores news articles and has the server's news index read them, as `serve` does.
    pub async fn add_news(&self, articles: &[Article]) {
        self.store
            .insert_articles(articles)
            .await
            .expect("the articles are stored");
        self.news.catch_up(Utc::now()).await.expect("the news index catches up");
    }

    /// Has the server's in-memory catalogue load what the store holds now, as `serve`'s
    /// background task does within seconds of a write.
    pub async fn refresh_catalog(&self) {
        self.catalog.refresh().await.expect("the catalogue loads");
    }

    /// A new account of `tier` with `credits`, and a key for it.
    pub async fn account(&self, tier: &str, credits: i64) -> (Account, ApiKey) {
        let new_account = NewAccount {
            label: "test".into(),
            tier: tier.into(),
            wallet_address: "0x1234".into(),
            initial_credits: credits,
        };
        let account = self.store.create_account(new_account, Utc::now()).await.unwrap();
        let key = ApiKey::generate(&mut rand::rng());
        self.store
            .create_key(account.id, key.hash(), &key.truncated(), Utc::now())
            .await
            .unwrap();
        (account, key)
    }

    /// A key with plenty of credits on the largest default tier.
    pub async fn key(&self) -> ApiKey {
        self.account("enterprise", 100_000).await.1
    }

    pub fn request(&self, method: Method, path: &str, key: Option<&ApiKey>) -> RequestBuilder {
        self.request_as(method, path, key.map(ApiKey::as_str))
    }

    /// A request with `bearer` (an API key or the admin token) as its credential.
    pub fn request_as(&self, method: Method, path: &str, bearer: Option<&str>) -> RequestBuilder {
        let builder = self.client.request(method, format!("{}{path}", self.base_url));
        match bearer {
            Some(bearer) => builder.bearer_auth(bearer),
            None => builder,
        }
    }

    pub async fn get(&self, path: &str, key: &ApiKey) -> (u16, Value) {
        json_of(self.request(Method::GET, path, Some(key)).send().await.unwrap()).await
    }

    pub async fn remaining_credits(&self, account_id: uuid::Uuid) -> i64 {
        self.store
            .get_account(account_id)
            .await
            .unwrap()
            .unwrap()
            .credits_remaining
    }
}

/// Where a server's order books, trades and live streams come from; none by default.
#[derive(Default)]
struct Sources {
    depth: Option<Arc<dyn DepthSource>>,
    stream: Option<StreamHub>,
}

/// A serving node: the app over a store, on a port of its own, until dropped.
pub struct Node {
    pub base_url: String,
    _shutdown: oneshot::Sender<()>,
}

impl Node {
    async fn start(
        store: Arc<dyn Store>,
        settings: ApiSettings,
        limits: ConnectionLimits,
        sources: Sources,
    ) -> (Node, AppState) {
        let mut state = AppState::new(store, settings);
        if let Some(depth) = sources.depth {
            state = state.with_depth(depth);
        }
        if let Some(hub) = sources.stream {
            state = state.with_stream(hub);
        }
        // Lists are answered from memory, as in `serve`.
        state.catalog.refresh().await.expect("the catalogue loads");
        let app = marketlens_api::app(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let (shutdown, stopped) = oneshot::channel::<()>();
        let stop = async {
            stopped.await.ok();
        };
        tokio::spawn(marketlens_api::connections::serve(listener, app, stop, limits));
        let node = Node {
            base_url,
            _shutdown: shutdown,
        };
        (node, state)
    }
}

pub async fn json_of(response: Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let body = response.text().await.unwrap();
    let value = serde_json::from_str(&body).unwrap_or_else(|error| panic!("not JSON ({error}): {body}"));
    (status, value)
}

/// Asserts the error JSON of `docs/contract/decisions.md#d2-shape` and returns the error object.
pub fn assert_error(status: u16, body: &Value, expected_status: u16, expected_code: &str) -> Value {
    assert_eq!(status, expected_status, "{body}");
    assert_eq!(body["success"], false, "{body}");
    assert_eq!(body["error"]["code"], expected_code, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|message| !message.is_empty()),
        "{body}"
    );
    assert!(body["requestId"].as_str().is_some_and(|id| !id.is_empty()), "{body}");
    body["error"].clone()
}

/// Waits, if needed, so that the next few seconds fall inside one UTC minute: a window
/// boundary in the middle of a test would reset the rate-limit count it checks.
pub async fn stay_within_one_minute() {
    let seconds = Utc::now().timestamp() % 60;
    if seconds > 55 {
        tokio::time::sleep(std::time::Duration::from_secs((61 - seconds) as u64)).await;
    }
}

pub fn settings_with_tiers(overrides: &str) -> ApiSettings {
    ApiSettings {
        tiers: TierTable::with_overrides(overrides).unwrap(),
        ..ApiSettings::default()
    }
}
