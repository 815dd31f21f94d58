-- What a bulk load into an empty catalogue dropped, to build once after it (see the storage
-- crate's `bulk` module): the statements that create those indexes and triggers. Empty
-- except while a load runs, or after one was killed; opening the store builds them back.
CREATE TABLE deferred_schema (
    name  TEXT PRIMARY KEY NOT NULL,
    type  TEXT NOT NULL,  -- 'index' or 'trigger'
    sql   TEXT NOT NULL
);
