//! Several `marketlens serve` processes on one PostgreSQL and one Redis, as operators run them
//! behind a load balancer: credits stay exact across them, the rate limit holds for the account
//! as a whole, a node killed with SIGKILL loses no charge, and one node at a time syncs.
//!
//! Needs `MARKETLENS_TEST_DATABASE_URL` and `MARKETLENS_TEST_REDIS_URL` (`scripts/test` and CI
//! set both); without them these tests are skipped with a note.

use chrono::Utc;
use marketlens_domain::account::LedgerKind;
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::market::{Rules, UrlKeys};
use marketlens_domain::{Category, Exchange, Market, MarketStatus, Outcome};
use marketlens_storage::{NewAccount, Store};
use marketlens_testkit::TestDatabase;
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use uuid::Uuid;

use crate::{free_port, marketlens, terminate};

mod faults;
mod history;
mod relay;
mod retries;

/// A `marketlens serve` process; killed (SIGKILL) when dropped.
struct Node {
    child: Child,
    base_url: String,
}

/// Whether a node syncs in the background.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Syncing {
    Off,
    On,
}

impl Node {
    async fn start(database_url: &str, redis_url: &str, sync: Syncing, extra_env: &[(&str, &str)]) -> Node {
        Node::start_on(database_url, Some(redis_url), sync, extra_env).await
    }

    /// A node on `database_url`, counting rate limits in Redis when `redis_url` is given.
    async fn start_on(database_url: &str, redis_url: Option<&str>, sync: Syncing, extra_env: &[(&str, &str)]) -> Node {
        let port = free_port();
        let mut command = marketlens(database_url, &["serve", "--bind", &format!("127.0.0.1:{port}")]);
        if sync == Syncing::Off {
            command.arg("--no-sync");
        }
        if let Some(redis_url) = redis_url {
            command.env("MARKETLENS_REDIS_URL", redis_url);
        }
        command
            .env("MARKETLENS_NEWS_FEEDS", "")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        for (name, value) in extra_env {
            command.env(name, value);
        }
        let node = Node {
            child: command.spawn().unwrap(),
            base_url: format!("http://127.0.0.1:{port}"),
        };
        let client = reqwest::Client::new();
        let started = Instant::now();
        while client.get(format!("{}/healthz", node.base_url)).send().await.is_err() {
            assert!(started.elapsed() < Duration::from_secs(30), "a node never started");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        node
    }

    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A PostgreSQL schema and a Redis of the tests, with a few markets and an account.
struct Cluster {
    database: TestDatabase,
    redis_url: String,
    store: Arc<dyn Store>,
}

impl Cluster {
    async fn new() -> Option<Cluster> {
        let redis_url = marketlens_testkit::redis_url()?;
        let database = TestDatabase::postgres().await?;
        let store = database.open().await;
        store
            .upsert(&[market("1"), market("2")], &[], Utc::now())
            .await
            .unwrap();
        Some(Cluster {
            database,
            redis_url,
            store,
        })
    }

    async fn nodes(&self, count: usize, extra_env: &[(&str, &str)]) -> Vec<Node> {
        let mut nodes = Vec::new();
        for _ in 0..count {
            nodes.push(Node::start(&self.database.url, &self.redis_url, Syncing::Off, extra_env).await);
        }
        nodes
    }

    async fn account(&self, tier: &str, credits: i64) -> (Uuid, ApiKey) {
        account_in(self.store.as_ref(), tier, credits).await
    }

    /// Asserts the books of the account: `purchased - used = remaining`, the ledger's sums equal
    /// to both, one ledger line per charged call (every call costing 1); returns (remaining, used).
    async fn assert_books_balance(&self, account_id: Uuid) -> (i64, i64) {
        let books = self.books(account_id).await;
        assert_eq!(books.calls_paid as i64, books.used, "one line per charged call");
        (books.remaining, books.used)
    }

    /// The books of the account, asserting that they balance: `purchased - used = remaining`,
    /// the ledger's credits and charges equal to `purchased` and `used`, and only the initial
    /// credit line besides the charges.
    async fn books(&self, account_id: Uuid) -> Books {
        Books::of(self.store.as_ref(), account_id).await
    }
}

/// A new account of `tier` with `credits` in `store`, and a key of it.
async fn account_in(store: &dyn Store, tier: &str, credits: i64) -> (Uuid, ApiKey) {
    let new_account = NewAccount {
        label: "nodes".into(),
        tier: tier.into(),
        wallet_address: String::new(),
        initial_credits: credits,
    };
    let account = store.create_account(new_account, Utc::now()).await.unwrap();
    let key = ApiKey::generate(&mut rand::rng());
    store
        .create_key(account.id, key.hash(), &key.truncated(), Utc::now())
        .await
        .unwrap();
    (account.id, key)
}

impl Books {
    /// The books of the account in `store` (see [`Cluster::books`]).
    async fn of(store: &dyn Store, account_id: Uuid) -> Books {
        let account = store.get_account(account_id).await.unwrap().unwrap();
        let totals = store.ledger_totals(account_id).await.unwrap();
        assert_eq!(
            account.credits_purchased - account.credits_used,
            account.credits_remaining
        );
        assert_eq!(totals.credited, account.credits_purchased);
        assert_eq!(totals.used(), account.credits_used);
        let (mut charges, mut refunds) = (0, 0);
        let mut after = None;
        loop {
            let page = store.ledger(account_id, after, 10_000).await.unwrap();
            let Some(last) = page.last() else { break };
            after = Some(last.id);
            charges += page.iter().filter(|line| line.kind == LedgerKind::Charge).count() as u64;
            refunds += page.iter().filter(|line| line.kind == LedgerKind::Refund).count() as u64;
        }
        Books {
            purchased: account.credits_purchased,
            used: account.credits_used,
            remaining: account.credits_remaining,
            calls_paid: charges - refunds,
            refunds,
        }
    }
}

/// An account's credits, the calls its ledger shows paid for (charge lines less the refund
/// lines that gave charges back), and its refund lines.
struct Books {
    purchased: i64,
    used: i64,
    remaining: i64,
    calls_paid: u64,
    refunds: u64,
}

fn market(external_id: &str) -> Market {
    Market {
        exchange: Exchange::Polymarket,
        external_id: external_id.to_owned(),
        event_external_id: None,
        question: format!("Will test market {external_id} resolve Yes?"),
        description: String::new(),
        status: MarketStatus::Open,
        category: Category::Other,
        liquidity: 1.0,
        volume: 2.0,
        volume_24h: 3.0,
        start_date: None,
        end_date: None,
        created_at: None,
        source_updated_at: None,
        outcomes: vec![Outcome {
            name: "Yes".into(),
            price: 0.5,
            best_bid_price: None,
            best_ask_price: None,
        }],
        url_keys: UrlKeys::default(),
        url: String::new(),
        image_url: String::new(),
        rules: Rules::default(),
        resolution: None,
    }
}

/// Sends `calls` list calls with the key, `concurrency` at a time, round robin over the
/// nodes' base URLs; counts the answers by status (0: no answer). `between` runs after each
/// answer with the number answered so far.
async fn spread_calls(
    base_urls: &[String],
    key: &ApiKey,
    calls: usize,
    concurrency: usize,
    between: impl Fn(usize) + Send + Sync + 'static,
) -> std::collections::BTreeMap<u16, usize> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let next = Arc::new(AtomicUsize::new(0));
    let answered = Arc::new(AtomicUsize::new(0));
    let between = Arc::new(between);
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let (client, next, answered, between) = (client.clone(), next.clone(), answered.clone(), between.clone());
            let (base_urls, key) = (base_urls.to_vec(), key.as_str().to_owned());
            tokio::spawn(async move {
                let mut statuses = Vec::new();
                loop {
                    let call = next.fetch_add(1, Ordering::SeqCst);
                    if call >= calls {
                        return statuses;
                    }
                    let url = format!("{}/api/v1/markets?limit=2", base_urls[call % base_urls.len()]);
                    let status = match client.get(url).bearer_auth(&key).send().await {
                        Ok(response) => response.status().as_u16(),
                        Err(_) => 0,
                    };
                    statuses.push(status);
                    between(answered.fetch_add(1, Ordering::SeqCst) + 1);
                }
            })
        })
        .collect();
    let mut counts = std::collections::BTreeMap::new();
    for worker in workers {
        for status in worker.await.unwrap() {
            *counts.entry(status).or_default() += 1;
        }
    }
    counts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_calls_over_three_nodes_spend_exactly_the_balance() {
    let Some(cluster) = Cluster::new().await else {
        return;
    };
    let nodes = cluster.nodes(3, &[]).await;
    let credits = 150;
    let (account_id, key) = cluster.account("enterprise", credits).await;
    let base_urls: Vec<String> = nodes.iter().map(|node| node.base_url.clone()).collect();
    let counts = spread_calls(&base_urls, &key, 400, 24, |_| {}).await;
    assert_eq!(counts.get(&200), Some(&(credits as usize)), "{counts:?}");
    assert_eq!(counts.get(&402), Some(&(400 - credits as usize)), "{counts:?}");
    assert_eq!(cluster.assert_books_balance(account_id).await, (0, credits));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_node_killed_mid_load_loses_no_charge_and_reserves_nothing() {
    let Some(cluster) = Cluster::new().await else {
        return;
    };
    let mut nodes = cluster.nodes(3, &[]).await;
    let credits = 1_000;
    let (account_id, key) = cluster.account("enterprise", credits).await;
    let base_urls: Vec<String> = nodes.iter().map(|node| node.base_url.clone()).collect();
    let victim = nodes.pop().unwrap();
    let victim = Arc::new(std::sync::Mutex::new(Some(victim)));
    let killer = victim.clone();
    // The third node dies with SIGKILL after 120 answers, calls to it in flight.
    let counts = spread_calls(&base_urls, &key, 450, 24, move |answered| {
        if answered == 120
            && let Some(mut node) = killer.lock().unwrap().take()
        {
            node.kill();
        }
    })
    .await;
    assert!(victim.lock().unwrap().is_none(), "the node was killed mid-load");
    let (remaining, used) = cluster.assert_books_balance(account_id).await;
    let succeeded = *counts.get(&200).unwrap_or(&0) as i64;
    let unanswered = *counts.get(&0).unwrap_or(&0) as i64;
    assert!(succeeded <= used, "every answered call was charged: {counts:?}");
    assert!(
        used - succeeded <= 24,
        "only calls in flight on the killed node may be charged unanswered: {used} charged, {counts:?}"
    );
    eprintln!("killed node: {counts:?}, {used} charged, {remaining} left");
    assert!(unanswered > 0, "calls to the dead node fail: {counts:?}");

    // Nothing stays reserved: the survivors spend exactly what is left.
    let survivors: Vec<String> = nodes.iter().map(|node| node.base_url.clone()).collect();
    let counts = spread_calls(&survivors, &key, remaining as usize + 40, 12, |_| {}).await;
    assert_eq!(counts.get(&200), Some(&(remaining as usize)), "{counts:?}");
    assert_eq!(cluster.assert_books_balance(account_id).await, (0, credits));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_rate_limit_holds_for_the_account_across_nodes() {
    let Some(cluster) = Cluster::new().await else {
        return;
    };
    let nodes = cluster.nodes(3, &[("MARKETLENS_TIER_LIMITS", "shared=40")]).await;
    let (account_id, key) = cluster.account("shared", 1_000).await;
    let base_urls: Vec<String> = nodes.iter().map(|node| node.base_url.clone()).collect();
    // Within one UTC minute, so that the window cannot reset mid-test.
    let seconds = Utc::now().timestamp() % 60;
    if seconds > 45 {
        tokio::time::sleep(Duration::from_secs((61 - seconds) as u64)).await;
    }
    let counts = spread_calls(&base_urls, &key, 120, 12, |_| {}).await;
    assert_eq!(counts.get(&200), Some(&40), "{counts:?}");
    assert_eq!(counts.get(&429), Some(&80), "{counts:?}");
    assert_eq!(cluster.assert_books_balance(account_id).await, (960, 40));
}

/// The holder of the sync lease, if any.
async fn lease_holder(database_url: &str) -> Option<String> {
    use sqlx::Connection;
    let mut connection = sqlx::PgConnection::connect(database_url).await.unwrap();
    sqlx::query_scalar("SELECT holder FROM leases WHERE name = 'background-sync'")
        .fetch_optional(&mut connection)
        .await
        .unwrap()
}

/// Whether `node` holds the sync lease (the holder names its process).
async fn holds_lease(database_url: &str, node: &Node) -> bool {
    let pid = format!("pid {} ", node.child.id());
    lease_holder(database_url)
        .await
        .is_some_and(|holder| holder.starts_with(&pid))
}

async fn wait_for(what: &str, timeout: Duration, mut condition: impl AsyncFnMut() -> bool) {
    let started = Instant::now();
    while !condition().await {
        assert!(started.elapsed() < timeout, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_node_syncs_at_a_time_and_another_takes_over_when_it_stops() {
    let Some(cluster) = Cluster::new().await else {
        return;
    };
    let replay = marketlens_replay::ReplayServer::start(marketlens_replay::ReplayData::recorded());
    let (polymarket_url, kalshi_url) = (replay.polymarket_url(), replay.kalshi_url());
    let syncing = [
        ("MARKETLENS_POLYMARKET_URL", polymarket_url.as_str()),
        ("MARKETLENS_KALSHI_URL", kalshi_url.as_str()),
        ("MARKETLENS_POLYMARKET_RPS", "1000"),
        ("MARKETLENS_KALSHI_RPS", "1000"),
    ];
    let start_syncing_node =
        async || Node::start(&cluster.database.url, &cluster.redis_url, Syncing::On, &syncing).await;
    let first = start_syncing_node().await;
    wait_for(
        "the first node to take the lease",
        Duration::from_secs(20),
        async || holds_lease(&cluster.database.url, &first).await,
    )
    .await;
    let second = start_syncing_node().await;
    wait_for("the first node's sync", Duration::from_secs(60), async || {
        let status = cluster.store.sync_status(Exchange::Kalshi).await.unwrap();
        status.latest_success.is_some()
    })
    .await;
    assert!(cluster.store.catalog_counts().await.unwrap().kalshi_markets > 0);
    assert!(
        holds_lease(&cluster.database.url, &first).await,
        "the second node does not take a held lease"
    );

    // SIGTERM: the first node stops gracefully, releases the lease, the second takes it.
    terminate(first.child.id());
    let mut first = first;
    let exit = tokio::task::spawn_blocking(move || first.child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(exit.success());
    wait_for("the second node to take over", Duration::from_secs(20), async || {
        holds_lease(&cluster.database.url, &second).await
    })
    .await;
    drop(second);
}
