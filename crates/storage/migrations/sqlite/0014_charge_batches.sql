-- Charge batches (crates/storage/src/accounts.rs): every batch of charges records itself, with
-- what became of each charge, in its own transaction, so that a server whose connection broke
-- while the batch committed can learn afterwards whether it did. Records are swept after a day.
CREATE TABLE charge_batches (
    id           TEXT    PRIMARY KEY,
    -- A JSON array: one outcome per charge, in the batch's order.
    outcomes     TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    -- Set once the batch's charges for calls never answered were given back.
    refunded_at  INTEGER
);

CREATE INDEX charge_batches_by_time ON charge_batches (created_at);

-- The ledger takes refund lines: a charge given back because its call was never answered.
CREATE TABLE ledger_with_refunds (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  TEXT    NOT NULL REFERENCES accounts (id),
    api_key_id  TEXT,
    kind        TEXT    NOT NULL CHECK (kind IN ('credit', 'charge', 'refund')),
    operation   TEXT,
    credits     INTEGER NOT NULL CHECK (credits > 0),
    request_id  TEXT,
    created_at  INTEGER NOT NULL
);

INSERT INTO ledger_with_refunds (id, account_id, api_key_id, kind, operation, credits, request_id, created_at)
    SELECT id, account_id, api_key_id, kind, operation, credits, request_id, created_at FROM ledger;

-- Line ids are never reused: the new table continues the old one's sequence.
DELETE FROM sqlite_sequence WHERE name = 'ledger_with_refunds';
INSERT INTO sqlite_sequence (name, seq) SELECT 'ledger_with_refunds', seq FROM sqlite_sequence WHERE name = 'ledger';

DROP TABLE ledger;
ALTER TABLE ledger_with_refunds RENAME TO ledger;
CREATE INDEX ledger_by_account ON ledger (account_id, id);
