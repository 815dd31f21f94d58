-- Charge batches (crates/storage/src/accounts.rs): every batch of charges records itself, with
-- what became of each charge, in its own transaction, so that a server whose connection broke
-- while the batch committed can learn afterwards whether it did. Records are swept after a day.
CREATE TABLE charge_batches (
    id           UUID        PRIMARY KEY,
    -- A JSON array: one outcome per charge, in the batch's order.
    outcomes     TEXT        NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    -- Set once the batch's charges for calls never answered were given back.
    refunded_at  TIMESTAMPTZ
);

CREATE INDEX charge_batches_by_time ON charge_batches (created_at);

-- The ledger takes refund lines: a charge given back because its call was never answered.
ALTER TABLE ledger DROP CONSTRAINT ledger_kind_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_kind_check CHECK (kind IN ('credit', 'charge', 'refund'));
