//! The relay through a real Redis (`MARKETLENS_TEST_REDIS_URL`; skipped without it), with the
//! real Polymarket connector against the replay: a holder and a second node following one
//! market, the holder losing its lease and taking it again, and a holder whose lease is not
//! renewed by its deadline.

use std::sync::Arc;
use std::time::Duration;

use marketlens_connectors::{ConnectExchanges, Connector, ExchangeFeeds, RelayFeed, RelaySettings};
use marketlens_domain::Exchange;
use marketlens_domain::stream::{FeedState, LiveFeed, MarketChange, MarketUpdate};
use marketlens_replay::{ReplayData, ReplayServer};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use uuid::Uuid;

use super::*;

/// The market of `polymarket/ws-book-2.jsonl` line 4 (as in `polymarket.rs`).
fn up_down() -> marketlens_domain::stream::StreamMarket {
    market(
        Exchange::Polymarket,
        "0x14002070",
        ["Up", "Down"],
        vec![
            "1627500284739545390204314775735988068784669364445492030335161034375823784781".to_owned(),
            "7849332184617640056758089974170387917558941201674921732369975950049491747956".to_owned(),
        ],
    )
}

/// A lease deadline far away.
fn held() -> Option<Instant> {
    Some(Instant::now() + Duration::from_secs(3_600))
}

/// A node's relay on `redis_url` under `prefix`, leading while `leading` tells a deadline to
/// come.
fn node(
    redis_url: &str,
    prefix: &str,
    server: &ReplayServer,
    leading: watch::Receiver<Option<Instant>>,
) -> (RelayFeed, mpsc::Receiver<MarketUpdate>) {
    let relay_settings = RelaySettings {
        prefix: prefix.to_owned(),
        refresh_every: Duration::from_millis(100),
        follows_expire_after: Duration::from_millis(500),
    };
    node_with(redis_url, relay_settings, server, leading)
}

/// A node's relay with the given settings.
fn node_with(
    redis_url: &str,
    relay_settings: RelaySettings,
    server: &ReplayServer,
    leading: watch::Receiver<Option<Instant>>,
) -> (RelayFeed, mpsc::Receiver<MarketUpdate>) {
    let url = server.polymarket_ws_url();
    let connect: ConnectExchanges = Box::new(move |updates| {
        let polymarket = Connector::polymarket(&url, updates.clone(), settings());
        Arc::new(ExchangeFeeds::new(Some(polymarket), None, updates)) as Arc<dyn LiveFeed>
    });
    let (sender, updates) = mpsc::channel(1024);
    let relay = RelayFeed::start(redis_url, relay_settings, connect, leading, sender).unwrap();
    (relay, updates)
}

/// The first update that is not a state.
fn first_change(updates: &[MarketUpdate]) -> &MarketChange {
    &updates
        .iter()
        .find(|update| !matches!(update.change, MarketChange::State { .. }))
        .unwrap()
        .change
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_holder_connects_for_both_nodes_and_each_is_told_when_no_node_holds_the_lease() {
    let Some(redis_url) = marketlens_testkit::redis_url() else {
        return;
    };
    let server = ReplayServer::start(ReplayData::default());
    server.set_stream_speed(f64::INFINITY);
    let prefix = format!("relay-test-{}", Uuid::new_v4().simple());
    let (lease, leading) = watch::channel(held());
    let (holder, mut on_holder) = node(&redis_url, &prefix, &server, leading);
    let (_never_leads, not_leading) = watch::channel(None);
    let (other, mut on_other) = node(&redis_url, &prefix, &server, not_leading);

    // The holder's own clients' market: its first book comes through Redis.
    holder.follow(&up_down());
    let seen = until(&mut on_holder, is_book).await;
    assert!(matches!(first_change(&seen), MarketChange::Book { .. }), "{seen:#?}");
    // The other node follows it later: the holder's kept book first, on its own channel.
    other.follow(&up_down());
    let seen = until(&mut on_other, is_book).await;
    assert!(matches!(first_change(&seen), MarketChange::Book { .. }), "{seen:#?}");
    assert_eq!(server.stream_connections(Exchange::Polymarket), 1);

    // The lease is lost and no node takes it: both nodes report the market interrupted (what
    // came before is drained, so that an earlier interruption cannot pass for it).
    lease.send_replace(None);
    drain(&mut on_holder);
    drain(&mut on_other);
    until(&mut on_holder, is_state(FeedState::Interrupted)).await;
    until(&mut on_other, is_state(FeedState::Interrupted)).await;

    // The lease is back: a new connection, and a whole book for each node.
    lease.send_replace(held());
    until(&mut on_holder, is_book).await;
    until(&mut on_other, is_book).await;
    assert_eq!(server.stream_connections(Exchange::Polymarket), 2);

    // The last unfollows: the exchange connection is left idle (its socket closed).
    holder.unfollow(up_down().id);
    other.unfollow(up_down().id);
    let unsubscribed = async {
        while !server
            .stream_messages(Exchange::Polymarket)
            .iter()
            .any(|message| message.contains("unsubscribe"))
        {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), unsubscribed)
        .await
        .expect("the holder unsubscribed once no node followed the market");
}

/// Throws away what was received so far.
fn drain(updates: &mut mpsc::Receiver<MarketUpdate>) {
    while updates.try_recv().is_ok() {}
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_holder_whose_lease_is_not_renewed_by_its_deadline_stops_publishing() {
    let Some(redis_url) = marketlens_testkit::redis_url() else {
        return;
    };
    let server = ReplayServer::start(ReplayData::default());
    server.set_stream_speed(f64::INFINITY);
    let prefix = format!("relay-test-{}", Uuid::new_v4().simple());
    let (lease, leading) = watch::channel(held());
    let (holder, mut on_holder) = node(&redis_url, &prefix, &server, leading);
    holder.follow(&up_down());
    until(&mut on_holder, is_book).await;
    assert_eq!(server.stream_connections(Exchange::Polymarket), 1);

    // A renewal moves the deadline on; then no renewal comes (the sync lease's store hangs),
    // though the lease is never said to be lost: the holder stops at the deadline, and the
    // node is told the market is interrupted once no heartbeat comes.
    lease.send_replace(Some(Instant::now() + Duration::from_millis(300)));
    drain(&mut on_holder);
    until(&mut on_holder, is_state(FeedState::Interrupted)).await;

    // A renewal again: a new exchange connection, and a whole book.
    lease.send_replace(held());
    until(&mut on_holder, is_book).await;
    assert_eq!(server.stream_connections(Exchange::Polymarket), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nodes_first_follow_is_written_with_its_expiry() {
    let Some(redis_url) = marketlens_testkit::redis_url() else {
        return;
    };
    let server = ReplayServer::start(ReplayData::default());
    let prefix = format!("relay-test-{}", Uuid::new_v4().simple());
    // No renewal during the test: the follow's own write must set the expiry.
    let relay_settings = RelaySettings {
        prefix: prefix.clone(),
        refresh_every: Duration::from_secs(600),
        follows_expire_after: Duration::from_secs(1_800),
    };
    let (_lease, not_leading) = watch::channel(None);
    let (other, _updates) = node_with(&redis_url, relay_settings, &server, not_leading);
    let mut redis = redis::Client::open(redis_url.as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    // Once the node has connected and written its (empty) follows, at once on its first
    // refresh too.
    let registered = async {
        loop {
            let nodes: usize = redis::cmd("ZCARD")
                .arg(format!("{prefix}:stream:nodes"))
                .query_async(&mut redis)
                .await
                .unwrap();
            if nodes > 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), registered)
        .await
        .expect("the node registered");
    tokio::time::sleep(Duration::from_millis(300)).await;
    other.follow(&up_down());
    let written = async {
        loop {
            let keys: Vec<String> = redis::cmd("KEYS")
                .arg(format!("{prefix}:stream:follows:*"))
                .query_async(&mut redis)
                .await
                .unwrap();
            if let Some(key) = keys.first() {
                return key.clone();
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let key = tokio::time::timeout(Duration::from_secs(5), written)
        .await
        .expect("the follow was written");
    let expires_in: i64 = redis::cmd("PTTL").arg(&key).query_async(&mut redis).await.unwrap();
    assert!(expires_in > 0, "{key} has no expiry: {expires_in}");
    drop(other);
}
