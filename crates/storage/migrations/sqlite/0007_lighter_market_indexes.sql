-- Lists, counts and search are served from each server's in-memory catalogue; the store's own
-- list queries only answer while that catalogue loads. An index for every filter and sort key
-- pair made every write of a market update sixteen indexes for queries that now run once in a
-- while: keep one index per sort key, and let a filter scan it.
DROP INDEX markets_exchange_volume;
DROP INDEX markets_exchange_volume_24h;
DROP INDEX markets_exchange_liquidity;
DROP INDEX markets_exchange_created_at;
DROP INDEX markets_status_volume;
DROP INDEX markets_status_volume_24h;
DROP INDEX markets_status_liquidity;
DROP INDEX markets_status_created_at;
DROP INDEX markets_category_volume;
DROP INDEX markets_category_volume_24h;
DROP INDEX markets_category_liquidity;
DROP INDEX markets_category_created_at;
