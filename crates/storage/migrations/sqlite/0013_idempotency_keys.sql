-- Idempotency keys (crates/storage/src/idempotency.rs): a charged call sent with an
-- `Idempotency-Key` header claims the key for its account while it runs ('in_progress', until
-- `expires_at`, the claim's lease), and keeps its answer once charged ('completed', until
-- `expires_at`, the answer's time to live). The primary key is what makes a key run once
-- however many nodes receive it. `owner` names one claim: the charge that completes the row
-- checks it in the charge's own transaction, so a call whose claim was taken over is not charged.
CREATE TABLE idempotency_keys (
    account_id         TEXT        NOT NULL REFERENCES accounts (id),
    idempotency_key    TEXT        NOT NULL,
    -- SHA-256 (hex) of the method, path, canonical query and body.
    fingerprint        TEXT        NOT NULL,
    owner              TEXT        NOT NULL UNIQUE,
    request_id         TEXT        NOT NULL,
    state              TEXT        NOT NULL CHECK (state IN ('in_progress', 'completed')),
    -- The kept answer, once completed: status, the headers that matter (a JSON array of
    -- [name, value] pairs), body, and what the call took.
    status             INTEGER     NOT NULL DEFAULT 0,
    headers            TEXT        NOT NULL DEFAULT '[]',
    body               BLOB        NOT NULL DEFAULT X'',
    credits_used       INTEGER     NOT NULL DEFAULT 0,
    credits_remaining  INTEGER     NOT NULL DEFAULT 0,
    created_at         INTEGER     NOT NULL,
    expires_at         INTEGER     NOT NULL,
    PRIMARY KEY (account_id, idempotency_key)
);

CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
