-- Long texts compressed by LZ4 rather than PostgreSQL's own pglz. A row past about 2 KB has its
-- long values compressed as it is written, and pglz made that a quarter of PostgreSQL's CPU
-- while `copy` wrote a million markets: 50-59 s to write them with pglz, 44-46 s with LZ4, and
-- the table 2% smaller (1,838 MB against 1,873). Rows written before keep pglz until they are
-- written again; both read back the same.
--
-- LZ4 needs PostgreSQL 14 or later built with it (Debian's and the official images are): on a
-- server without it the columns keep pglz, and the store works as before. The statement is
-- run by EXECUTE so that an older server's parser meets it inside the handler.
DO $$
BEGIN
    EXECUTE 'ALTER TABLE markets
        ALTER COLUMN question SET COMPRESSION lz4,
        ALTER COLUMN search_text SET COMPRESSION lz4,
        ALTER COLUMN search_words SET COMPRESSION lz4,
        ALTER COLUMN description SET COMPRESSION lz4,
        ALTER COLUMN outcomes SET COMPRESSION lz4,
        ALTER COLUMN rules_primary SET COMPRESSION lz4,
        ALTER COLUMN rules_secondary SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE events ALTER COLUMN description SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
    RAISE NOTICE 'LZ4 compression is not available on this server: long texts stay compressed by pglz';
END
$$;
