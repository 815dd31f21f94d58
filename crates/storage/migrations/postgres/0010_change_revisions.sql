-- The catalogue revision of the write that last changed each market and event, so that the
-- matcher can read what changed since it last looked instead of every market.
ALTER TABLE markets ADD COLUMN changed_revision BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN changed_revision BIGINT NOT NULL DEFAULT 0;
CREATE INDEX markets_by_changed_revision ON markets (changed_revision);
CREATE INDEX events_by_changed_revision ON events (changed_revision);
