-- One row per finished sync run of an exchange, for freshness reports (/readyz) and audits.

CREATE TABLE sync_runs (
    id                 BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    exchange           TEXT        NOT NULL,
    kind               TEXT        NOT NULL CHECK (kind IN ('full', 'incremental')),
    started_at         TIMESTAMPTZ NOT NULL,
    finished_at        TIMESTAMPTZ NOT NULL,
    succeeded          BOOLEAN     NOT NULL,
    pages              BIGINT      NOT NULL,
    markets_inserted   BIGINT      NOT NULL,
    markets_updated    BIGINT      NOT NULL,
    markets_unchanged  BIGINT      NOT NULL,
    markets_stale      BIGINT      NOT NULL,
    events_inserted    BIGINT      NOT NULL,
    events_updated     BIGINT      NOT NULL,
    events_unchanged   BIGINT      NOT NULL,
    events_stale       BIGINT      NOT NULL,
    records_skipped    BIGINT      NOT NULL,
    errors             BIGINT      NOT NULL,
    error              TEXT
);

CREATE INDEX sync_runs_by_exchange ON sync_runs (exchange, id);
CREATE INDEX sync_runs_succeeded ON sync_runs (exchange, succeeded, id);
