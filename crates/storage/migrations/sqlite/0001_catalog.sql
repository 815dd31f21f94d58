-- The catalogue: markets, events and cross-exchange matches.
-- Timestamps are milliseconds since the Unix epoch (UTC); ids are UUID strings.

CREATE TABLE markets (
    -- A stable integer key for the full-text index (an INTEGER PRIMARY KEY survives VACUUM).
    seq                INTEGER PRIMARY KEY,
    id                 TEXT    NOT NULL UNIQUE,
    exchange           TEXT    NOT NULL,
    external_id        TEXT    NOT NULL,
    event_id           TEXT,
    event_external_id  TEXT,
    question           TEXT    NOT NULL,
    -- The question's words folded to lower-case ASCII, as the search indexes them.
    search_text        TEXT    NOT NULL,
    description        TEXT    NOT NULL,
    status             TEXT    NOT NULL,
    category           TEXT    NOT NULL,
    liquidity          REAL    NOT NULL,
    volume             REAL    NOT NULL,
    volume_24h         REAL    NOT NULL,
    start_date         INTEGER,
    end_date           INTEGER,
    source_created_at  INTEGER,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    source_updated_at  INTEGER,
    -- JSON array of {name, price, bestBidPrice?, bestAskPrice?}.
    outcomes           TEXT    NOT NULL,
    headline_price     REAL    NOT NULL,
    url_market         TEXT,
    url_event          TEXT,
    url_series         TEXT,
    url                TEXT    NOT NULL,
    image_url          TEXT    NOT NULL,
    fingerprint        INTEGER NOT NULL,
    first_seen_at      INTEGER NOT NULL,
    UNIQUE (exchange, external_id)
);

-- Every sort key, alone and behind each filter, with the id tie-break, so that a page is
-- an index range scan in either direction.
CREATE INDEX markets_by_volume            ON markets (volume, id);
CREATE INDEX markets_by_volume_24h        ON markets (volume_24h, id);
CREATE INDEX markets_by_liquidity         ON markets (liquidity, id);
CREATE INDEX markets_by_created_at        ON markets (created_at, id);
CREATE INDEX markets_exchange_volume      ON markets (exchange, volume, id);
CREATE INDEX markets_exchange_volume_24h  ON markets (exchange, volume_24h, id);
CREATE INDEX markets_exchange_liquidity   ON markets (exchange, liquidity, id);
CREATE INDEX markets_exchange_created_at  ON markets (exchange, created_at, id);
CREATE INDEX markets_status_volume        ON markets (status, volume, id);
CREATE INDEX markets_status_volume_24h    ON markets (status, volume_24h, id);
CREATE INDEX markets_status_liquidity     ON markets (status, liquidity, id);
CREATE INDEX markets_status_created_at    ON markets (status, created_at, id);
CREATE INDEX markets_category_volume      ON markets (category, volume, id);
CREATE INDEX markets_category_volume_24h  ON markets (category, volume_24h, id);
CREATE INDEX markets_category_liquidity   ON markets (category, liquidity, id);
CREATE INDEX markets_category_created_at  ON markets (category, created_at, id);
-- Counts for `total` under any combination of filters.
CREATE INDEX markets_by_filters           ON markets (exchange, status, category);
-- An event's markets, and URL lookups.
CREATE INDEX markets_by_event             ON markets (event_id);
CREATE INDEX markets_by_url_market        ON markets (exchange, url_market);
CREATE INDEX markets_by_url_event         ON markets (exchange, url_event);
CREATE INDEX markets_by_url_series        ON markets (exchange, url_series);

-- Full-text index over the folded question (external content: the text lives in markets).
CREATE VIRTUAL TABLE markets_fts USING fts5(
    search_text,
    content = 'markets',
    content_rowid = 'seq',
    tokenize = 'ascii',
    prefix = '2 3 4'
);

CREATE TRIGGER markets_fts_after_insert AFTER INSERT ON markets BEGIN
    INSERT INTO markets_fts (rowid, search_text) VALUES (new.seq, new.search_text);
END;

CREATE TRIGGER markets_fts_after_delete AFTER DELETE ON markets BEGIN
    INSERT INTO markets_fts (markets_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
END;

CREATE TRIGGER markets_fts_after_update AFTER UPDATE OF search_text ON markets BEGIN
    INSERT INTO markets_fts (markets_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
    INSERT INTO markets_fts (rowid, search_text) VALUES (new.seq, new.search_text);
END;

CREATE TABLE events (
    id                 TEXT    PRIMARY KEY NOT NULL,
    exchange           TEXT    NOT NULL,
    external_id        TEXT    NOT NULL,
    title              TEXT    NOT NULL,
    description        TEXT    NOT NULL,
    category           TEXT    NOT NULL,
    reported_volume    REAL,
    image_url          TEXT    NOT NULL,
    source_created_at  INTEGER,
    source_updated_at  INTEGER,
    slug               TEXT,
    series_slug        TEXT,
    fingerprint        INTEGER NOT NULL,
    first_seen_at      INTEGER NOT NULL,
    -- Derived from the event's stored markets after every write that touches them.
    market_count       INTEGER NOT NULL DEFAULT 0,
    total_volume       REAL    NOT NULL DEFAULT 0,
    created_at         INTEGER NOT NULL,
    UNIQUE (exchange, external_id)
);

CREATE INDEX events_by_volume           ON events (total_volume, id);
CREATE INDEX events_exchange_volume     ON events (exchange, total_volume, id);
CREATE INDEX events_category_volume     ON events (category, total_volume, id);

-- Both directions of every match are stored, so a market's matches are one range scan.
CREATE TABLE market_matches (
    market_id   TEXT NOT NULL,
    matched_id  TEXT NOT NULL,
    similarity  REAL NOT NULL,
    PRIMARY KEY (market_id, matched_id)
) WITHOUT ROWID;
