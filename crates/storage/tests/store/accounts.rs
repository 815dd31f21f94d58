use marketlens_domain::account::{AccountStatus, LedgerKind};
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::billing::Operation;
use marketlens_storage::{ChargeOutcome, ChargeRequest, LedgerTotals, NewAccount, Store};
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
        credits: operation.cost(),
        request_id: "req".into(),
        now: at(5),
        keep: None,
    }
}

/// `purchased - used = remaining`, and the ledger sums to the same figures.
async fn assert_books_balance(store: &Arc<dyn Store>, account_id: Uuid) {
    let account = store.get_account(account_id).await.unwrap().unwrap();
    assert_eq!(
        account.credits_purchased - account.credits_used,
        account.credits_remaining
    );
    let totals = store.ledger_totals(account_id).await.unwrap();
    assert_eq!(totals.credited, account.credits_purchased);
    assert_eq!(totals.used(), account.credits_used);
    let ledger = store.ledger(account_id, None, 10_000).await.unwrap();
    assert_eq!(ledger.len() as u64, totals.lines);
    let sum = |kind: LedgerKind| {
        ledger
            .iter()
            .filter(|entry| entry.kind == kind)
            .map(|entry| entry.credits)
            .sum::<i64>()
    };
    assert_eq!(sum(LedgerKind::Credit), totals.credited);
    assert_eq!(sum(LedgerKind::Charge), totals.charged);
    assert_eq!(sum(LedgerKind::Refund), totals.refunded);
}

/// An account with `credits` and one live key.
async fn account_with_key(store: &Arc<dyn Store>, credits: i64) -> (Uuid, Uuid) {
    let account = store.create_account(new_account(credits), at(0)).await.unwrap();
    let key = ApiKey::generate(&mut rand::rng());
    let record = store
        .create_key(account.id, key.hash(), &key.truncated(), at(0))
        .await
        .unwrap();
    (account.id, record.id)
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
async fn charges_take_only_what_the_balance_covers() {
    for backend in backends().await {
        let store = &backend.store;
        let (account_id, key_id) = account_with_key(store, 6).await;

        let outcomes = store
            .charge(Uuid::new_v4(), &[charge(account_id, key_id, Operation::Explain)])
            .await
            .unwrap();
        assert_eq!(outcomes, [ChargeOutcome::Charged { remaining: 1 }], "{}", backend.name);
        let outcomes = store
            .charge(
                Uuid::new_v4(),
                &[
                    charge(account_id, key_id, Operation::Explain),
                    charge(account_id, key_id, Operation::ListMarkets),
                    charge(account_id, key_id, Operation::ListMarkets),
                ],
            )
            .await
            .unwrap();
        assert_eq!(
            outcomes,
            [
                ChargeOutcome::Insufficient {
                    required: 5,
                    remaining: 1
                },
                ChargeOutcome::Charged { remaining: 0 },
                ChargeOutcome::Insufficient {
                    required: 1,
                    remaining: 0
                },
            ]
        );
        let after = store.get_account(account_id).await.unwrap().unwrap();
        assert_eq!(
            (after.credits_remaining, after.credits_used, after.credits_purchased),
            (0, 6, 6)
        );
        let ledger = store.ledger(account_id, None, 100).await.unwrap();
        let charges: Vec<(Option<String>, i64)> = ledger
            .iter()
            .filter(|entry| entry.kind == LedgerKind::Charge)
            .map(|entry| (entry.operation.clone(), entry.credits))
            .collect();
        assert_eq!(
            charges,
            [(Some("explain".to_owned()), 5), (Some("listMarkets".to_owned()), 1)]
        );
        assert!(
            ledger
                .iter()
                .all(|entry| entry.api_key_id.is_none() || entry.api_key_id == Some(key_id))
        );
        assert_books_balance(store, account_id).await;

        let topped = store.add_credits(account_id, 10, at(9)).await.unwrap();
        assert_eq!((topped.credits_remaining, topped.credits_purchased), (10, 16));
        assert!(store.add_credits(account_id, 0, at(9)).await.is_err());
        assert!(store.add_credits(Uuid::new_v4(), 5, at(9)).await.is_err());
        assert_books_balance(store, account_id).await;
        assert_eq!(store.charge(Uuid::new_v4(), &[]).await.unwrap(), []);
    }
}

#[tokio::test]
async fn a_batch_whose_commit_went_unconfirmed_is_settled_and_given_back_once() {
    for backend in backends().await {
        let store = &backend.store;
        let name = backend.name;
        let (account_id, key_id) = account_with_key(store, 10).await;
        let explain = charge(account_id, key_id, Operation::Explain);
        let list = charge(account_id, key_id, Operation::ListMarkets);

        // A batch that committed: settling it tells its outcomes, as often as asked.
        let committed = Uuid::new_v4();
        let outcomes = store.charge(committed, &[explain.clone(), list.clone()]).await.unwrap();
        for _ in 0..2 {
            let settled = store.settle_charge_batch(committed, at(6)).await.unwrap();
            assert_eq!(settled.as_deref(), Some(&outcomes[..]), "{name}");
        }

        // A batch that never committed: settling it says so, and it can never commit after.
        let lost = Uuid::new_v4();
        assert_eq!(store.settle_charge_batch(lost, at(6)).await.unwrap(), None, "{name}");
        assert!(store.charge(lost, std::slice::from_ref(&list)).await.is_err(), "{name}");
        assert_eq!(store.settle_charge_batch(lost, at(7)).await.unwrap(), None, "{name}");
        assert!(
            !store.refund(lost, std::slice::from_ref(&list), at(7)).await.unwrap(),
            "{name}"
        );
        let account = store.get_account(account_id).await.unwrap().unwrap();
        assert_eq!((account.credits_remaining, account.credits_used), (4, 6), "{name}");

        // The committed batch's explain was never answered: given back once, however often asked.
        assert!(
            store
                .refund(committed, std::slice::from_ref(&explain), at(8))
                .await
                .unwrap(),
            "{name}"
        );
        assert!(
            !store
                .refund(committed, std::slice::from_ref(&explain), at(8))
                .await
                .unwrap(),
            "{name}"
        );
        let account = store.get_account(account_id).await.unwrap().unwrap();
        assert_eq!((account.credits_remaining, account.credits_used), (9, 1), "{name}");
        let refunds: Vec<_> = store
            .ledger(account_id, None, 100)
            .await
            .unwrap()
            .into_iter()
            .filter(|entry| entry.kind == LedgerKind::Refund)
            .map(|entry| (entry.operation, entry.credits, entry.request_id))
            .collect();
        assert_eq!(
            refunds,
            [(Some("explain".to_owned()), 5, Some("req".to_owned()))],
            "{name}"
        );
        assert_books_balance(store, account_id).await;

        // Records are swept by age.
        assert_eq!(store.delete_charge_batches_before(at(5)).await.unwrap(), 0, "{name}");
        assert_eq!(store.delete_charge_batches_before(at(100)).await.unwrap(), 2, "{name}");
        assert_eq!(
            store.settle_charge_batch(committed, at(101)).await.unwrap(),
            None,
            "{name}"
        );
    }
}

#[tokio::test]
async fn charges_refuse_revoked_keys_suspended_accounts_and_foreign_keys() {
    for backend in backends().await {
        let store = &backend.store;
        let (account_id, key_id) = account_with_key(store, 10).await;
        let (other_account_id, other_key_id) = account_with_key(store, 10).await;
        store.revoke_key(key_id, at(1)).await.unwrap();
        store
            .set_account_status(other_account_id, AccountStatus::Suspended)
            .await
            .unwrap();
        let outcomes = store
            .charge(
                Uuid::new_v4(),
                &[
                    charge(account_id, key_id, Operation::GetMarket),
                    charge(account_id, other_key_id, Operation::GetMarket),
                    charge(other_account_id, other_key_id, Operation::GetMarket),
                    charge(Uuid::new_v4(), Uuid::new_v4(), Operation::GetMarket),
                ],
            )
            .await
            .unwrap();
        assert_eq!(
            outcomes,
            [
                ChargeOutcome::KeyRevoked,
                ChargeOutcome::KeyRevoked,
                ChargeOutcome::AccountSuspended,
                ChargeOutcome::KeyRevoked,
            ],
            "{}",
            backend.name
        );
        for account in [account_id, other_account_id] {
            assert_eq!(store.get_account(account).await.unwrap().unwrap().credits_remaining, 10);
            assert_books_balance(store, account).await;
        }
    }
}

#[tokio::test]
async fn the_ledger_pages_oldest_first() {
    for backend in backends().await {
        let store = &backend.store;
        let (account_id, key_id) = account_with_key(store, 20).await;
        let batch: Vec<ChargeRequest> = (0..7)
            .map(|_| charge(account_id, key_id, Operation::ListEvents))
            .collect();
        store.charge(Uuid::new_v4(), &batch).await.unwrap();
        let first = store.ledger(account_id, None, 3).await.unwrap();
        assert_eq!(first.len(), 3, "{}", backend.name);
        assert_eq!(first[0].kind, LedgerKind::Credit);
        let rest = store.ledger(account_id, Some(first[2].id), 100).await.unwrap();
        assert_eq!(rest.len(), 5);
        assert!(rest.windows(2).all(|pair| pair[0].id < pair[1].id) && first[2].id < rest[0].id);
        assert_eq!(
            store.ledger_totals(account_id).await.unwrap(),
            LedgerTotals {
                credited: 20,
                charged: 7,
                refunded: 0,
                lines: 8
            }
        );
    }
}

#[tokio::test]
async fn concurrent_charges_take_exactly_the_balance() {
    for backend in backends().await {
        let store = backend.store.clone();
        let (account_id, key_id) = account_with_key(&store, 17).await;
        let attempts: Vec<_> = (0..60)
            .map(|index| {
                let store = store.clone();
                // Single charges and batches of three, racing each other.
                let size = if index % 2 == 0 { 1 } else { 3 };
                tokio::spawn(async move {
                    let batch: Vec<ChargeRequest> = (0..size)
                        .map(|_| charge(account_id, key_id, Operation::GetMarket))
                        .collect();
                    store.charge(Uuid::new_v4(), &batch).await
                })
            })
            .collect();
        let mut granted = 0;
        for attempt in attempts {
            for outcome in attempt.await.unwrap().unwrap() {
                match outcome {
                    ChargeOutcome::Charged { .. } => granted += 1,
                    ChargeOutcome::Insufficient { .. } => {}
                    other => panic!("{}: unexpected outcome {other:?}", backend.name),
                }
            }
        }
        assert_eq!(granted, 17, "{}", backend.name);
        let after = store.get_account(account_id).await.unwrap().unwrap();
        assert_eq!(after.credits_remaining, 0);
        assert_books_balance(&store, account_id).await;
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
        let moved = store.set_account_tier(first.id, "pro").await.unwrap();
        assert_eq!((moved.tier.as_str(), moved.status), ("pro", AccountStatus::Suspended));
        assert_eq!(store.get_account(first.id).await.unwrap().unwrap().tier, "pro");
        assert!(store.set_account_tier(Uuid::new_v4(), "pro").await.is_err());
        assert!(
            store
                .set_account_status(Uuid::new_v4(), AccountStatus::Active)
                .await
                .is_err()
        );
        assert!(store.create_account(new_account(-1), at(2)).await.is_err());
    }
}
