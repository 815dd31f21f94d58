-- A market's resolution rules as its exchange states them, and a resolved market's result
-- (marketlens_domain::market::{Rules, Resolution}), served by get market.
--
-- Markets stored before this migration have neither until a sync or import writes them
-- again: their normalized form now holds both, so its fingerprint differs and the upsert
-- rewrites them.
ALTER TABLE markets ADD COLUMN rules_primary TEXT;
ALTER TABLE markets ADD COLUMN rules_secondary TEXT;
ALTER TABLE markets ADD COLUMN rules_source TEXT;
-- The winning outcome's name; NULL unless the market is RESOLVED with a single winner.
ALTER TABLE markets ADD COLUMN resolution_outcome TEXT;
-- NULL unless the market is RESOLVED and the exchange said when.
ALTER TABLE markets ADD COLUMN resolved_at TIMESTAMPTZ;
