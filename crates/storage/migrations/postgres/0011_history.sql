-- Freshness and price history (marketlens_domain::history).

-- When Marketlens last wrote each market's figures: the observation time of the sync or
-- import that changed them. Markets stored before this migration count as observed when
-- first seen, their figures are at least that fresh.
ALTER TABLE markets ADD COLUMN observed_at TIMESTAMPTZ;
UPDATE markets SET observed_at = first_seen_at;
ALTER TABLE markets ALTER COLUMN observed_at SET NOT NULL;

-- One row per market, resolution and bucket: each outcome's open, high, low and close over
-- the bucket, and the market's figures as of its latest observation. Every observation is
-- merged into its five-minute, hourly and daily rows; five-minute rows are deleted after a
-- week, hourly ones after 90 days (by default). The key keeps each market's rows of one
-- resolution together, in time order, as the history call reads them.
CREATE TABLE price_history (
    market_id    UUID             NOT NULL,
    resolution   BIGINT           NOT NULL,  -- seconds: 300, 3600 or 86400
    bucket_start BIGINT           NOT NULL,  -- seconds since the epoch (UTC), a multiple of resolution
    first_at     TIMESTAMPTZ      NOT NULL,  -- the earliest observation merged in
    last_at      TIMESTAMPTZ      NOT NULL,  -- and the latest
    outcomes     TEXT             NOT NULL,  -- JSON: [[open, high, low, close], ...], one per outcome
    volume       DOUBLE PRECISION NOT NULL,
    volume_24h   DOUBLE PRECISION NOT NULL,
    liquidity    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (market_id, resolution, bucket_start)
);

-- For the expiry: the rows of a resolution older than its retention.
CREATE INDEX price_history_by_age ON price_history (resolution, bucket_start);
