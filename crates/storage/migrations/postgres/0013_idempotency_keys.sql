-- Idempotency keys (crates/storage/src/idempotency.rs): a charged call sent with an
-- `Idempotency-Key` header claims the key for its account while it runs ('in_progress', until
-- `expires_at`, the claim's lease), and keeps its answer once charged ('completed', until
-- `expires_at`, the answer's time to live). The primary key is what makes a key run once
-- however many nodes receive it. `owner` names one claim: the charge that completes the row
-- checks it in the charge's own transaction, so a call whose claim was taken over is not charged.
CREATE TABLE idempotency_keys (
    account_id         UUID        NOT NULL REFERENCES accounts (id),
    idempotency_key    TEXT        NOT NULL,
    -- SHA-256 (hex) of the method, path, canonical query and body.
    fingerprint        TEXT        NOT NULL,
    owner              UUID        NOT NULL UNIQUE,
    request_id         TEXT        NOT NULL,
    state              TEXT        NOT NULL CHECK (state IN ('in_progress', 'completed')),
    -- The kept answer, once completed: status, the headers that matter (a JSON array of
    -- [name, value] pairs), body, and what the call took.
    status             BIGINT      NOT NULL DEFAULT 0,
    headers            TEXT        NOT NULL DEFAULT '[]',
    body               BYTEA       NOT NULL DEFAULT ''::bytea,
    credits_used       BIGINT      NOT NULL DEFAULT 0,
    credits_remaining  BIGINT      NOT NULL DEFAULT 0,
    created_at         TIMESTAMPTZ NOT NULL,
    expires_at         TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, idempotency_key)
);

CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
