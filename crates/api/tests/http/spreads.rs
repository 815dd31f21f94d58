//! `GET /api/v1/spreads`: matched pairs of open markets with the same side's price on both
//! exchanges: orientation, stale flags, filters, order, paging and credits.

use chrono::{TimeDelta, Utc};
use marketlens_api::ApiSettings;
use marketlens_domain::matching::{MatchPair, Orientation};
use marketlens_storage::{SyncKind, SyncRun, UpsertCounts};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::seed::{SPECS, market};
use crate::{TestServer, assert_error};

fn id(position: usize) -> Uuid {
    market(&SPECS[position]).id()
}

/// Both directions of a pair, as the matcher stores them.
fn pair(polymarket: usize, kalshi: usize, similarity: f64, orientation: Orientation) -> [MatchPair; 2] {
    [
        MatchPair {
            market_id: id(polymarket),
            matched_id: id(kalshi),
            similarity,
            orientation,
        },
        MatchPair {
            market_id: id(kalshi),
            matched_id: id(polymarket),
            similarity,
            orientation,
        },
    ]
}

/// The seed's Bitcoin pair (same side, 0.42 against 0.40), a flipped pair (Pokémon at 0.30
/// against the Parolin market, whose No is 0.88) and a pair with a closed market.
async fn three_pairs(server: &TestServer) {
    let pairs: Vec<MatchPair> = [
        pair(0, 1, 0.912, Orientation::Same),
        pair(4, 5, 0.8, Orientation::Flipped),
        pair(9, 6, 0.77, Orientation::Same),
    ]
    .concat();
    server.store.replace_matches(&pairs).await.unwrap();
    server.refresh_catalog().await;
}

fn summary(item: &Value) -> (String, String, f64, bool) {
    (
        item["polymarket"]["externalMarketId"].as_str().unwrap().to_owned(),
        item["kalshi"]["externalMarketId"].as_str().unwrap().to_owned(),
        item["spread"].as_f64().unwrap(),
        item["flipped"].as_bool().unwrap(),
    )
}

#[tokio::test]
async fn pairs_compare_the_same_side_and_say_when_it_is_flipped() {
    let server = TestServer::start().await;
    let (account, key) = server.account("pro", 100).await;
    three_pairs(&server).await;
    let (status, body) = server.get("/api/v1/spreads", &key).await;
    assert_eq!(status, 200, "{body}");
    let items = body["data"].as_array().unwrap();
    assert_eq!(
        items.iter().map(summary).collect::<Vec<_>>(),
        [
            ("503".into(), "KXNEWPOPE-70-PPAR".into(), 0.58, true),
            ("501".into(), "KXBTC-26DEC31-T100000".into(), 0.02, false),
        ],
        "largest spread first; the pair with a closed market left out"
    );
    let flipped = &items[0];
    assert_eq!(flipped["polymarket"]["outcome"], "Yes");
    assert_eq!(flipped["polymarket"]["price"], 0.3);
    assert_eq!(flipped["kalshi"]["outcome"], "No");
    assert_eq!(flipped["kalshi"]["price"], 0.88);
    assert_eq!(flipped["similarity"], 0.8);
    let same = &items[1];
    assert_eq!(same["kalshi"]["outcome"], "Yes");
    assert_eq!(same["kalshi"]["price"], 0.4);
    assert_eq!(same["volume24h"], 120_000.0);
    assert_eq!(same["polymarket"]["id"], id(0).to_string());
    assert_eq!(same["polymarket"]["category"], "Crypto");
    assert_eq!(
        body["pagination"],
        json!({ "total": 2, "limit": 50, "offset": 0, "hasMore": false })
    );

    let external_ids = |body: &Value| -> Vec<String> {
        body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item["polymarket"]["externalMarketId"].as_str().unwrap().to_owned())
            .collect()
    };
    for (query, expected) in [
        ("sortBy=volume24h", vec!["501", "503"]),
        ("minSimilarity=0.9", vec!["501"]),
        ("minSimilarity=0.95", vec![]),
        ("minVolume24h=1500", vec!["503", "501"]),
        ("minVolume24h=1500.5", vec!["501"]),
        ("category=culture", vec!["503"]),
        ("category=Sports", vec![]),
        ("limit=1&offset=1", vec!["501"]),
    ] {
        let (status, body) = server.get(&format!("/api/v1/spreads?{query}"), &key).await;
        assert_eq!(status, 200, "{query}: {body}");
        assert_eq!(external_ids(&body), expected, "{query}");
    }
    let (status, body) = server.get("/api/v1/spreads?sortBy=price", &key).await;
    assert_error(status, &body, 400, "INVALID_PARAMETER");
    assert_eq!(
        server.remaining_credits(account.id).await,
        100 - 9,
        "one credit per call"
    );
}

#[tokio::test]
async fn a_price_older_than_the_stale_age_is_flagged_until_a_sync_confirms_it() {
    let server = TestServer::start_with(ApiSettings {
        stale_after: TimeDelta::minutes(15),
        ..ApiSettings::default()
    })
    .await;
    let key = server.key().await;
    // Kalshi's Bitcoin market last written an hour ago (the seed wrote it in the future).
    let mut kalshi = market(&SPECS[1]);
    kalshi.outcomes[0].price = 0.45;
    kalshi.outcomes[1].price = 0.55;
    let an_hour_ago = Utc::now() - TimeDelta::hours(1);
    server.store.upsert(&[kalshi], &[], an_hour_ago).await.unwrap();
    three_pairs(&server).await;

    let (_, body) = server.get("/api/v1/spreads?minSimilarity=0.9", &key).await;
    let item = &body["data"][0];
    assert_eq!(item["kalshi"]["price"], 0.45);
    assert_eq!(item["spread"], 0.03);
    assert_eq!(item["kalshi"]["stale"], true, "{item}");
    assert_eq!(item["polymarket"]["stale"], false, "{item}");
    assert_eq!(item["stale"], true);
    assert_eq!(
        item["kalshi"]["lastSyncedAt"],
        marketlens_domain::time::to_iso8601(an_hour_ago)
    );

    // A successful incremental sync of Kalshi walked every open market just now.
    let now = Utc::now();
    server
        .store
        .record_sync_run(&SyncRun {
            exchange: marketlens_domain::Exchange::Kalshi,
            kind: SyncKind::Incremental,
            started_at: now,
            finished_at: now,
            succeeded: true,
            pages: 1,
            counts: UpsertCounts::default(),
            records_skipped: 0,
            errors: 0,
            error: None,
        })
        .await
        .unwrap();
    // The server reads the syncs' record at most every two seconds.
    tokio::time::sleep(marketlens_api::freshness::REREAD_EVERY + std::time::Duration::from_millis(100)).await;
    let (_, body) = server.get("/api/v1/spreads?minSimilarity=0.9", &key).await;
    let item = &body["data"][0];
    assert_eq!(item["kalshi"]["stale"], false, "{item}");
    assert_eq!(item["stale"], false);
    assert_eq!(item["kalshi"]["lastSyncedAt"], marketlens_domain::time::to_iso8601(now));
}
