-- The catalogue: markets, events and cross-exchange matches.

CREATE TABLE markets (
    id                 UUID             PRIMARY KEY,
    exchange           TEXT             NOT NULL,
    external_id        TEXT             NOT NULL,
    event_id           UUID,
    event_external_id  TEXT,
    question           TEXT             NOT NULL,
    -- The question's words folded to lower-case ASCII (marketlens_domain::text::words), as
    -- search matches them.
    search_text        TEXT             NOT NULL,
    -- Those words as lexemes, exactly (no parser or stemmer of PostgreSQL's in between), so
    -- that search finds what SQLite's index finds.
    search_words       TSVECTOR         GENERATED ALWAYS AS (array_to_tsvector(string_to_array(search_text, ' '))) STORED,
    description        TEXT             NOT NULL,
    status             TEXT             NOT NULL,
    category           TEXT             NOT NULL,
    liquidity          DOUBLE PRECISION NOT NULL,
    volume             DOUBLE PRECISION NOT NULL,
    volume_24h         DOUBLE PRECISION NOT NULL,
    start_date         TIMESTAMPTZ,
    end_date           TIMESTAMPTZ,
    source_created_at  TIMESTAMPTZ,
    created_at         TIMESTAMPTZ      NOT NULL,
    updated_at         TIMESTAMPTZ      NOT NULL,
    source_updated_at  TIMESTAMPTZ,
    -- JSON array of {name, price, bestBidPrice?, bestAskPrice?}.
    outcomes           JSONB            NOT NULL,
    headline_price     DOUBLE PRECISION NOT NULL,
    url_market         TEXT,
    url_event          TEXT,
    url_series         TEXT,
    url                TEXT             NOT NULL,
    image_url          TEXT             NOT NULL,
    fingerprint        BIGINT           NOT NULL,
    first_seen_at      TIMESTAMPTZ      NOT NULL,
    UNIQUE (exchange, external_id)
);

-- Lists, counts and search are served from each server's in-memory catalogue; the store's own
-- list queries only answer while it loads. One index per sort key, with the id tie-break, so
-- that a page is an index range scan in either direction; filters scan it.
CREATE INDEX markets_by_volume            ON markets (volume, id);
CREATE INDEX markets_by_volume_24h        ON markets (volume_24h, id);
CREATE INDEX markets_by_liquidity         ON markets (liquidity, id);
CREATE INDEX markets_by_created_at        ON markets (created_at, id);
CREATE INDEX markets_by_filters           ON markets (exchange, status, category);
CREATE INDEX markets_by_event             ON markets (event_id);
CREATE INDEX markets_by_url_market        ON markets (exchange, url_market);
CREATE INDEX markets_by_url_event         ON markets (exchange, url_event text_pattern_ops);
CREATE INDEX markets_by_url_series        ON markets (exchange, url_series);
-- Search: every word as a prefix (`word:*`).
CREATE INDEX markets_search               ON markets USING GIN (search_words);

CREATE TABLE events (
    id                 UUID             PRIMARY KEY,
    exchange           TEXT             NOT NULL,
    external_id        TEXT             NOT NULL,
    title              TEXT             NOT NULL,
    description        TEXT             NOT NULL,
    category           TEXT             NOT NULL,
    reported_volume    DOUBLE PRECISION,
    image_url          TEXT             NOT NULL,
    source_created_at  TIMESTAMPTZ,
    source_updated_at  TIMESTAMPTZ,
    slug               TEXT,
    series_slug        TEXT,
    fingerprint        BIGINT           NOT NULL,
    first_seen_at      TIMESTAMPTZ      NOT NULL,
    -- Derived from the event's stored markets after every write that touches them.
    market_count       BIGINT           NOT NULL DEFAULT 0,
    total_volume       DOUBLE PRECISION NOT NULL DEFAULT 0,
    created_at         TIMESTAMPTZ      NOT NULL,
    UNIQUE (exchange, external_id)
);

CREATE INDEX events_by_volume           ON events (total_volume, id);
CREATE INDEX events_exchange_volume     ON events (exchange, total_volume, id);
CREATE INDEX events_category_volume     ON events (category, total_volume, id);

-- Both directions of every match are stored, so a market's matches are one range scan.
CREATE TABLE market_matches (
    market_id   UUID             NOT NULL,
    matched_id  UUID             NOT NULL,
    similarity  DOUBLE PRECISION NOT NULL,
    -- How the two markets' outcomes line up: SAME (first with first) or FLIPPED.
    orientation TEXT             NOT NULL CHECK (orientation IN ('SAME', 'FLIPPED')),
    PRIMARY KEY (market_id, matched_id)
);
