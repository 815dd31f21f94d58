//! The live stream's fan-out under load; `bench/stream.sh` runs both halves.
//!
//! `stream_load serve PORT UPDATES_PER_SECOND` serves the HTTP suite's synthetic catalogue
//! (`tests/http/seed.rs`) on 127.0.0.1:PORT with a stream hub over a synthetic feed, which
//! sends UPDATES_PER_SECOND price changes in all, spread evenly over the markets followed,
//! each stamped with the time it was made (as a connector stamps `received` when an
//! exchange's frame arrives). It prints `ready KEY MARKET_ID...` and serves until killed.
//!
//! `stream_load clients BASE_URL KEY SERVER_PID CLIENTS MARKETS_PER_CLIENT SECONDS MARKET_ID...`
//! opens CLIENTS WebSocket clients, subscribes each to MARKETS_PER_CLIENT of the markets (in
//! turn), lets them receive for SECONDS, and reports the delay from each price's stamp to its
//! receipt by the client (p50, p99, max), the messages received, sequence gaps, clients
//! closed, the server's resident memory per connection (its VmRSS before the clients
//! connect and once all are subscribed, over CLIENTS), and the CPU the server, this load
//! client and the whole machine used meanwhile (the two halves share the machine's cores, so
//! a busy client delays the receipts it measures). It prints `measuring` once every client
//! is subscribed, for `bench/stream.sh` to start its profiler at.

#[path = "../tests/http/seed.rs"]
mod seed;

use futures::{SinkExt, StreamExt};
use marketlens_api::stream::markets::WithoutTokens;
use marketlens_api::stream::{FeedOrigin, StreamHub, StreamSettings};
use marketlens_api::{ApiSettings, AppState};
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::rate_limit::{StreamTierTable, TierTable};
use marketlens_domain::stream::{LiveFeed, MarketChange, MarketUpdate, PriceTick, StreamMarket};
use marketlens_storage::NewAccount;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use uuid::Uuid;

#[tokio::main]
async fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let number = |index: usize| -> u64 {
        arguments
            .get(index)
            .and_then(|text| text.parse().ok())
            .unwrap_or_else(|| usage())
    };
    match arguments.first().map(String::as_str) {
        Some("serve") => serve(number(1) as u16, number(2)).await,
        Some("clients") if arguments.len() > 7 => {
            let load = Load {
                base_url: arguments[1].clone(),
                key: arguments[2].clone(),
                server_pid: number(3),
                clients: number(4) as usize,
                markets_per_client: number(5) as usize,
                seconds: number(6),
                markets: arguments[7..].to_vec(),
            };
            clients(load).await;
        }
        _ => usage(),
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: stream_load serve PORT UPDATES_PER_SECOND\n       \
         stream_load clients BASE_URL KEY SERVER_PID CLIENTS MARKETS_PER_CLIENT SECONDS MARKET_ID..."
    );
    std::process::exit(2)
}

/// Follows what it is told to and makes up each followed market's prices.
#[derive(Default)]
struct SyntheticFeed {
    followed: Mutex<Vec<Uuid>>,
}

impl LiveFeed for SyntheticFeed {
    fn follow(&self, market: &StreamMarket) {
        self.followed.lock().unwrap().push(market.id);
    }

    fn unfollow(&self, market: Uuid) {
        self.followed.lock().unwrap().retain(|followed| *followed != market);
    }
}

impl SyntheticFeed {
    /// Sends `per_second` updates a second in all, in ticks of 10 ms, to the markets followed
    /// in turn.
    async fn run(&self, per_second: u64, updates: mpsc::Sender<MarketUpdate>) {
        const TICKS_PER_SECOND: u64 = 100;
        let mut ticks = tokio::time::interval(Duration::from_millis(1000 / TICKS_PER_SECOND));
        let (mut sent, mut turn) = (0u64, 0usize);
        let started = tokio::time::Instant::now();
        loop {
            ticks.tick().await;
            let due = started.elapsed().as_millis() as u64 * per_second / 1000;
            let followed = self.followed.lock().unwrap().clone();
            if followed.is_empty() {
                sent = due;
                continue;
            }
            while sent < due {
                let now = chrono::Utc::now();
                let price = 0.01 + (sent % 98) as f64 / 100.0;
                let update = MarketUpdate {
                    market: followed[turn % followed.len()],
                    time: now,
                    received: now,
                    change: MarketChange::Price(PriceTick {
                        outcome: "Yes".into(),
                        price: Some(price),
                        last: Some(price),
                        best_bid: Some(price - 0.01),
                        best_ask: Some(price + 0.01),
                    }),
                };
                if updates.send(update).await.is_err() {
                    return;
                }
                sent += 1;
                turn += 1;
            }
        }
    }
}

async fn serve(port: u16, updates_per_second: u64) {
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", directory.path().join("stream-bench.db").display());
    let store = marketlens_storage::open(&url).await.unwrap();
    seed::catalogue(store.as_ref()).await;
    let new_account = NewAccount {
        label: "stream bench".into(),
        tier: "bench".into(),
        wallet_address: String::new(),
        initial_credits: 1_000_000_000,
    };
    let account = store.create_account(new_account, chrono::Utc::now()).await.unwrap();
    let key = ApiKey::generate(&mut rand::rng());
    store
        .create_key(account.id, key.hash(), "bench", chrono::Utc::now())
        .await
        .unwrap();
    let feed = Arc::new(SyntheticFeed::default());
    let (updates, received) = mpsc::channel(4096);
    let hub = StreamHub::start(feed.clone(), FeedOrigin::Exchanges, received, Arc::new(WithoutTokens));
    tokio::spawn(async move { feed.run(updates_per_second, updates).await });
    let settings = ApiSettings {
        tiers: TierTable::with_overrides("bench=1000000000").unwrap(),
        stream: StreamSettings {
            limits: StreamTierTable::with_overrides("bench=100000/1000").unwrap(),
            ..StreamSettings::default()
        },
        ..ApiSettings::default()
    };
    let state = AppState::new(store, settings).with_stream(hub);
    state.catalog.refresh().await.unwrap();
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
    let markets: Vec<String> = seed::SPECS
        .iter()
        .map(|spec| seed::market(spec).id().to_string())
        .collect();
    println!("ready {} {}", key.as_str(), markets.join(" "));
    let limits = marketlens_api::connections::ConnectionLimits {
        max_connections: 100_000,
        ..Default::default()
    };
    marketlens_api::connections::serve(listener, marketlens_api::app(state), std::future::pending(), limits)
        .await
        .unwrap();
}

struct Load {
    base_url: String,
    key: String,
    server_pid: u64,
    clients: usize,
    markets_per_client: usize,
    seconds: u64,
    markets: Vec<String>,
}

/// What a client reads of each message.
#[derive(Deserialize)]
struct Received {
    #[serde(rename = "type")]
    kind: String,
    seq: Option<u64>,
    market: Option<Uuid>,
    time: Option<chrono::DateTime<chrono::Utc>>,
}

/// One client's tally.
#[derive(Default)]
struct Tally {
    /// Delay of each price received while measuring, stamp to receipt, in microseconds (the
    /// stamp is sent to the millisecond, so a delay may read up to 1 ms long).
    delays: Vec<i64>,
    messages: u64,
    gaps: u64,
    closed: bool,
}

async fn clients(load: Load) {
    let rss_before = resident_kib(load.server_pid);
    let url = format!("{}/api/v1/stream", load.base_url.replacen("http", "ws", 1));
    let (subscribed, mut all_subscribed) = mpsc::channel::<()>(load.clients);
    let stop = tokio_util::sync::CancellationToken::new();
    let measuring = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::with_capacity(load.clients);
    for client in 0..load.clients {
        let markets: Vec<&String> = (0..load.markets_per_client)
            .map(|index| &load.markets[(client * load.markets_per_client + index) % load.markets.len()])
            .collect();
        let subscribe = serde_json::json!({"type": "subscribe", "markets": markets}).to_string();
        let auth = serde_json::json!({"type": "auth", "key": load.key}).to_string();
        let (mut socket, _) = tokio_tungstenite::connect_async(url.as_str()).await.unwrap();
        socket.send(Message::text(auth)).await.unwrap();
        socket.send(Message::text(subscribe)).await.unwrap();
        let (subscribed, stop, measuring) = (subscribed.clone(), stop.clone(), measuring.clone());
        let expected = load.markets_per_client;
        tasks.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            let mut last_seq: HashMap<Uuid, u64> = HashMap::new();
            let mut confirmed = 0;
            loop {
                let message = tokio::select! {
                    message = socket.next() => message,
                    () = stop.cancelled() => break,
                };
                let Some(Ok(Message::Text(text))) = message else {
                    tally.closed = true;
                    // Closed (too slow, at a loaded moment) before its subscriptions were
                    // confirmed: counted closed, rather than holding the run up for ever.
                    if confirmed < expected {
                        let _ = subscribed.send(()).await;
                    }
                    break;
                };
                let now = chrono::Utc::now();
                let received: Received = serde_json::from_str(&text).unwrap();
                tally.messages += 1;
                if received.kind == "subscribed" {
                    confirmed += 1;
                    if confirmed == expected {
                        let _ = subscribed.send(()).await;
                    }
                }
                if let (Some(seq), Some(market)) = (received.seq, received.market) {
                    let last = last_seq.insert(market, seq).unwrap_or(0);
                    tally.gaps += u64::from(seq != last + 1);
                }
                if let ("price", Some(time), true) =
                    (received.kind.as_str(), received.time, measuring.load(Ordering::Relaxed))
                {
                    tally.delays.push((now - time).num_microseconds().unwrap_or(i64::MAX));
                }
            }
            tally
        }));
    }
    for _ in 0..load.clients {
        all_subscribed.recv().await;
    }
    // Every client subscribed: from now on the load is whole, and counted.
    measuring.store(true, Ordering::Relaxed);
    let rss_subscribed = resident_kib(load.server_pid);
    println!("measuring");
    let started = tokio::time::Instant::now();
    let (server_before, client_before, machine_before) =
        (cpu_seconds(load.server_pid), own_cpu_seconds(), machine_busy_seconds());
    tokio::time::sleep(Duration::from_secs(load.seconds)).await;
    let server_cpu = cpu_seconds(load.server_pid) - server_before;
    let client_cpu = own_cpu_seconds() - client_before;
    let machine_cpu = machine_busy_seconds() - machine_before;
    stop.cancel();
    let elapsed = started.elapsed().as_secs_f64();
    let mut delays = Vec::new();
    let (mut messages, mut gaps, mut closed) = (0, 0, 0);
    for task in tasks {
        let tally = task.await.unwrap();
        delays.extend(tally.delays);
        messages += tally.messages;
        gaps += tally.gaps;
        closed += u64::from(tally.closed);
    }
    delays.sort_unstable();
    let percentile = |fraction: f64| {
        let index = ((delays.len() as f64 * fraction) as usize).min(delays.len().saturating_sub(1));
        delays.get(index).map_or(f64::NAN, |micros| *micros as f64 / 1000.0)
    };
    println!(
        "clients {} markets/client {} prices received {} ({:.0}/s over ~{elapsed:.1} s) messages {messages} gaps {gaps} closed {closed}",
        load.clients,
        load.markets_per_client,
        delays.len(),
        delays.len() as f64 / elapsed,
    );
    println!(
        "delay stamp->client ms (stamps to the ms): p50 {:.2} p99 {:.2} max {:.2}",
        percentile(0.50),
        percentile(0.99),
        percentile(1.0)
    );
    println!(
        "server rss KiB: before {rss_before} subscribed {rss_subscribed} per connection {:.1}",
        (rss_subscribed - rss_before) as f64 / load.clients as f64,
    );
    let cores = std::thread::available_parallelism().map_or(1, |cores| cores.get());
    println!(
        "cpu, % of a core: server {:.0} load client {:.0} machine {:.0} of {}",
        server_cpu / elapsed * 100.0,
        client_cpu / elapsed * 100.0,
        machine_cpu / elapsed * 100.0,
        cores * 100,
    );
}

/// The CPU time this process has used, user and system, in seconds.
fn own_cpu_seconds() -> f64 {
    cpu_seconds(u64::from(std::process::id()))
}

/// The CPU time the whole machine has spent busy (user, nice, system, irq, softirq, steal),
/// in seconds, from `/proc/stat`'s `cpu` line (clock ticks, 100 a second on Linux).
fn machine_busy_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let ticks: Vec<f64> = stat
        .lines()
        .find_map(|line| line.strip_prefix("cpu "))
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|field| field.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal: all but idle and iowait.
    [0, 1, 2, 5, 6, 7]
        .iter()
        .filter_map(|index| ticks.get(*index))
        .sum::<f64>()
        / 100.0
}

/// The CPU time a process has used, user and system, in seconds.
fn cpu_seconds(pid: u64) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's closing parenthesis: utime and stime are the 12th and
    // 13th, in clock ticks (100 a second on Linux).
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |index: usize| {
        fields
            .get(index)
            .and_then(|field| field.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// A process's resident memory, in KiB.
fn resident_kib(pid: u64) -> i64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
