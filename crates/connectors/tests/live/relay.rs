//! The relay through a real Redis (`MARKETLENS_TEST_REDIS_URL`; skipped without it), with the
//! real Polymarket connector against the replay: a holder and a second node following one
//! market, the holder losing its lease and taking it again.

use std::sync::Arc;
use std::time::Duration;

use marketlens_connectors::{ConnectExchanges, Connector, ExchangeFeeds, RelayFeed, RelaySettings};
use marketlens_domain::Exchange;
use marketlens_domain::stream::{FeedState, LiveFeed, MarketChange, MarketUpdate};
use marketlens_replay::{ReplayData, ReplayServer};
use tokio::sync::{mpsc, watch};
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

/// A node's relay on `redis_url` under `prefix`, leading while `leading` says so.
fn node(
    redis_url: &str,
    prefix: &str,
    server: &ReplayServer,
    leading: watch::Receiver<bool>,
) -> (RelayFeed, mpsc::Receiver<MarketUpdate>) {
    let relay_settings = RelaySettings {
        prefix: prefix.to_owned(),
        refresh_every: Duration::from_millis(100),
        follows_expire_after: Duration::from_millis(500),
    };
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
    let (lease, leading) = watch::channel(true);
    let (holder, mut on_holder) = node(&redis_url, &prefix, &server, leading);
    let (_never_leads, not_leading) = watch::channel(false);
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

    // The lease is lost and no node takes it: both nodes report the market interrupted.
    lease.send_replace(false);
    until(&mut on_holder, is_state(FeedState::Interrupted)).await;
    until(&mut on_other, is_state(FeedState::Interrupted)).await;

    // The lease is back: a new connection, and a whole book for each node.
    lease.send_replace(true);
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
