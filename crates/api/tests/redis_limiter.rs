//! The Redis rate limiter against a real Redis (`MARKETLENS_TEST_REDIS_URL`, which
//! `scripts/test` and CI always set; without it these tests are skipped with a note). Each
//! test counts under its own key prefix.

use chrono::{TimeZone, Utc};
use marketlens_api::rate_limit::{RateLimiter, RedisRateLimiter};
use std::sync::Arc;
use uuid::Uuid;

fn node(redis_url: &str, prefix: &str) -> Arc<RedisRateLimiter> {
    Arc::new(RedisRateLimiter::new(redis_url, prefix).unwrap())
}

#[tokio::test]
async fn two_nodes_share_one_count_and_refusals_are_not_counted() {
    let Some(redis_url) = marketlens_testkit::redis_url() else {
        return;
    };
    let prefix = format!("test-{}", Uuid::new_v4());
    let (first, second) = (node(&redis_url, &prefix), node(&redis_url, &prefix));
    let account = Uuid::new_v4();
    let now = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 10).unwrap();
    let mut used = Vec::new();
    for index in 0..5 {
        let limiter = if index % 2 == 0 { &first } else { &second };
        used.push(limiter.acquire(account, 5, now).await.unwrap().used);
    }
    assert_eq!(used, [1, 2, 3, 4, 5]);
    for limiter in [&first, &second, &first] {
        let refusal = limiter.acquire(account, 5, now).await.unwrap_err();
        assert_eq!(refusal.retry_after_seconds, 50);
    }
    let next_minute = now + chrono::TimeDelta::minutes(1);
    assert_eq!(
        second.acquire(account, 5, next_minute).await.unwrap().used,
        1,
        "a new window starts at zero"
    );
    assert_eq!(
        first.acquire(Uuid::new_v4(), 5, now).await.unwrap().used,
        1,
        "accounts are separate"
    );
    assert!(first.health().shared && first.health().degraded.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_requests_on_many_nodes_never_exceed_the_limit() {
    let Some(redis_url) = marketlens_testkit::redis_url() else {
        return;
    };
    let prefix = format!("test-{}", Uuid::new_v4());
    let nodes: Vec<_> = (0..3).map(|_| node(&redis_url, &prefix)).collect();
    let account = Uuid::new_v4();
    let now = Utc::now();
    let attempts: Vec<_> = (0..90)
        .map(|index| {
            let limiter = nodes[index % nodes.len()].clone();
            tokio::spawn(async move { limiter.acquire(account, 20, now).await.is_ok() })
        })
        .collect();
    let mut granted = 0;
    for attempt in attempts {
        granted += usize::from(attempt.await.unwrap());
    }
    assert_eq!(granted, 20);
}

#[tokio::test]
async fn an_unreachable_redis_degrades_to_counting_per_node() {
    let limiter = RedisRateLimiter::new("redis://127.0.0.1:1/", "unreachable").unwrap();
    let account = Uuid::new_v4();
    let now = Utc::now();
    for expected in 1..=3 {
        assert_eq!(
            limiter.acquire(account, 3, now).await.unwrap().used,
            expected,
            "the node keeps serving"
        );
    }
    assert!(
        limiter.acquire(account, 3, now).await.is_err(),
        "and still limits, per node"
    );
    let health = limiter.health();
    assert_eq!((health.kind, health.shared), ("redis", false));
    assert!(health.degraded.is_some_and(|reason| reason.contains("cannot connect")));
}
