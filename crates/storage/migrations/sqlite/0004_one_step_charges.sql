-- Credits now move in one step: a call is charged when its work has succeeded, so the ledger
-- needs no pending/settled/refunded states any more.
--
-- Charges still pending under the earlier two-phase scheme (their process died) are given
-- back; a refunded charge and its refund cancel out and are both removed. What remains is
-- credits added and final charges, and purchased - used = remaining still holds, with
-- purchased = the sum of credit lines and used = the sum of charge lines.

UPDATE accounts SET
    credits_remaining = credits_remaining + COALESCE((
        SELECT SUM(l.credits) FROM ledger l
        WHERE l.account_id = accounts.id AND l.kind = 'charge' AND l.state = 'pending'), 0),
    credits_used = credits_used - COALESCE((
        SELECT SUM(l.credits) FROM ledger l
        WHERE l.account_id = accounts.id AND l.kind = 'charge' AND l.state = 'pending'), 0);

DELETE FROM ledger WHERE kind = 'refund' OR (kind = 'charge' AND state IN ('pending', 'refunded'));

CREATE TABLE ledger_one_step (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  TEXT    NOT NULL REFERENCES accounts (id),
    api_key_id  TEXT,
    kind        TEXT    NOT NULL CHECK (kind IN ('credit', 'charge')),
    operation   TEXT,
    credits     INTEGER NOT NULL CHECK (credits > 0),
    request_id  TEXT,
    created_at  INTEGER NOT NULL
);

INSERT INTO ledger_one_step (id, account_id, api_key_id, kind, operation, credits, request_id, created_at)
    SELECT id, account_id, api_key_id, kind, operation, credits, request_id, created_at FROM ledger;

-- Line ids are never reused: the new table continues the old one's sequence.
DELETE FROM sqlite_sequence WHERE name = 'ledger_one_step';
INSERT INTO sqlite_sequence (name, seq) SELECT 'ledger_one_step', seq FROM sqlite_sequence WHERE name = 'ledger';

DROP TABLE ledger;
ALTER TABLE ledger_one_step RENAME TO ledger;
CREATE INDEX ledger_by_account ON ledger (account_id, id);
