-- Accounts, API keys and the credit ledger.

CREATE TABLE accounts (
    id                 TEXT    PRIMARY KEY NOT NULL,
    label              TEXT    NOT NULL DEFAULT '',
    tier               TEXT    NOT NULL,
    wallet_address     TEXT    NOT NULL DEFAULT '',
    status             TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
    credits_remaining  INTEGER NOT NULL CHECK (credits_remaining >= 0),
    credits_purchased  INTEGER NOT NULL CHECK (credits_purchased >= 0),
    credits_used       INTEGER NOT NULL CHECK (credits_used >= 0),
    created_at         INTEGER NOT NULL,
    CHECK (credits_purchased - credits_used = credits_remaining)
);

CREATE INDEX accounts_by_label ON accounts (label);

CREATE TABLE api_keys (
    id          TEXT    PRIMARY KEY NOT NULL,
    account_id  TEXT    NOT NULL REFERENCES accounts (id),
    -- SHA-256 of the full key; the key itself is never stored.
    key_hash    BLOB    NOT NULL UNIQUE,
    display     TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    revoked_at  INTEGER
);

CREATE INDEX api_keys_by_account ON api_keys (account_id);

CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  TEXT    NOT NULL REFERENCES accounts (id),
    api_key_id  TEXT,
    kind        TEXT    NOT NULL CHECK (kind IN ('credit', 'charge', 'refund')),
    operation   TEXT,
    credits     INTEGER NOT NULL CHECK (credits > 0),
    state       TEXT    CHECK (state IN ('pending', 'settled', 'refunded')),
    refund_of   INTEGER UNIQUE REFERENCES ledger (id),
    request_id  TEXT,
    created_at  INTEGER NOT NULL
);

CREATE INDEX ledger_by_account ON ledger (account_id, id);
-- Finding reservations that no call settled or refunded (a node died mid-call).
CREATE INDEX ledger_pending ON ledger (created_at) WHERE state = 'pending';
