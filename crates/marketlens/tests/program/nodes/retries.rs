//! The client's side of idempotency keys (issue 22 part 3): clients that retry every call
//! that failed or timed out, with its key, on another live node, while nodes are SIGKILLed and
//! restarted under them, end having paid exactly once for each distinct call they made.

use super::*;
use reqwest::StatusCode;
use std::sync::Mutex;

/// Nodes serving at once.
const NODES: usize = 3;
/// Concurrent clients, and the distinct calls each makes one after the other.
const CLIENTS: usize = 8;
const CALLS_PER_CLIENT: usize = 150;
/// A client's pause between two calls, so that the load spans several kills.
const PAUSE: Duration = Duration::from_millis(25);
/// The nodes' request timeout: a claim held by a killed node lapses after it plus the margins
/// (`marketlens_api::idempotency::lease`, 17 s here), so that its call's retries get through.
const REQUEST_TIMEOUT_SECS: &str = "2";
/// The client's own timeout of one attempt.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(4);
/// Every third call's first attempt is impatient: it gives up after a few milliseconds, about
/// as long as a call takes here, so that some calls are charged and kept unseen by their
/// client (whose retry must be replayed, uncharged) and others cut before their charge (whose
/// retry must run them afresh), besides those that die with their node.
fn first_attempt_timeout(index: usize) -> Option<Duration> {
    index
        .is_multiple_of(3)
        .then(|| Duration::from_millis(2 + (index as u64 * 7) % 60))
}

/// A call that has no 2xx after this long is stuck (far more than a lapsed claim takes).
const CALL_DEADLINE: Duration = Duration::from_secs(60);
/// The kills: one each time another seventh of the calls is answered (every 3 or 4 s here).
const KILLS: usize = 6;

/// The base URLs of the live nodes, as the clients know them; the killer replaces a killed
/// node's with its successor's.
type LiveNodes = Arc<Mutex<Vec<String>>>;

/// One distinct call of a client: its request and its cost.
#[derive(Clone)]
struct Call {
    method: reqwest::Method,
    path_and_query: String,
    body: Option<String>,
    cost: i64,
}

/// The call `index` of a client: lists and gets (1 credit) and explains (5).
fn call(index: usize, market_ids: &[String]) -> Call {
    let get = |path_and_query: String| Call {
        method: reqwest::Method::GET,
        path_and_query,
        body: None,
        cost: 1,
    };
    match index % 5 {
        0 | 2 => get(format!("/api/v1/markets?limit=2&offset={}", index % 3)),
        1 | 3 => get(format!("/api/v1/markets/{}", market_ids[index % market_ids.len()])),
        _ => Call {
            method: reqwest::Method::POST,
            path_and_query: "/api/v1/explain".to_owned(),
            body: Some(json_body(index)),
            cost: 5,
        },
    }
}

fn json_body(index: usize) -> String {
    serde_json::json!({ "query": format!("Will test market {} resolve Yes?", index % 2 + 1) }).to_string()
}

/// What the clients saw, summed over them.
#[derive(Default)]
struct Tally {
    attempts: AtomicUsize,
    /// Attempts after a call's first.
    retries: AtomicUsize,
    /// Successful answers marked `Idempotent-Replayed: true`.
    replays: AtomicUsize,
    connection_errors: AtomicUsize,
    server_errors: AtomicUsize,
    in_progress: AtomicUsize,
}

/// The successful answer a call got.
struct Answer {
    status: StatusCode,
    body: Vec<u8>,
    replayed: bool,
    credits_used_header: Option<i64>,
}

/// Where a client sends its calls: its HTTP client, the live nodes it knows, its API key.
struct Sender {
    http: reqwest::Client,
    live: LiveNodes,
    api_key: String,
}

/// Sends `call` with `key` until it gets a 2xx, round robin over the live nodes: any
/// connection error or timeout, 5xx, or 409 `IDEMPOTENCY_KEY_IN_PROGRESS` (after its
/// `Retry-After`) is retried with the same key on the next node. Any other answer fails the test.
async fn call_until_answered(
    sender: &Sender,
    idempotency_key: Option<&str>,
    call: &Call,
    first_node: usize,
    first_timeout: Option<Duration>,
    tally: &Tally,
) -> Answer {
    let started = Instant::now();
    for attempt in 0.. {
        assert!(
            started.elapsed() < CALL_DEADLINE,
            "{} {} got no answer in {CALL_DEADLINE:?} ({attempt} attempts)",
            call.method,
            call.path_and_query
        );
        tally.attempts.fetch_add(1, Ordering::Relaxed);
        if attempt > 0 {
            tally.retries.fetch_add(1, Ordering::Relaxed);
        }
        let base_url = {
            let live = sender.live.lock().unwrap();
            live[(first_node + attempt) % live.len()].clone()
        };
        let mut request = sender
            .http
            .request(call.method.clone(), format!("{base_url}{}", call.path_and_query))
            .bearer_auth(&sender.api_key);
        if let Some(key) = idempotency_key {
            request = request.header("Idempotency-Key", key);
        }
        if attempt == 0
            && let Some(timeout) = first_timeout
        {
            request = request.timeout(timeout);
        }
        if let Some(body) = &call.body {
            request = request.header("Content-Type", "application/json").body(body.clone());
        }
        let response = match request.send().await {
            Ok(response) => response,
            Err(_) => {
                tally.connection_errors.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let status = response.status();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned)
        };
        let replayed = header("idempotent-replayed").as_deref() == Some("true");
        let retry_after = header("retry-after").and_then(|value| value.parse::<u64>().ok());
        let credits_used_header = header("x-credits-used").and_then(|value| value.parse().ok());
        // The body can be cut off too (the node died while sending it): that is a failure.
        let Ok(body) = response.bytes().await else {
            tally.connection_errors.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        if status.is_success() {
            if replayed {
                tally.replays.fetch_add(1, Ordering::Relaxed);
            }
            return Answer {
                status,
                body: body.to_vec(),
                replayed,
                credits_used_header,
            };
        }
        if status.is_server_error() {
            tally.server_errors.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        let code = serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|body| body["error"]["code"].as_str().map(str::to_owned));
        if status == StatusCode::CONFLICT && code.as_deref() == Some("IDEMPOTENCY_KEY_IN_PROGRESS") {
            tally.in_progress.fetch_add(1, Ordering::Relaxed);
            let seconds = retry_after.expect("a 409 IDEMPOTENCY_KEY_IN_PROGRESS has Retry-After");
            tokio::time::sleep(Duration::from_secs(seconds)).await;
            continue;
        }
        panic!(
            "{} {} answered {status}: {}",
            call.method,
            call.path_and_query,
            String::from_utf8_lossy(&body)
        );
    }
    unreachable!()
}

/// SIGKILLs a node (the next one round robin) each time another `1 / (KILLS + 1)` of the
/// `calls` is answered, and starts another in its place, which the clients learn of once it
/// serves; stops after [`KILLS`] or when every call is answered. Returns the kills and the nodes.
async fn kill_and_restart(
    cluster: &Cluster,
    mut nodes: Vec<Node>,
    live: LiveNodes,
    answered: Arc<AtomicUsize>,
    calls: usize,
    extra_env: &[(&str, &str)],
) -> (usize, Vec<Node>) {
    let mut kills = 0;
    while kills < KILLS {
        let threshold = (kills + 1) * calls / (KILLS + 1);
        while answered.load(Ordering::SeqCst) < threshold {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if answered.load(Ordering::SeqCst) == calls {
            break;
        }
        let slot = kills % nodes.len();
        nodes[slot].kill();
        kills += 1;
        let successor = Node::start(&cluster.database.url, &cluster.redis_url, Syncing::Off, extra_env).await;
        live.lock().unwrap()[slot] = successor.base_url.clone();
        nodes[slot] = successor;
    }
    (kills, nodes)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn clients_retrying_with_their_keys_through_node_kills_pay_once_per_call() {
    let Some(cluster) = Cluster::new().await else {
        return;
    };
    let started = Instant::now();
    let extra_env = [("MARKETLENS_REQUEST_TIMEOUT_SECS", REQUEST_TIMEOUT_SECS)];
    let nodes = cluster.nodes(NODES, &extra_env).await;
    let live: LiveNodes = Arc::new(Mutex::new(nodes.iter().map(|node| node.base_url.clone()).collect()));
    let (account_id, key) = cluster.account("enterprise", 100_000).await;
    // The markets' ids, read with an account of their own.
    let (_, reader) = cluster.account("enterprise", 10).await;
    let listed: serde_json::Value = reqwest::Client::new()
        .get(format!("{}/api/v1/markets?limit=2", nodes[0].base_url))
        .bearer_auth(reader.as_str())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let market_ids: Vec<String> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|market| market["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(market_ids.len(), 2);

    let client = reqwest::Client::builder().timeout(ATTEMPT_TIMEOUT).build().unwrap();
    let tally = Arc::new(Tally::default());
    let answered = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client_index| {
            let (tally, market_ids, answered) = (tally.clone(), market_ids.clone(), answered.clone());
            let sender = Sender {
                http: client.clone(),
                live: live.clone(),
                api_key: key.as_str().to_owned(),
            };
            tokio::spawn(async move {
                let mut answers = Vec::new();
                for index in 0..CALLS_PER_CLIENT {
                    let call = call(client_index + index, &market_ids);
                    let idempotency_key = Uuid::new_v4().to_string();
                    let answer = call_until_answered(
                        &sender,
                        Some(&idempotency_key),
                        &call,
                        client_index + index,
                        first_attempt_timeout(index),
                        &tally,
                    )
                    .await;
                    answers.push((call, idempotency_key, answer));
                    answered.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(PAUSE).await;
                }
                answers
            })
        })
        .collect();
    let killer = kill_and_restart(
        &cluster,
        nodes,
        live.clone(),
        answered.clone(),
        CLIENTS * CALLS_PER_CLIENT,
        &extra_env,
    );
    let (answers, (kills, nodes)) = tokio::join!(
        async {
            let mut answers = Vec::new();
            for client in clients {
                answers.extend(client.await.unwrap());
            }
            answers
        },
        killer
    );
    let load_time = started.elapsed();

    // Every distinct call got one successful answer, of its cost.
    assert_eq!(answers.len(), CLIENTS * CALLS_PER_CLIENT);
    for (call, _, answer) in &answers {
        assert_eq!(answer.status, StatusCode::OK, "{}", call.path_and_query);
        assert_eq!(answer.credits_used_header, Some(call.cost), "{}", call.path_and_query);
    }
    // The books: exactly the distinct calls' credits, one ledger line each: nothing lost,
    // nothing paid twice.
    let expected: i64 = answers.iter().map(|(call, _, _)| call.cost).sum();
    let books = cluster.books(account_id).await;
    let count = |counter: &AtomicUsize| counter.load(Ordering::Relaxed);
    eprintln!(
        "retrying clients: {} calls, {} attempts, {} retries ({} connection errors or timeouts, {} 5xx, {} 409 in progress), \
         {} replays, {kills} kills; {} credits charged for {expected} credits of distinct calls; load {:.1?}, {:.1?} since the start",
        answers.len(),
        count(&tally.attempts),
        count(&tally.retries),
        count(&tally.connection_errors),
        count(&tally.server_errors),
        count(&tally.in_progress),
        count(&tally.replays),
        books.used,
        load_time,
        started.elapsed(),
    );
    assert_eq!(books.calls_paid, answers.len() as u64, "one charge per distinct call");
    assert_eq!(books.used, expected, "credits used = credits of the distinct calls");
    assert_eq!(books.purchased - books.remaining, expected);

    // Each key's kept answer is the one its client got (a replay seen in the load being that
    // kept answer too), and asking again is uncharged.
    let base_urls: Vec<String> = nodes.iter().map(|node| node.base_url.clone()).collect();
    let quiet = Arc::new(Tally::default());
    let answers = Arc::new(answers);
    let checkers: Vec<_> = (0..CLIENTS)
        .map(|checker| {
            let (quiet, answers) = (quiet.clone(), answers.clone());
            let sender = Sender {
                http: client.clone(),
                live: Arc::new(Mutex::new(base_urls.clone())),
                api_key: key.as_str().to_owned(),
            };
            tokio::spawn(async move {
                for (index, (call, idempotency_key, answer)) in
                    answers.iter().enumerate().skip(checker).step_by(CLIENTS)
                {
                    let again = call_until_answered(&sender, Some(idempotency_key), call, index, None, &quiet).await;
                    assert!(again.replayed, "{} was not kept", call.path_and_query);
                    assert!(
                        again.body == answer.body,
                        "{}: the kept answer is not the one the client got{}",
                        call.path_and_query,
                        if answer.replayed { " (as a replay)" } else { "" }
                    );
                }
            })
        })
        .collect();
    for checker in checkers {
        checker.await.unwrap();
    }
    assert_eq!(quiet.retries.load(Ordering::Relaxed), 0, "no node died while checking");

    assert_eq!(
        cluster.books(account_id).await.used,
        expected,
        "asking again is uncharged"
    );
    // The last kills may find the calls done on a fast machine.
    assert!(kills >= KILLS / 2, "nodes were killed under load: {kills}");
}
