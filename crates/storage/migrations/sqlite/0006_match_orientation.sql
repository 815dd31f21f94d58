-- How the outcomes of a matched pair line up: SAME (first with first) or FLIPPED (the first
-- outcome of one pays when the second of the other does). Matches stored before the matcher
-- knew this were Yes/No questions asked the same way.
ALTER TABLE market_matches ADD COLUMN orientation TEXT NOT NULL DEFAULT 'SAME'
    CHECK (orientation IN ('SAME', 'FLIPPED'));
