//! Idempotency keys: one claim at a time, the answer kept in the charge's transaction, and
//! nothing left behind once a record's time is up.

use marketlens_domain::api_key::ApiKey;
use marketlens_domain::billing::Operation;
use marketlens_domain::time::Timestamp;
use marketlens_storage::{
    AnswerToKeep, ChargeOutcome, ChargeRequest, ClaimOutcome, IdempotencyClaim, IdempotencyState, KeptAnswer,
    NewAccount, NewClaim, Store,
};
use std::sync::Arc;
use uuid::Uuid;

use crate::{at, backends};

async fn account_with_key(store: &Arc<dyn Store>, credits: i64) -> (Uuid, Uuid) {
    let new_account = NewAccount {
        label: "idempotency".into(),
        tier: "free".into(),
        wallet_address: String::new(),
        initial_credits: credits,
    };
    let account = store.create_account(new_account, at(0)).await.unwrap();
    let key = ApiKey::generate(&mut rand::rng());
    let record = store
        .create_key(account.id, key.hash(), &key.truncated(), at(0))
        .await
        .unwrap();
    (account.id, record.id)
}

fn claim_of(account_id: Uuid, key: &str) -> IdempotencyClaim {
    IdempotencyClaim {
        account_id,
        key: key.to_owned(),
        owner: Uuid::new_v4(),
    }
}

fn new_claim(claim: &IdempotencyClaim, fingerprint: &str, now: Timestamp, lease_until: Timestamp) -> NewClaim {
    NewClaim {
        claim: claim.clone(),
        fingerprint: fingerprint.to_owned(),
        request_id: format!("request of {}", claim.owner),
        now,
        lease_until,
    }
}

fn charge_keeping(
    account_id: Uuid,
    key_id: Uuid,
    claim: &IdempotencyClaim,
    now: Timestamp,
    expires_at: Timestamp,
) -> ChargeRequest {
    ChargeRequest {
        account_id,
        api_key_id: key_id,
        operation: Operation::Explain,
        credits: Operation::Explain.cost(),
        request_id: "charged".into(),
        now,
        keep: Some(Arc::new(AnswerToKeep {
            claim: claim.clone(),
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            body: b"{\"answer\":1}".to_vec(),
            expires_at,
        })),
    }
}

#[tokio::test]
async fn a_key_is_claimed_once_and_its_answer_kept_by_the_charge() {
    for backend in backends().await {
        let store = &backend.store;
        let name = backend.name;
        let (account_id, key_id) = account_with_key(store, 12).await;
        let first = claim_of(account_id, "order-1");
        assert_eq!(
            store
                .claim_idempotency_key(&new_claim(&first, "f", at(10), at(50)))
                .await
                .unwrap(),
            ClaimOutcome::Claimed,
            "{name}"
        );
        // A second claim, from any node, finds the first running.
        let second = claim_of(account_id, "order-1");
        let ClaimOutcome::Taken(running) = store
            .claim_idempotency_key(&new_claim(&second, "f", at(11), at(51)))
            .await
            .unwrap()
        else {
            panic!("{name}: the key was claimed twice");
        };
        assert_eq!(running.state, IdempotencyState::InProgress, "{name}");
        assert_eq!(running.fingerprint, "f");

        // Another account's key of the same name is its own.
        let (other_account, _) = account_with_key(store, 1).await;
        assert_eq!(
            store
                .claim_idempotency_key(&new_claim(&claim_of(other_account, "order-1"), "g", at(11), at(51)))
                .await
                .unwrap(),
            ClaimOutcome::Claimed,
            "{name}"
        );

        // The charge of a claim that is not held (the second's) is refused, uncharged; the
        // holder's is taken and keeps the answer; a second charge of it is refused.
        let outcomes = store
            .charge(
                Uuid::new_v4(),
                &[
                    charge_keeping(account_id, key_id, &second, at(12), at(1000)),
                    charge_keeping(account_id, key_id, &first, at(12), at(1000)),
                    charge_keeping(account_id, key_id, &first, at(12), at(1000)),
                ],
            )
            .await
            .unwrap();
        assert_eq!(
            outcomes,
            [
                ChargeOutcome::ClaimLost,
                ChargeOutcome::Charged { remaining: 7 },
                ChargeOutcome::ClaimLost
            ],
            "{name}"
        );
        let kept = store
            .idempotency_record(account_id, "order-1", at(13))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            kept.state,
            IdempotencyState::Completed(KeptAnswer {
                status: 200,
                headers: vec![("content-type".into(), "application/json".into())],
                body: b"{\"answer\":1}".to_vec(),
                credits_used: 5,
                credits_remaining: 7,
            }),
            "{name}"
        );
        assert_eq!(kept.expires_at, at(1000));
        // Releasing a completed claim changes nothing; a later claim finds the answer.
        store.release_idempotency_key(&first).await.unwrap();
        let ClaimOutcome::Taken(found) = store
            .claim_idempotency_key(&new_claim(&claim_of(account_id, "order-1"), "f", at(20), at(60)))
            .await
            .unwrap()
        else {
            panic!("{name}: a kept answer was taken over");
        };
        assert_eq!(found, kept);
        assert_eq!(store.ledger_totals(account_id).await.unwrap().charged, 5, "{name}");

        // Once its time is up the answer is ignored, and the key claimed afresh.
        assert!(
            store
                .idempotency_record(account_id, "order-1", at(1000))
                .await
                .unwrap()
                .is_none()
        );
        assert_eq!(
            store
                .claim_idempotency_key(&new_claim(&claim_of(account_id, "order-1"), "h", at(1000), at(1040)))
                .await
                .unwrap(),
            ClaimOutcome::Claimed,
            "{name}"
        );
    }
}

#[tokio::test]
async fn a_lapsed_claim_is_taken_over_and_its_holder_can_no_longer_charge() {
    for backend in backends().await {
        let store = &backend.store;
        let name = backend.name;
        let (account_id, key_id) = account_with_key(store, 10).await;
        let dead = claim_of(account_id, "k");
        store
            .claim_idempotency_key(&new_claim(&dead, "f", at(10), at(50)))
            .await
            .unwrap();
        let successor = claim_of(account_id, "k");
        assert!(
            matches!(
                store
                    .claim_idempotency_key(&new_claim(&successor, "f", at(49), at(90)))
                    .await
                    .unwrap(),
                ClaimOutcome::Taken(_)
            ),
            "{name}: the lease still runs"
        );
        assert_eq!(
            store
                .claim_idempotency_key(&new_claim(&successor, "f", at(50), at(90)))
                .await
                .unwrap(),
            ClaimOutcome::Claimed,
            "{name}: a lapsed claim is taken over"
        );
        let outcomes = store
            .charge(
                Uuid::new_v4(),
                &[charge_keeping(account_id, key_id, &dead, at(51), at(500))],
            )
            .await
            .unwrap();
        assert_eq!(outcomes, [ChargeOutcome::ClaimLost], "{name}");
        assert_eq!(store.ledger_totals(account_id).await.unwrap().charged, 0);
    }
}

#[tokio::test]
async fn a_released_claim_frees_the_key_and_expired_records_are_swept() {
    for backend in backends().await {
        let store = &backend.store;
        let name = backend.name;
        let (account_id, key_id) = account_with_key(store, 10).await;
        let released = claim_of(account_id, "retry-me");
        store
            .claim_idempotency_key(&new_claim(&released, "f", at(10), at(50)))
            .await
            .unwrap();
        store.release_idempotency_key(&released).await.unwrap();
        assert!(
            store
                .idempotency_record(account_id, "retry-me", at(11))
                .await
                .unwrap()
                .is_none(),
            "{name}"
        );
        let kept = claim_of(account_id, "kept");
        store
            .claim_idempotency_key(&new_claim(&kept, "f", at(10), at(50)))
            .await
            .unwrap();
        store
            .charge(
                Uuid::new_v4(),
                &[charge_keeping(account_id, key_id, &kept, at(11), at(200))],
            )
            .await
            .unwrap();
        let lapsed = claim_of(account_id, "lapsed");
        store
            .claim_idempotency_key(&new_claim(&lapsed, "f", at(10), at(50)))
            .await
            .unwrap();
        assert_eq!(
            store.delete_expired_idempotency_records(at(49)).await.unwrap(),
            0,
            "{name}"
        );
        assert_eq!(
            store.delete_expired_idempotency_records(at(50)).await.unwrap(),
            1,
            "{name}"
        );
        assert!(
            store
                .idempotency_record(account_id, "kept", at(60))
                .await
                .unwrap()
                .is_some()
        );
        assert_eq!(
            store.delete_expired_idempotency_records(at(200)).await.unwrap(),
            1,
            "{name}"
        );
        assert!(
            store
                .idempotency_record(account_id, "kept", at(60))
                .await
                .unwrap()
                .is_none()
        );
    }
}
