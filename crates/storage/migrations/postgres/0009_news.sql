-- News for explain: articles from the configured feeds, each kept once (by canonical link and
-- by headline key), and what the last poll of each feed did.

CREATE TABLE articles (
    id            BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- The canonical link.
    url           TEXT        NOT NULL UNIQUE,
    -- The headline folded to its words (marketlens_news::title_key): the same headline under
    -- another link is the same article.
    title_key     TEXT        NOT NULL UNIQUE,
    title         TEXT        NOT NULL,
    summary       TEXT        NOT NULL,
    publisher     TEXT        NOT NULL,
    published_at  TIMESTAMPTZ,
    fetched_at    TIMESTAMPTZ NOT NULL,
    -- published_at (never after fetched_at), else fetched_at: what recency and ageing use.
    dated_at      TIMESTAMPTZ NOT NULL
);

CREATE INDEX articles_by_date ON articles (dated_at);

CREATE TABLE news_feeds (
    url              TEXT        PRIMARY KEY,
    last_polled_at   TIMESTAMPTZ NOT NULL,
    last_success_at  TIMESTAMPTZ,
    last_error       TEXT,
    -- Articles the last successful poll added.
    articles_added   BIGINT      NOT NULL DEFAULT 0
);
