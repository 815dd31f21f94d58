-- Leases: which node runs a job that must run on one node at a time (the background sync).
-- A holder renews its lease well before it expires; a lease whose holder stopped renewing
-- (it stopped or died) expires and another node takes it.

CREATE TABLE leases (
    name        TEXT        PRIMARY KEY,
    holder      TEXT        NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);
