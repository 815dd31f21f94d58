-- What a bulk load into an empty catalogue dropped, to build once after it (see the storage
-- crate's `bulk` module): the statements that create those indexes. Empty except while a load
-- runs, or after one was cut short; opening the store builds them back.
CREATE TABLE deferred_schema (
    name  TEXT PRIMARY KEY NOT NULL,
    type  TEXT NOT NULL,  -- 'index'
    sql   TEXT NOT NULL
);
