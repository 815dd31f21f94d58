//! Price history in the store: every write of a market is an observation merged into its
//! five-minute bar; the roll-up moves old bars into coarser ones; the same on every backend.

use marketlens_domain::Exchange::{Kalshi, Polymarket};
use marketlens_domain::history::{Resolution, Retention};
use marketlens_storage::RollUpReport;

use crate::{at, backends, market};

#[tokio::test]
async fn writes_are_observations_merged_into_five_minute_bars() {
    for backend in backends().await {
        let store = &backend.store;
        let mut bitcoin = market(Polymarket, "1", "Will Bitcoin reach $100k?");
        let ether = market(Kalshi, "KX-2", "Will Ethereum reach $10k?");
        // `at(0)` is 1_750_000_000 s, 100 s into its five-minute bucket; `at(200)` starts the next.
        let bucket = 1_750_000_000 / 300 * 300;
        store
            .upsert(&[bitcoin.clone(), ether.clone()], &[], at(0))
            .await
            .unwrap();
        for (seconds, price) in [(30, 0.55), (60, 0.35), (250, 0.50)] {
            bitcoin.outcomes[0].price = price;
            store.upsert(&[bitcoin.clone()], &[], at(seconds)).await.unwrap();
        }
        // Unchanged: no observation.
        store.upsert(&[bitcoin.clone()], &[], at(260)).await.unwrap();
        let all = [Resolution::FiveMinutes, Resolution::Hour, Resolution::Day];
        let bars = store.history(bitcoin.id(), &all, i64::MIN, i64::MAX).await.unwrap();
        assert_eq!(bars.len(), 2, "{}: {bars:?}", backend.name);
        let (first, second) = (&bars[0], &bars[1]);
        assert_eq!(
            (first.bucket_start, second.bucket_start),
            (bucket, bucket + 300),
            "{}",
            backend.name
        );
        let yes = first.outcomes[0];
        assert_eq!(
            (yes.open, yes.high, yes.low, yes.close),
            (0.4, 0.55, 0.35, 0.35),
            "{}",
            backend.name
        );
        assert_eq!((first.first_at, first.last_at), (at(0), at(60)), "{}", backend.name);
        assert_eq!(second.outcomes[0].close, 0.5);
        assert_eq!(second.outcomes[1].close, 0.6, "{}", backend.name);
        assert_eq!(
            (second.volume, second.volume_24h, second.liquidity),
            (1000.0, 10.0, 100.0)
        );
        // A range reads only its buckets; the other market has its own bar.
        let later = store.history(bitcoin.id(), &all, bucket + 1, i64::MAX).await.unwrap();
        assert_eq!(later.len(), 1);
        let hourly_only = store
            .history(bitcoin.id(), &[Resolution::Hour], i64::MIN, i64::MAX)
            .await
            .unwrap();
        assert!(hourly_only.is_empty());
        assert_eq!(
            store.history(ether.id(), &all, i64::MIN, i64::MAX).await.unwrap().len(),
            1
        );
        // The market records when its figures were observed.
        let stored = store.get_market(bitcoin.id()).await.unwrap().unwrap();
        assert_eq!(stored.observed_at, at(250), "{}", backend.name);
    }
}

#[tokio::test]
async fn the_roll_up_merges_old_bars_into_coarser_ones_and_is_idempotent() {
    for backend in backends().await {
        let store = &backend.store;
        let mut bitcoin = market(Polymarket, "1", "Will Bitcoin reach $100k?");
        // Two days of hourly observations.
        for hour in 0..48i64 {
            bitcoin.outcomes[0].price = 0.3 + (hour % 5) as f64 / 10.0;
            store.upsert(&[bitcoin.clone()], &[], at(hour * 3_600)).await.unwrap();
        }
        let all = [Resolution::FiveMinutes, Resolution::Hour, Resolution::Day];
        let before = store.history(bitcoin.id(), &all, i64::MIN, i64::MAX).await.unwrap();
        assert_eq!(before.len(), 48);

        // Eight days after the first observation, the first day's bars (and some) are due.
        let report = store
            .roll_up_history(at(8 * 86_400), Retention::default())
            .await
            .unwrap();
        let after = store.history(bitcoin.id(), &all, i64::MIN, i64::MAX).await.unwrap();
        assert_eq!(report.hourly_bars, 0, "{}", backend.name);
        assert!(
            report.five_minute_bars > 0 && report.five_minute_bars < 48,
            "{report:?}"
        );
        assert_eq!(after.len(), 48, "one hourly bar per five-minute bar here");
        let hourly = after.iter().filter(|bar| bar.resolution == Resolution::Hour).count() as u64;
        assert_eq!(hourly, report.five_minute_bars, "{}", backend.name);

        // A hundred days on, everything is daily: two days (and the extremes of each).
        let report = store
            .roll_up_history(at(100 * 86_400), Retention::default())
            .await
            .unwrap();
        assert_eq!(report.five_minute_bars + hourly, 48, "{}", backend.name);
        let daily = store.history(bitcoin.id(), &all, i64::MIN, i64::MAX).await.unwrap();
        assert!(daily.iter().all(|bar| bar.resolution == Resolution::Day), "{daily:?}");
        let observed: Vec<f64> = before.iter().map(|bar| bar.outcomes[0].close).collect();
        let high = daily.iter().map(|bar| bar.outcomes[0].high).fold(f64::MIN, f64::max);
        let low = daily.iter().map(|bar| bar.outcomes[0].low).fold(f64::MAX, f64::min);
        assert_eq!(high, observed.iter().copied().fold(f64::MIN, f64::max));
        assert_eq!(low, observed.iter().copied().fold(f64::MAX, f64::min));
        assert_eq!(daily.first().unwrap().outcomes[0].open, before[0].outcomes[0].open);
        assert_eq!(daily.last().unwrap().outcomes[0].close, before[47].outcomes[0].close);
        assert_eq!(
            store
                .roll_up_history(at(100 * 86_400), Retention::default())
                .await
                .unwrap(),
            RollUpReport::default(),
            "{}",
            backend.name
        );
    }
}
