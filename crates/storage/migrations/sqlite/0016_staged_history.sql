-- The first observations of the markets a bulk load writes (see the storage crate's `bulk`
-- module), appended in the load's order with no index to keep: moved into price_history, in
-- its key order, when the load ends, or when the store next opens if the load was cut. Empty
-- except while a load runs.
CREATE TABLE price_history_staged (
    market_id    BLOB    NOT NULL,
    resolution   INTEGER NOT NULL,
    bucket_start INTEGER NOT NULL,
    first_at     INTEGER NOT NULL,
    last_at      INTEGER NOT NULL,
    outcomes     TEXT    NOT NULL,
    volume       REAL    NOT NULL,
    volume_24h   REAL    NOT NULL,
    liquidity    REAL    NOT NULL
);
