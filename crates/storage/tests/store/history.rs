//! Price history in the store: every write of a market is an observation merged into its
//! five-minute, hourly and daily bars; expiry deletes fine bars past their retention; the
//! same on every backend.

use marketlens_domain::Exchange::{Kalshi, Polymarket};
use marketlens_domain::history::{ObservedPrices, Resolution, Retention};
use marketlens_storage::ExpiryReport;

use crate::{at, backends, market};

#[tokio::test]
async fn writes_are_observations_merged_into_bars_of_every_resolution() {
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
        let bitcoin_id = bitcoin.id();
        let bars = |resolution| {
            let store = store.clone();
            async move { store.history(bitcoin_id, resolution, i64::MIN, i64::MAX).await.unwrap() }
        };
        let fine = bars(Resolution::FiveMinutes).await;
        assert_eq!(fine.len(), 2, "{}: {fine:?}", backend.name);
        let (first, second) = (&fine[0], &fine[1]);
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
        // The hourly and daily bars hold all four observations.
        for resolution in [Resolution::Hour, Resolution::Day] {
            let coarse = bars(resolution).await;
            assert_eq!(coarse.len(), 1, "{}", backend.name);
            let yes = coarse[0].outcomes[0];
            assert_eq!(
                (yes.open, yes.high, yes.low, yes.close),
                (0.4, 0.55, 0.35, 0.5),
                "{}",
                backend.name
            );
            assert_eq!((coarse[0].first_at, coarse[0].last_at), (at(0), at(250)));
        }
        // A range reads only its buckets, a page only its bars; the other market has its own.
        let later = store
            .history(bitcoin.id(), Resolution::FiveMinutes, bucket + 1, i64::MAX)
            .await
            .unwrap();
        assert_eq!(later.len(), 1);
        let page = store
            .history_page(bitcoin.id(), Resolution::FiveMinutes, (i64::MIN, i64::MAX), 1, 1)
            .await
            .unwrap();
        assert_eq!((page.total, page.items.len()), (2, 1));
        assert_eq!(page.items[0].bucket_start, bucket + 300, "{}", backend.name);
        let ether_bars = store
            .history(ether.id(), Resolution::Day, i64::MIN, i64::MAX)
            .await
            .unwrap();
        assert_eq!(ether_bars.len(), 1);
        // The market records when its figures were observed.
        let stored = store.get_market(bitcoin.id()).await.unwrap().unwrap();
        assert_eq!(stored.observed_at, at(250), "{}", backend.name);
    }
}

#[tokio::test]
async fn live_prices_are_observations_of_the_stored_market_merged_into_its_bars() {
    for backend in backends().await {
        let store = &backend.store;
        let bitcoin = market(Polymarket, "1", "Will Bitcoin reach $100k?");
        let bucket = 1_750_000_000 / 300 * 300;
        store.upsert(std::slice::from_ref(&bitcoin), &[], at(0)).await.unwrap();
        let observed = |seconds, yes: f64| ObservedPrices {
            market: bitcoin.id(),
            at: at(seconds),
            prices: vec![("Yes".into(), yes), ("No".into(), 1.0 - yes)],
        };
        let unknown = ObservedPrices {
            market: market(Kalshi, "KX-9", "Not stored").id(),
            ..observed(10, 0.9)
        };
        // Two buckets in one write, and a market the store does not hold.
        let recorded = store
            .record_prices(&[observed(20, 0.7), unknown, observed(250, 0.2)])
            .await
            .unwrap();
        assert_eq!(recorded, 2, "{}", backend.name);
        store.record_prices(&[observed(40, 0.1)]).await.unwrap();
        let fine = store
            .history(bitcoin.id(), Resolution::FiveMinutes, i64::MIN, i64::MAX)
            .await
            .unwrap();
        assert_eq!(fine.len(), 2, "{}: {fine:?}", backend.name);
        let yes = fine[0].outcomes[0];
        assert_eq!(
            (yes.open, yes.high, yes.low, yes.close),
            (0.4, 0.7, 0.1, 0.1),
            "{}",
            backend.name
        );
        assert_eq!((fine[0].first_at, fine[0].last_at), (at(0), at(40)));
        assert_eq!(fine[1].bucket_start, bucket + 300);
        assert_eq!(fine[1].outcomes[1].close, 0.8, "{}", backend.name);
        // The stored figures: a stream states prices only.
        assert_eq!(
            (fine[1].volume, fine[1].volume_24h, fine[1].liquidity),
            (1000.0, 10.0, 100.0)
        );
        let daily = store
            .history(bitcoin.id(), Resolution::Day, i64::MIN, i64::MAX)
            .await
            .unwrap();
        let yes = daily[0].outcomes[0];
        assert_eq!((yes.open, yes.high, yes.low, yes.close), (0.4, 0.7, 0.1, 0.2));
        // The catalogue keeps the sync's prices.
        let stored = store.get_market(bitcoin.id()).await.unwrap().unwrap();
        assert_eq!(stored.market.outcomes[0].price, 0.4, "{}", backend.name);
    }
}

/// Every stream price is written, even one that changes no candle but the time of the bar's
/// last observation: the close goes to the latest observation, so a sync's lagging price dated
/// between two writes of the same stream price must not take it, and one dated after does.
#[tokio::test]
async fn the_latest_observation_closes_the_bar_whoever_wrote_it() {
    for backend in backends().await {
        let store = &backend.store;
        let mut bitcoin = market(Polymarket, "1", "Will Bitcoin reach $100k?");
        let bitcoin_id = bitcoin.id();
        store.upsert(std::slice::from_ref(&bitcoin), &[], at(0)).await.unwrap();
        let observed = |seconds, yes: f64| ObservedPrices {
            market: bitcoin_id,
            at: at(seconds),
            prices: vec![("Yes".into(), yes)],
        };
        let latest = async || {
            let fine = store
                .history(bitcoin_id, Resolution::FiveMinutes, i64::MIN, i64::MAX)
                .await
                .unwrap();
            assert_eq!(fine.len(), 1, "{}", backend.name);
            (fine[0].outcomes[0].close, fine[0].last_at)
        };
        store.record_prices(&[observed(10, 0.7)]).await.unwrap();
        store.record_prices(&[observed(20, 0.7)]).await.unwrap();
        assert_eq!(latest().await, (0.7, at(20)), "{}", backend.name);
        // A sync's lagging price observed before the stream's last price, committed after it...
        bitcoin.outcomes[0].price = 0.45;
        store.upsert(std::slice::from_ref(&bitcoin), &[], at(15)).await.unwrap();
        assert_eq!(latest().await, (0.7, at(20)), "{}", backend.name);
        // ...one observed after it (the market changed again) closes the bar, until the
        // stream's next price.
        bitcoin.outcomes[0].price = 0.46;
        store.upsert(std::slice::from_ref(&bitcoin), &[], at(30)).await.unwrap();
        assert_eq!(latest().await, (0.46, at(30)), "{}", backend.name);
        store.record_prices(&[observed(40, 0.7)]).await.unwrap();
        assert_eq!(latest().await, (0.7, at(40)), "{}", backend.name);
    }
}

#[tokio::test]
async fn expiry_deletes_only_fine_bars_past_their_retention() {
    for backend in backends().await {
        let store = &backend.store;
        let mut bitcoin = market(Polymarket, "1", "Will Bitcoin reach $100k?");
        // Two days of hourly observations.
        for hour in 0..48i64 {
            bitcoin.outcomes[0].price = 0.3 + (hour % 5) as f64 / 10.0;
            store.upsert(&[bitcoin.clone()], &[], at(hour * 3_600)).await.unwrap();
        }
        let bitcoin_id = bitcoin.id();
        let count = |resolution| {
            let store = store.clone();
            async move {
                store
                    .history(bitcoin_id, resolution, i64::MIN, i64::MAX)
                    .await
                    .unwrap()
                    .len() as u64
            }
        };
        assert_eq!(count(Resolution::FiveMinutes).await, 48);
        assert_eq!(count(Resolution::Hour).await, 48);
        let daily_before = store
            .history(bitcoin.id(), Resolution::Day, i64::MIN, i64::MAX)
            .await
            .unwrap();

        // Eight days after the first observation, the first day's five-minute bars (and some) are due.
        let report = store
            .expire_history(at(8 * 86_400), Retention::default())
            .await
            .unwrap();
        assert_eq!(report.hourly_bars, 0, "{}", backend.name);
        assert!(
            report.five_minute_bars > 0 && report.five_minute_bars < 48,
            "{report:?}"
        );
        assert_eq!(count(Resolution::FiveMinutes).await, 48 - report.five_minute_bars);
        assert_eq!(count(Resolution::Hour).await, 48);

        // A hundred days on, only the daily bars are left, as they were.
        let report = store
            .expire_history(at(100 * 86_400), Retention::default())
            .await
            .unwrap();
        assert_eq!(report.hourly_bars, 48, "{}", backend.name);
        assert_eq!(count(Resolution::FiveMinutes).await + count(Resolution::Hour).await, 0);
        let daily_after = store
            .history(bitcoin.id(), Resolution::Day, i64::MIN, i64::MAX)
            .await
            .unwrap();
        assert_eq!(daily_after, daily_before, "{}", backend.name);
        assert_eq!(
            store
                .expire_history(at(100 * 86_400), Retention::default())
                .await
                .unwrap(),
            ExpiryReport::default(),
            "{}",
            backend.name
        );
    }
}

#[tokio::test]
async fn restoring_a_held_bar_fails_where_replacing_it_replaces_it() {
    for backend in backends().await {
        let store = &backend.store;
        let bitcoin = market(Polymarket, "1", "Will Bitcoin reach $100k?");
        store.upsert(std::slice::from_ref(&bitcoin), &[], at(0)).await.unwrap();
        let held = store
            .history(bitcoin.id(), Resolution::Hour, i64::MIN, i64::MAX)
            .await
            .unwrap();
        assert_eq!(held.len(), 1, "{}", backend.name);
        let mut other = held[0].clone();
        other.outcomes[0].close = 0.9;
        // `copy` restores into a store that holds none of its keys: one it holds is an error,
        // and the write leaves the bar as it was.
        let restored = store.restore_history(&[(bitcoin.id(), other.clone())]).await;
        assert!(restored.is_err(), "{}: {restored:?}", backend.name);
        let id = bitcoin.id();
        let bars = || async move { store.history(id, Resolution::Hour, i64::MIN, i64::MAX).await.unwrap() };
        assert_eq!(bars().await, held, "{}", backend.name);
        store.replace_history(&[(id, other.clone())]).await.unwrap();
        assert_eq!(bars().await, vec![other], "{}", backend.name);
    }
}
