-- One row per finished sync run of an exchange, for freshness reports (/readyz) and audits.

CREATE TABLE sync_runs (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    exchange           TEXT    NOT NULL,
    kind               TEXT    NOT NULL CHECK (kind IN ('full', 'incremental')),
    started_at         INTEGER NOT NULL,
    finished_at        INTEGER NOT NULL,
    succeeded          INTEGER NOT NULL CHECK (succeeded IN (0, 1)),
    pages              INTEGER NOT NULL,
    markets_inserted   INTEGER NOT NULL,
    markets_updated    INTEGER NOT NULL,
    markets_unchanged  INTEGER NOT NULL,
    markets_stale      INTEGER NOT NULL,
    events_inserted    INTEGER NOT NULL,
    events_updated     INTEGER NOT NULL,
    events_unchanged   INTEGER NOT NULL,
    events_stale       INTEGER NOT NULL,
    records_skipped    INTEGER NOT NULL,
    errors             INTEGER NOT NULL,
    error              TEXT
);

CREATE INDEX sync_runs_by_exchange ON sync_runs (exchange, id);
CREATE INDEX sync_runs_succeeded ON sync_runs (exchange, succeeded, id);
