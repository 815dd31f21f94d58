-- A counter every write to the catalogue (markets, events, matches) raises in its own
-- transaction, so that each node's in-memory catalogue can tell cheaply whether the store
-- changed since it was loaded, whichever node wrote.
CREATE TABLE catalog_state (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    revision  BIGINT  NOT NULL
);
INSERT INTO catalog_state (id, revision) VALUES (1, 1);
