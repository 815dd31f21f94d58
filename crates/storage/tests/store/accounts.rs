use marketlens_domain::account::{AccountStatus, LedgerKind};
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::billing::Operation;
use marketlens_storage::{ChargeRequest, NewAccount, ReserveError, Store};
use std::sync::Arc;
use uuid::Uuid;

use crate::{at, backends};

fn new_account(credits: i64) -> NewAccount {
    NewAccount {
        label: "test".into(),
        tier: "free".into(),
        wallet_address: String::new(),
        initial_credits: credits,
    }
}

fn charge(account_id: Uuid, key_id: Uuid, operation: Operation) -> ChargeRequest {
    ChargeRequest {
        account_id,
        api_key_id: key_id,
        operation,
        request_id: "req".into(),
        now: at(5),
    }
}

/// `purchased - used = remaining`, and the ledger sums to the same figures.
async fn assert_books_balance(store: &Arc<dyn Store>, account_id: Uuid) {
    let account = store.get_account(account_id).await.unwrap().unwrap();
    assert_eq!(
        account.credits_purchased - account.credits_used,
        account.credits_remaining
    );
    let ledger = store.ledger(account_id).await.unwrap();
    let sum = |kind: LedgerKind| {
        ledger
            .iter()
            .filter(|entry| entry.kind == kind)
            .map(|entry| entry.credits)
            .sum::<i64>()
    };
    assert_eq!(sum(LedgerKind::Credit), account.credits_purchased);
    assert_eq!(sum(LedgerKind::Charge) - sum(LedgerKind::Refund), account.credits_used);
}

#[tokio::test]
async fn keys_authenticate_until_revoked() {
    for backend in backends().await {
        let store = &backend.store;
        let account = store.create_account(new_account(10), at(0)).await.unwrap();
        let key = ApiKey::generate(&mut rand::rng());
        let record = store
            .create_key(account.id, key.hash(), &key.truncated(), at(1))
            .await
            .unwrap();
        let (found_key, found_account) = store.authenticate(&key.hash()).await.unwrap().unwrap();
        assert_eq!(found_key.id, record.id, "{}", backend.name);
        assert_eq!(found_account, account);
        assert_eq!(
            store.list_keys(account.id).await.unwrap(),
            std::slice::from_ref(&record)
        );

        let other = ApiKey::generate(&mut rand::rng());
        assert!(store.authenticate(&other.hash()).await.unwrap().is_none());

        let revoked = store.revoke_key(record.id, at(2)).await.unwrap();
        assert_eq!(revoked.revoked_at, Some(at(2)));
        assert!(store.authenticate(&key.hash()).await.unwrap().is_none());
        assert_eq!(
            store.revoke_key(record.id, at(3)).await.unwrap().revoked_at,
            Some(at(2)),
            "revoking twice keeps the first time"
        );
        assert!(store.revoke_key(Uuid::new_v4(), at(3)).await.is_err());
        assert!(
            store
                .create_key(Uuid::new_v4(), other.hash(), "x", at(3))
                .await
                .is_err()
        );
    }
}

#[tokio::test]
async fn reservations_settle_refund_and_never_overspend() {
    for backend in backends().await {
        let store = &backend.store;
        let account = store.create_account(new_account(6), at(0)).await.unwrap();
        let key_id = Uuid::new_v4();

        let explain = store
            .reserve(charge(account.id, key_id, Operation::Explain))
            .await
            .unwrap();
        assert_eq!(explain.credits, 5, "{}", backend.name);
        assert_eq!(
            store.get_account(account.id).await.unwrap().unwrap().credits_remaining,
            1
        );
        assert!(store.settle(&explain).await.unwrap());
        assert!(!store.settle(&explain).await.unwrap(), "settling twice does nothing");
        assert!(
            !store.refund(&explain, at(6)).await.unwrap(),
            "a settled charge is not refunded"
        );

        match store.reserve(charge(account.id, key_id, Operation::Explain)).await {
            Err(ReserveError::Insufficient {
                required: 5,
                remaining: 1,
            }) => {}
            other => panic!("expected insufficient credits, got {other:?}"),
        }

        let list = store
            .reserve(charge(account.id, key_id, Operation::ListMarkets))
            .await
            .unwrap();
        assert_eq!(
            store.get_account(account.id).await.unwrap().unwrap().credits_remaining,
            0
        );
        assert!(store.refund(&list, at(7)).await.unwrap());
        assert!(
            !store.refund(&list, at(8)).await.unwrap(),
            "refunding twice gives back once"
        );
        let after = store.get_account(account.id).await.unwrap().unwrap();
        assert_eq!(
            (after.credits_remaining, after.credits_used, after.credits_purchased),
            (1, 5, 6)
        );
        assert_books_balance(store, account.id).await;

        let topped = store.add_credits(account.id, 10, at(9)).await.unwrap();
        assert_eq!((topped.credits_remaining, topped.credits_purchased), (11, 16));
        assert!(store.add_credits(account.id, 0, at(9)).await.is_err());
        assert!(store.add_credits(Uuid::new_v4(), 5, at(9)).await.is_err());
        assert_books_balance(store, account.id).await;
    }
}

#[tokio::test]
async fn stale_reservations_are_released_once() {
    for backend in backends().await {
        let store = &backend.store;
        let account = store.create_account(new_account(3), at(0)).await.unwrap();
        let pending = store
            .reserve(charge(account.id, Uuid::new_v4(), Operation::GetMarket))
            .await
            .unwrap();
        assert_eq!(
            store.release_stale_reservations(at(1), at(100)).await.unwrap(),
            0,
            "{}: not stale yet",
            backend.name
        );
        assert_eq!(store.release_stale_reservations(at(60), at(100)).await.unwrap(), 1);
        assert_eq!(store.release_stale_reservations(at(60), at(100)).await.unwrap(), 0);
        assert!(
            !store.settle(&pending).await.unwrap(),
            "a released reservation cannot settle"
        );
        assert_eq!(
            store.get_account(account.id).await.unwrap().unwrap().credits_remaining,
            3
        );
        assert_books_balance(store, account.id).await;
    }
}

#[tokio::test]
async fn concurrent_reservations_take_exactly_the_balance() {
    for backend in backends().await {
        let store = backend.store.clone();
        let account = store.create_account(new_account(17), at(0)).await.unwrap();
        let key_id = Uuid::new_v4();
        let attempts: Vec<_> = (0..60)
            .map(|_| {
                let store = store.clone();
                tokio::spawn(async move { store.reserve(charge(account.id, key_id, Operation::GetMarket)).await })
            })
            .collect();
        let mut granted = 0;
        for attempt in attempts {
            match attempt.await.unwrap() {
                Ok(reservation) => {
                    granted += 1;
                    store.settle(&reservation).await.unwrap();
                }
                Err(ReserveError::Insufficient { .. }) => {}
                Err(other) => panic!("{}: unexpected error {other}", backend.name),
            }
        }
        assert_eq!(granted, 17);
        let after = store.get_account(account.id).await.unwrap().unwrap();
        assert_eq!(after.credits_remaining, 0);
        assert_books_balance(&store, account.id).await;
    }
}

#[tokio::test]
async fn accounts_list_find_and_suspend() {
    for backend in backends().await {
        let store = &backend.store;
        let first = store.create_account(new_account(0), at(0)).await.unwrap();
        let mut demo = new_account(100);
        demo.label = "demo".into();
        demo.wallet_address = "0xabc".into();
        let second = store.create_account(demo, at(1)).await.unwrap();
        assert_eq!(
            store.list_accounts().await.unwrap(),
            [first.clone(), second.clone()],
            "{}",
            backend.name
        );
        assert_eq!(store.find_account_by_label("demo").await.unwrap(), Some(second.clone()));
        assert_eq!(store.find_account_by_label("nobody").await.unwrap(), None);
        let suspended = store
            .set_account_status(first.id, AccountStatus::Suspended)
            .await
            .unwrap();
        assert_eq!(suspended.status, AccountStatus::Suspended);
        assert!(
            store
                .set_account_status(Uuid::new_v4(), AccountStatus::Active)
                .await
                .is_err()
        );
        assert!(store.create_account(new_account(-1), at(2)).await.is_err());
    }
}
