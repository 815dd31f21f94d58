//! Faults met as operators meet them (issue 22 part 2), each injected under load into
//! `marketlens serve` processes, never into the machine's shared servers: PostgreSQL and Redis
//! behind a TCP proxy of the test's own ([`marketlens_testkit::proxy`]) that resets or slows
//! their connections (or cuts one just after a charge's `COMMIT` got through), a SQLite store
//! on a small tmpfs filled up, a PostgreSQL database of the test's own made read-only.
//!
//! Each prints, per second, the statuses answered, then the time to the first 503, readiness
//! during and after the fault, the time to recover and the books, and asserts what the service
//! promises (`docs/API.md`, "When the store or Redis is away"): no call is answered 500 or left
//! unanswered, a call needing an absent store is answered 503 at once and uncharged, a call
//! answered 200 is charged and a call charged is answered 200 (credits used = 200s), readiness
//! says not ready while the store is away and ready once it is back. Bounds are generous: the
//! machine running them is small and busy.

use super::*;
use marketlens_testkit::proxy::{Fault, FaultProxy};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Concurrent clients of the load.
const CLIENTS: usize = 8;
/// The nodes' request timeout in these tests.
const REQUEST_TIMEOUT_SECS: &str = "3";
/// Load before the fault.
const WARM_UP: Duration = Duration::from_secs(2);
/// The longest the load goes on after the fault heals, waiting for the node to recover.
const RECOVERY_WAIT: Duration = Duration::from_secs(12);
/// The longest the books are waited for after the load, while nodes settle the charges the
/// fault cut mid-commit.
const SETTLE_WAIT: Duration = Duration::from_secs(10);
/// Load after the first success that follows the heal.
const AFTER_RECOVERY: Duration = Duration::from_secs(2);

/// One call: when it was sent (from the start of the load), how long it took, its status (0:
/// no answer).
#[derive(Clone, Copy)]
struct CallRecord {
    sent: Duration,
    latency: Duration,
    status: u16,
}

impl CallRecord {
    fn answered(&self) -> Duration {
        self.sent + self.latency
    }
}

/// One readiness sample of a node.
#[derive(Clone)]
struct ReadySample {
    node: usize,
    sent: Duration,
    latency: Duration,
    status: u16,
    body: String,
}

/// What the load saw around one fault.
struct Observed {
    calls: Vec<CallRecord>,
    readiness: Vec<ReadySample>,
    fault_at: Duration,
    healed_at: Duration,
    nodes: usize,
}

/// Runs list calls (1 credit each) from [`CLIENTS`] clients over `base_urls`, sampling each
/// node's `/readyz` every 100 ms; `inject` starts the fault after [`WARM_UP`], `heal` ends it
/// `fault_for` later; the load goes on until the calls succeed again (at most
/// [`RECOVERY_WAIT`]), then [`AFTER_RECOVERY`] more.
async fn under_load(
    base_urls: &[String],
    key: &ApiKey,
    fault_for: Duration,
    inject: impl AsyncFnOnce(),
    heal: impl AsyncFnOnce(),
) -> Observed {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let started = Instant::now();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let calls = Arc::new(Mutex::new(Vec::new()));
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..CLIENTS {
        let (client, stop, calls, next) = (client.clone(), stop.clone(), calls.clone(), next.clone());
        let (base_urls, key) = (base_urls.to_vec(), key.as_str().to_owned());
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let url = format!("{}/api/v1/markets?limit=2", base_urls[index % base_urls.len()]);
                let sent = started.elapsed();
                let status = match client.get(url).bearer_auth(&key).send().await {
                    Ok(response) => response.status().as_u16(),
                    Err(_) => 0,
                };
                let record = CallRecord {
                    sent,
                    latency: started.elapsed() - sent,
                    status,
                };
                calls.lock().unwrap().push(record);
                // A little air between calls: the machine also runs the nodes and PostgreSQL.
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        }));
    }
    let readiness = Arc::new(Mutex::new(Vec::new()));
    for (node, base_url) in base_urls.iter().enumerate() {
        let (client, stop, readiness, url) = (
            client.clone(),
            stop.clone(),
            readiness.clone(),
            format!("{base_url}/readyz"),
        );
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let sent = started.elapsed();
                let (status, body) = match client.get(&url).send().await {
                    Ok(response) => (response.status().as_u16(), response.text().await.unwrap_or_default()),
                    Err(_) => (0, String::new()),
                };
                let sample = ReadySample {
                    node,
                    sent,
                    latency: started.elapsed() - sent,
                    status,
                    body,
                };
                readiness.lock().unwrap().push(sample);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }));
    }
    tokio::time::sleep(WARM_UP).await;
    let fault_at = started.elapsed();
    inject().await;
    tokio::time::sleep(fault_for).await;
    let healed_at = started.elapsed();
    heal().await;
    let healed = Instant::now();
    loop {
        let recovered = calls
            .lock()
            .unwrap()
            .iter()
            .any(|call| call.sent >= healed_at && call.status == 200);
        if recovered || healed.elapsed() > RECOVERY_WAIT {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(AFTER_RECOVERY).await;
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.await.unwrap();
    }
    let calls = calls.lock().unwrap().clone();
    let readiness = readiness.lock().unwrap().clone();
    Observed {
        calls,
        readiness,
        fault_at,
        healed_at,
        nodes: base_urls.len(),
    }
}

impl Observed {
    /// Answers by status.
    fn statuses(&self) -> BTreeMap<u16, usize> {
        let mut counts = BTreeMap::new();
        for call in &self.calls {
            *counts.entry(call.status).or_default() += 1;
        }
        counts
    }

    fn successes(&self) -> i64 {
        self.calls.iter().filter(|call| call.status == 200).count() as i64
    }

    /// From the fault to the first 503 answered.
    fn first_503(&self) -> Option<Duration> {
        self.calls
            .iter()
            .filter(|call| call.status == 503 && call.answered() >= self.fault_at)
            .map(|call| call.answered() - self.fault_at)
            .min()
    }

    /// From the heal to the last answer that was not a 200.
    fn recovery(&self) -> Duration {
        self.calls
            .iter()
            .filter(|call| call.status != 200 && call.answered() >= self.healed_at)
            .map(|call| call.answered() - self.healed_at)
            .max()
            .unwrap_or_default()
    }

    /// The calls sent during the fault, from `settle` after it began.
    fn during(&self, settle: Duration) -> Vec<CallRecord> {
        self.calls
            .iter()
            .filter(|call| call.sent >= self.fault_at + settle && call.sent < self.healed_at)
            .copied()
            .collect()
    }

    /// Per node: from the fault to the first not-ready answer of `/readyz`.
    fn not_ready_after(&self) -> Vec<Option<Duration>> {
        (0..self.nodes)
            .map(|node| {
                self.readiness
                    .iter()
                    .filter(|sample| sample.node == node && sample.status == 503 && sample.sent >= self.fault_at)
                    .map(|sample| sample.sent + sample.latency - self.fault_at)
                    .min()
            })
            .collect()
    }

    /// Per node: from the heal to the first ready answer after the last not-ready one.
    fn ready_again_after(&self) -> Vec<Option<Duration>> {
        (0..self.nodes)
            .map(|node| {
                let samples: Vec<&ReadySample> = self
                    .readiness
                    .iter()
                    .filter(|sample| sample.node == node && sample.sent >= self.healed_at)
                    .collect();
                let last_not_ready = samples.iter().rposition(|sample| sample.status != 200);
                let first_ready = match last_not_ready {
                    Some(position) => samples.get(position + 1),
                    None => samples.first(),
                };
                first_ready
                    .filter(|sample| sample.status == 200)
                    .map(|sample| (sample.sent + sample.latency).saturating_sub(self.healed_at))
            })
            .collect()
    }

    /// The readiness messages seen during the fault, each once.
    fn not_ready_reasons(&self) -> Vec<String> {
        let mut reasons: Vec<String> = self
            .readiness
            .iter()
            .filter(|sample| sample.status != 200 && sample.sent >= self.fault_at && sample.sent < self.healed_at)
            .map(|sample| {
                serde_json::from_str::<serde_json::Value>(&sample.body)
                    .ok()
                    .and_then(|body| body["error"]["message"].as_str().map(str::to_owned))
                    .unwrap_or_else(|| format!("status {}", sample.status))
            })
            .map(|message| message.split(" (").next().unwrap_or_default().to_owned())
            .collect();
        reasons.sort();
        reasons.dedup();
        reasons
    }

    fn slowest_readiness(&self) -> Duration {
        self.readiness
            .iter()
            .map(|sample| sample.latency)
            .max()
            .unwrap_or_default()
    }

    /// Prints what was seen, in the terms.
    fn report(&self, name: &str, books: &Books) {
        let seconds = |duration: Option<Duration>| {
            duration.map_or_else(
                || "never".to_owned(),
                |duration| format!("{:.2} s", duration.as_secs_f64()),
            )
        };
        eprintln!(
            "== fault: {name}: {CLIENTS} clients over {} node(s), fault from {:.1} s to {:.1} s",
            self.nodes,
            self.fault_at.as_secs_f64(),
            self.healed_at.as_secs_f64()
        );
        let mut per_second: BTreeMap<u64, BTreeMap<u16, usize>> = BTreeMap::new();
        for call in &self.calls {
            *per_second
                .entry(call.answered().as_secs())
                .or_default()
                .entry(call.status)
                .or_default() += 1;
        }
        let mut ready_per_second: BTreeMap<u64, BTreeMap<u16, usize>> = BTreeMap::new();
        for sample in &self.readiness {
            *ready_per_second
                .entry((sample.sent + sample.latency).as_secs())
                .or_default()
                .entry(sample.status)
                .or_default() += 1;
        }
        for (second, counts) in &per_second {
            let marker = if (self.fault_at.as_secs()..self.healed_at.as_secs()).contains(second) {
                "fault"
            } else {
                ""
            };
            let ready = ready_per_second.get(second).cloned().unwrap_or_default();
            eprintln!("   {second:>3} s calls {counts:?}, /readyz {ready:?} {marker}");
        }
        let mut latencies: Vec<Duration> = self
            .during(Duration::from_secs(1))
            .iter()
            .map(|call| call.latency)
            .collect();
        latencies.sort();
        let percentile = |share: f64| {
            latencies
                .get(((latencies.len() as f64 * share) as usize).min(latencies.len().saturating_sub(1)))
                .map_or(0.0, |latency| latency.as_secs_f64() * 1000.0)
        };
        eprintln!(
            "   calls {} {:?}; during the fault (from 1 s in): p50 {:.0} ms, p95 {:.0} ms, max {:.0} ms",
            self.calls.len(),
            self.statuses(),
            percentile(0.5),
            percentile(0.95),
            percentile(1.0)
        );
        eprintln!(
            "   first 503 after {}; readiness not ready after {:?}, ready again {:?} after the heal (slowest /readyz {:.0} ms): {:?}",
            seconds(self.first_503()),
            self.not_ready_after().into_iter().map(seconds).collect::<Vec<_>>(),
            self.ready_again_after().into_iter().map(seconds).collect::<Vec<_>>(),
            self.slowest_readiness().as_secs_f64() * 1000.0,
            self.not_ready_reasons()
        );
        eprintln!(
            "   recovered {:.2} s after the heal; books: {} credits used, {} calls paid ({} charges given back), {} calls answered 200",
            self.recovery().as_secs_f64(),
            books.used,
            books.calls_paid,
            books.refunds,
            self.successes()
        );
    }

    /// The account's books once its node has settled the charges cut mid-commit: it asks the
    /// store about them, and gives back those it finds taken, within a second or two of the
    /// store answering again. Read as soon as credits used equal the calls answered 200, or
    /// after [`SETTLE_WAIT`] (then [`Observed::assert_kept`] says what is wrong).
    async fn settled_books(&self, store: &dyn Store, account_id: Uuid) -> Books {
        books_once(store, account_id, |books| books.used == self.successes()).await
    }

    /// What every fault must keep: every call answered, 200 or 503 and nothing else (no 500),
    /// charged exactly when answered 200, and the node serving again after the heal.
    ///
    /// A call whose batch's `COMMIT` reached the server just as the connection was cut is
    /// answered 503 and, once its node settles the batch with the store, given back: `books`
    /// are read when that is done ([`Observed::settled_books`]).
    fn assert_kept(&self, books: &Books) {
        let statuses = self.statuses();
        assert!(
            statuses.keys().all(|status| [200, 503].contains(status)),
            "only 200 and 503: {statuses:?}"
        );
        assert_eq!(books.used, self.successes(), "credits used = calls answered 200");
        assert_eq!(
            books.calls_paid as i64, books.used,
            "one charge line per call answered 200"
        );
        assert!(
            self.calls
                .iter()
                .any(|call| call.sent > self.healed_at && call.status == 200),
            "serves again after the heal"
        );
        assert!(self.recovery() < Duration::from_secs(8), "recovers within seconds");
    }

    /// What a fault that takes the store away must also show: a first 503 within 2 s, the
    /// calls of the outage answered fast, readiness not ready within 2 s and ready after, and
    /// `/readyz` always answered within its own short timeout.
    fn assert_store_away_met(&self) {
        let first = self.first_503().expect("calls are answered 503 during the outage");
        assert!(first < Duration::from_secs(2), "first 503 after {first:?}");
        let mut latencies: Vec<Duration> = self
            .during(Duration::from_secs(2))
            .iter()
            .map(|call| call.latency)
            .collect();
        latencies.sort();
        let p95 = latencies[latencies.len() * 95 / 100];
        assert!(
            p95 < Duration::from_secs(1),
            "the outage's calls are answered fast: p95 {p95:?}"
        );
        for (node, not_ready) in self.not_ready_after().into_iter().enumerate() {
            let not_ready = not_ready.unwrap_or_else(|| panic!("node {node}: /readyz never said not ready"));
            assert!(
                not_ready < Duration::from_secs(2),
                "node {node}: not ready after {not_ready:?}"
            );
        }
        self.assert_ready_after();
    }

    fn assert_ready_after(&self) {
        for (node, ready) in self.ready_again_after().into_iter().enumerate() {
            assert!(ready.is_some(), "node {node}: /readyz ready again after the heal");
        }
        assert!(
            self.slowest_readiness() < Duration::from_secs(4),
            "/readyz answers within its own timeout: {:?}",
            self.slowest_readiness()
        );
    }
}

/// Options of every node of these tests.
const NODE_ENV: [(&str, &str); 2] = [
    ("MARKETLENS_REQUEST_TIMEOUT_SECS", REQUEST_TIMEOUT_SECS),
    ("MARKETLENS_TIER_LIMITS", "unlimited=1000000"),
];

/// A client that waits longer than any node's request timeout.
fn patient_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

/// One paid call (a page of markets) to the node at `base_url`: its status and how long it took.
async fn paid_call(client: &reqwest::Client, base_url: &str, key: &ApiKey) -> (u16, Duration) {
    let sent = Instant::now();
    let response = client
        .get(format!("{base_url}/api/v1/markets?limit=2"))
        .bearer_auth(key.as_str())
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), sent.elapsed())
}

/// The account's books as soon as `settled` holds of them, or after [`SETTLE_WAIT`] (then the
/// caller's assertions say what is wrong): nodes settle charges cut mid-commit in the
/// background.
async fn books_once(store: &dyn Store, account_id: Uuid, settled: impl Fn(&Books) -> bool) -> Books {
    let given_up_at = Instant::now() + SETTLE_WAIT;
    loop {
        let books = Books::of(store, account_id).await;
        if settled(&books) || Instant::now() > given_up_at {
            return books;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// PostgreSQL unreachable for 10 s under two nodes' load (nothing gets through, connections
/// hang: the fault that made every call wait for the pool before the breaker), then back.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_unreachable_for_ten_seconds() {
    let Some(cluster) = Cluster::new().await else {
        return;
    };
    let (proxy, proxied_url) = FaultProxy::in_front_of(&cluster.database.url, 5432).await;
    let mut nodes = Vec::new();
    for _ in 0..2 {
        nodes.push(Node::start_on(&proxied_url, Some(&cluster.redis_url), Syncing::Off, &NODE_ENV).await);
    }
    let (account_id, key) = cluster.account("unlimited", 1_000_000).await;
    let base_urls: Vec<String> = nodes.iter().map(|node| node.base_url.clone()).collect();
    let observed = under_load(
        &base_urls,
        &key,
        Duration::from_secs(10),
        async || proxy.set(Fault::Blackhole),
        async || proxy.set(Fault::None),
    )
    .await;
    let books = observed.settled_books(cluster.store.as_ref(), account_id).await;
    observed.report("PostgreSQL unreachable (packets dropped)", &books);
    // Nothing is cut: a charge whose commit is held arrives when the fault heals; its call was
    // answered 503 a second past its deadline, so the charge is then given back.
    observed.assert_kept(&books);
    observed.assert_store_away_met();
}

/// PostgreSQL gone for 5 s (every connection reset, new ones refused, as when it restarts),
/// then back.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_gone_and_back() {
    let Some(cluster) = Cluster::new().await else {
        return;
    };
    let (proxy, proxied_url) = FaultProxy::in_front_of(&cluster.database.url, 5432).await;
    let node = Node::start_on(&proxied_url, Some(&cluster.redis_url), Syncing::Off, &NODE_ENV).await;
    let (account_id, key) = cluster.account("unlimited", 1_000_000).await;
    let observed = under_load(
        std::slice::from_ref(&node.base_url),
        &key,
        Duration::from_secs(5),
        async || proxy.set(Fault::Down),
        async || proxy.set(Fault::None),
    )
    .await;
    let books = observed.settled_books(cluster.store.as_ref(), account_id).await;
    observed.report("PostgreSQL gone (connections reset)", &books);
    observed.assert_kept(&books);
    observed.assert_store_away_met();
}

/// A charge's `COMMIT` that reaches PostgreSQL just as the connection is cut: the node cannot
/// tell from the error whether the charge was taken (it was), so it settles the batch with the
/// store. If the store answers again at once, the call is answered 200 with its charge; if the
/// store stays away past the call's deadline, the call is answered 503 and, once the store is
/// back, its charge is given back. Either way: paid for if and only if answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_charge_whose_commit_is_cut_is_settled_with_the_store() {
    let Some(cluster) = Cluster::new().await else {
        return;
    };
    let (proxy, proxied_url) = FaultProxy::in_front_of(&cluster.database.url, 5432).await;
    let node = Node::start_on(&proxied_url, Some(&cluster.redis_url), Syncing::Off, &NODE_ENV).await;
    let (account_id, key) = cluster.account("unlimited", 1_000).await;
    let client = patient_client();
    let call = async || paid_call(&client, &node.base_url, &key).await.0;
    let mut answered_200 = 0;
    for _ in 0..3 {
        assert_eq!(call().await, 200, "before the fault");
        answered_200 += 1;
    }

    // The store answers again at once: the cut call is settled before its deadline.
    proxy.set(Fault::CutNextLedgerCommit {
        then_down: false,
        held: Duration::ZERO,
    });
    for _ in 0..20 {
        assert_eq!(
            call().await,
            200,
            "a call whose charge's commit was cut is answered with it"
        );
        answered_200 += 1;
        if proxy.commits_cut() == 1 {
            break;
        }
    }
    assert_eq!(proxy.commits_cut(), 1, "a charge's COMMIT was cut");
    let books = cluster.books(account_id).await;
    assert_eq!(
        (books.used, books.calls_paid, books.refunds),
        (answered_200, answered_200 as u64, 0)
    );

    // The failed commit tripped the store's breaker for a moment: wait until calls go through.
    let mut through = false;
    for _ in 0..100 {
        if call().await == 200 {
            answered_200 += 1;
            through = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(through, "the node serves again after the cut");

    // The store stays away past the deadline: the cut call is answered 503, then given back.
    proxy.set(Fault::CutNextLedgerCommit {
        then_down: true,
        held: Duration::ZERO,
    });
    let mut answered_503 = 0;
    for _ in 0..20 {
        match call().await {
            200 => answered_200 += 1,
            503 => answered_503 += 1,
            status => panic!("only 200 or 503, not {status}"),
        }
        if proxy.commits_cut() == 2 {
            break;
        }
    }
    assert_eq!(proxy.commits_cut(), 2, "a second charge's COMMIT was cut");
    assert_eq!(answered_503, 1, "the cut call is answered 503 once its deadline passed");
    tokio::time::sleep(Duration::from_secs(2)).await;
    proxy.set(Fault::None);
    let books = books_once(cluster.store.as_ref(), account_id, |books| books.refunds == 1).await;
    eprintln!(
        "commit cut: {answered_200} calls answered 200, {answered_503} answered 503; books: {} credits used, {} calls paid, {} charges given back",
        books.used, books.calls_paid, books.refunds
    );
    assert_eq!(books.refunds, 1, "the charge of the call answered 503 is given back");
    assert_eq!((books.used, books.calls_paid), (answered_200, answered_200 as u64));
}

/// A charge whose `COMMIT` is cut as its database turns read-only, as in a failover: the
/// session that charged was writable, the next one is not. A read-only store cannot settle
/// the charge within a call's time, so its call is answered 503 at once, not at its deadline;
/// once the store takes writes again the charge is settled and, taken, given back.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_charge_cut_as_its_store_turns_read_only_is_answered_at_once() {
    let Some(database) = OwnDatabase::create().await else {
        eprintln!("note: no PostgreSQL configured: the read-only cut test is skipped");
        return;
    };
    let store = crate::open(&database.url).await;
    store
        .upsert(&[market("1"), market("2")], &[], Utc::now())
        .await
        .unwrap();
    let (account_id, key) = account_in(store.as_ref(), "unlimited", 1_000).await;
    let (proxy, proxied_url) = FaultProxy::in_front_of(&database.url, 5432).await;
    let node = Node::start_on(&proxied_url, None, Syncing::Off, &NODE_ENV).await;
    let client = patient_client();
    let call = async || paid_call(&client, &node.base_url, &key).await;
    for _ in 0..3 {
        assert_eq!(call().await.0, 200, "before the fault");
    }

    // The next charge's COMMIT is held, its transaction open, while the database turns
    // read-only and every other session ends: the one that settles the charge is read-only.
    let held = Duration::from_secs(2);
    proxy.set(Fault::CutNextLedgerCommit { then_down: false, held });
    let cut_call = call();
    let failover = async {
        database.await_open_charge().await;
        database.set_read_only(true, Sparing::OpenTransactions).await;
    };
    let ((status, took), ()) = tokio::join!(cut_call, failover);
    assert_eq!(proxy.commits_cut(), 1, "the call's COMMIT was cut");
    assert_eq!(status, 503, "a call whose charge cannot be settled is answered 503");
    let deadline = Duration::from_secs(REQUEST_TIMEOUT_SECS.parse().unwrap());
    assert!(
        took < held + Duration::from_millis(500),
        "answered once the store was found read-only, not at its deadline ({deadline:?} and a grace): {took:?}"
    );

    database.set_read_only(false, Sparing::None).await;
    let books = books_once(store.as_ref(), account_id, |books| books.refunds == 1).await;
    drop(node);
    eprintln!(
        "commit cut as the store turned read-only: answered {status} after {took:?}; books: {} credits used, {} calls paid, {} charges given back",
        books.used, books.calls_paid, books.refunds
    );
    assert_eq!(books.refunds, 1, "the cut charge, taken, is given back");
    assert_eq!(
        (books.used, books.calls_paid),
        (3, 3),
        "paid for the three calls answered 200"
    );
}

/// PostgreSQL answering slowly (every reply held 120 ms, the slow bound 60 ms) for 6 s: calls
/// are answered within the request timeout (200, or 503 uncharged when their time ran out)
/// and readiness says the store is too slow.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_answering_slowly() {
    let Some(cluster) = Cluster::new().await else {
        return;
    };
    let (proxy, proxied_url) = FaultProxy::in_front_of(&cluster.database.url, 5432).await;
    let mut env = NODE_ENV.to_vec();
    env.push(("MARKETLENS_STORE_SLOW_MS", "60"));
    let node = Node::start_on(&proxied_url, Some(&cluster.redis_url), Syncing::Off, &env).await;
    let (account_id, key) = cluster.account("unlimited", 1_000_000).await;
    let observed = under_load(
        std::slice::from_ref(&node.base_url),
        &key,
        Duration::from_secs(6),
        async || proxy.set(Fault::SlowReplies(Duration::from_millis(120))),
        async || proxy.set(Fault::None),
    )
    .await;
    let books = observed.settled_books(cluster.store.as_ref(), account_id).await;
    observed.report("PostgreSQL slow (replies held 120 ms)", &books);
    observed.assert_kept(&books);
    let reasons = observed.not_ready_reasons();
    assert!(
        reasons.iter().any(|reason| reason.contains("too slowly")),
        "readiness says the store is too slow: {reasons:?}"
    );
    observed.assert_ready_after();
    // The request timeout bounds every answer: its 3 s, plus one charge's transaction begun
    // just before it (a few replies, each held 120 ms).
    let slowest = observed.calls.iter().map(|call| call.latency).max().unwrap();
    assert!(slowest < Duration::from_secs(6), "slowest answer {slowest:?}");
}

/// Redis gone for 5 s: every call is still answered 200, counted per node without trying
/// Redis first, and the limiter is shared again once Redis is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn redis_unreachable() {
    let Some(cluster) = Cluster::new().await else {
        return;
    };
    let (proxy, proxied_url) = FaultProxy::in_front_of(&cluster.redis_url, 6379).await;
    let node = Node::start_on(&cluster.database.url, Some(&proxied_url), Syncing::Off, &NODE_ENV).await;
    let (account_id, key) = cluster.account("unlimited", 1_000_000).await;
    let observed = under_load(
        std::slice::from_ref(&node.base_url),
        &key,
        Duration::from_secs(5),
        async || proxy.set(Fault::Down),
        async || proxy.set(Fault::None),
    )
    .await;
    let books = observed.settled_books(cluster.store.as_ref(), account_id).await;
    observed.report("Redis unreachable", &books);
    observed.assert_kept(&books);
    assert_eq!(
        observed.statuses().keys().collect::<Vec<_>>(),
        [&200],
        "every call answered"
    );
    let shared = |sample: &ReadySample| {
        serde_json::from_str::<serde_json::Value>(&sample.body).ok()?["rateLimiter"]["shared"].as_bool()
    };
    let during: Vec<Option<bool>> = observed
        .readiness
        .iter()
        .filter(|sample| sample.sent > observed.fault_at + Duration::from_secs(1) && sample.sent < observed.healed_at)
        .map(shared)
        .collect();
    assert!(
        during.contains(&Some(false)),
        "readiness says the limiter counts per node: {during:?}"
    );
    assert_eq!(
        observed.readiness.last().and_then(shared),
        Some(true),
        "shared again after the heal"
    );
    // Throughput: calls per second before the fault and during it.
    let rate = |from: Duration, to: Duration| {
        let calls = observed
            .calls
            .iter()
            .filter(|call| call.sent >= from && call.sent < to)
            .count();
        calls as f64 / (to - from).as_secs_f64()
    };
    let before = rate(Duration::from_millis(500), observed.fault_at);
    let during = rate(observed.fault_at + Duration::from_secs(1), observed.healed_at);
    eprintln!("   throughput: {before:.0} calls/s before the outage, {during:.0} during it");
    assert!(
        during > before * 0.4,
        "an outage of Redis costs the per-node fallback, not the throughput: {before:.0} then {during:.0} calls/s"
    );
}

/// A tmpfs of the test's own (it needs root; skipped with a note where mounting fails),
/// unmounted when dropped.
struct SmallDisk {
    directory: tempfile::TempDir,
}

impl SmallDisk {
    fn mount(size: &str) -> Option<SmallDisk> {
        let directory = tempfile::tempdir().unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(directory.path())
            .stderr(Stdio::null())
            .status();
        if !mounted.is_ok_and(|status| status.success()) {
            eprintln!("note: cannot mount a tmpfs here (not root?): the full-disk test is skipped");
            return None;
        }
        Some(SmallDisk { directory })
    }

    fn path(&self) -> &std::path::Path {
        self.directory.path()
    }

    /// Fills the disk with a file of zeros, up to its last byte.
    fn fill(&self) {
        use std::io::Write;
        let mut filler = std::fs::File::create(self.path().join("filler")).unwrap();
        let block = vec![0u8; 64 * 1024];
        while filler.write_all(&block).is_ok() {}
        let small = [0u8; 512];
        while filler.write_all(&small).is_ok() {}
        let _ = filler.sync_all();
    }

    fn free(&self) {
        std::fs::remove_file(self.path().join("filler")).unwrap();
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(self.directory.path())
            .status();
    }
}

/// A SQLite store whose disk fills up while it serves: charged calls fail cleanly (503,
/// uncharged), the file stays whole (`PRAGMA integrity_check`), and the node serves again
/// once space returns.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_on_a_full_disk() {
    let Some(disk) = SmallDisk::mount("64m") else {
        return;
    };
    let database_url = format!("sqlite://{}", disk.path().join("marketlens.db").display());
    let (account_id, key) = {
        let store = crate::open(&database_url).await;
        store
            .upsert(&[market("1"), market("2")], &[], Utc::now())
            .await
            .unwrap();
        account_in(store.as_ref(), "unlimited", 1_000_000).await
    };
    let node = Node::start_on(&database_url, None, Syncing::Off, &NODE_ENV).await;
    let observed = under_load(
        std::slice::from_ref(&node.base_url),
        &key,
        Duration::from_secs(5),
        async || disk.fill(),
        async || disk.free(),
    )
    .await;
    let store = crate::open(&database_url).await;
    let books = observed.settled_books(store.as_ref(), account_id).await;
    drop(node);
    observed.report("SQLite disk full", &books);
    observed.assert_kept(&books);
    let integrity: String = {
        use sqlx::Connection;
        let mut connection = sqlx::SqliteConnection::connect(&database_url).await.unwrap();
        sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(&mut connection)
            .await
            .unwrap()
    };
    eprintln!("   PRAGMA integrity_check: {integrity}");
    assert_eq!(integrity, "ok");
    assert!(
        observed.statuses().contains_key(&503),
        "the full disk was met: {:?}",
        observed.statuses()
    );
}

/// A PostgreSQL database of the test's own, dropped when this is dropped.
/// Which sessions [`OwnDatabase::set_read_only`] leaves open.
enum Sparing {
    None,
    OpenTransactions,
}

struct OwnDatabase {
    server_url: String,
    name: String,
    url: String,
}

impl OwnDatabase {
    async fn create() -> Option<OwnDatabase> {
        let server_url = std::env::var(marketlens_testkit::DATABASE_URL_VARIABLE).ok()?;
        let name = format!("marketlens_faults_{}", Uuid::new_v4().simple());
        admin(&server_url, &format!("CREATE DATABASE {name}")).await;
        let mut url = url::Url::parse(&server_url).unwrap();
        url.set_path(&name);
        Some(OwnDatabase {
            server_url,
            name,
            url: url.to_string(),
        })
    }

    /// Makes the database's sessions read-only (`on`) or not, from its next connections on,
    /// and ends its current connections, as a failover to a standby does; with
    /// [`Sparing::OpenTransactions`], not those inside a transaction.
    async fn set_read_only(&self, read_only: bool, sparing: Sparing) {
        let setting = if read_only {
            format!("ALTER DATABASE {} SET default_transaction_read_only = on", self.name)
        } else {
            format!("ALTER DATABASE {} RESET default_transaction_read_only", self.name)
        };
        admin(&self.server_url, &setting).await;
        let spared = match sparing {
            Sparing::None => "",
            Sparing::OpenTransactions => " AND state <> 'idle in transaction'",
        };
        admin(
            &self.server_url,
            &format!(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{}'{spared}",
                self.name
            ),
        )
        .await;
    }

    /// Waits until a session of the database has waited inside its transaction for longer
    /// than any statement of a charge takes: the charge whose `COMMIT` is held.
    async fn await_open_charge(&self) {
        use sqlx::Connection;
        let mut connection = sqlx::PgConnection::connect(&self.server_url).await.unwrap();
        let statement = format!(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '{}' AND state = 'idle in transaction' \
             AND state_change < clock_timestamp() - interval '300 milliseconds'",
            self.name
        );
        for _ in 0..200 {
            let (open,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(statement.clone()))
                .fetch_one(&mut connection)
                .await
                .unwrap();
            if open > 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("no charge's transaction was seen open");
    }
}

impl Drop for OwnDatabase {
    fn drop(&mut self) {
        let (server_url, statement) = (
            self.server_url.clone(),
            format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
        let _ = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(admin(&server_url, &statement));
        })
        .join();
    }
}

/// Runs one statement on the server's maintenance connection.
async fn admin(server_url: &str, statement: &str) {
    use sqlx::Connection;
    let mut connection = sqlx::PgConnection::connect(server_url).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(statement.to_owned()))
        .execute(&mut connection)
        .await
        .unwrap();
}

/// A PostgreSQL database made read-only while a node serves it (its sessions become
/// read-only, as after a failover to a standby): charged calls are refused 503 uncharged and
/// readiness says the store is read-only; writable again, the node serves again.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_made_read_only_while_serving() {
    let Some(database) = OwnDatabase::create().await else {
        eprintln!("note: no PostgreSQL configured: the read-only test is skipped");
        return;
    };
    let (account_id, key) = {
        let store = crate::open(&database.url).await;
        store
            .upsert(&[market("1"), market("2")], &[], Utc::now())
            .await
            .unwrap();
        account_in(store.as_ref(), "unlimited", 1_000_000).await
    };
    let node = Node::start_on(&database.url, None, Syncing::Off, &NODE_ENV).await;
    let observed = under_load(
        std::slice::from_ref(&node.base_url),
        &key,
        Duration::from_secs(5),
        async || database.set_read_only(true, Sparing::None).await,
        async || database.set_read_only(false, Sparing::None).await,
    )
    .await;
    let store = crate::open(&database.url).await;
    // Read while the node runs: it settles the charges that ending its sessions cut mid-commit.
    let books = observed.settled_books(store.as_ref(), account_id).await;
    drop(node);
    observed.report("PostgreSQL read-only", &books);
    observed.assert_kept(&books);
    let reasons = observed.not_ready_reasons();
    assert!(
        reasons.iter().any(|reason| reason.contains("read-only")),
        "readiness says the store is read-only: {reasons:?}"
    );
    observed.assert_store_away_met();
}
