-- Long texts compressed by LZ4 rather than PostgreSQL's own pglz. A row past about 2 KB has its
-- long values compressed as it is written, and pglz made that a quarter of PostgreSQL's CPU
-- while `copy` wrote a million markets: 50-59 s to write them with pglz, 44-46 s with LZ4, and
-- the table 2% smaller (1,838 MB against 1,873). Values stored before stay as they are until
-- they are written again; both read back the same.
--
-- LZ4 needs PostgreSQL 14 or later built with it (Debian's and the official images are): the
-- setting `default_toast_compression` lists it among its values exactly then. Elsewhere the
-- columns keep pglz and the store works as before.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings
               WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        -- EXECUTE: a server older than 14 would not parse SET COMPRESSION in this block.
        EXECUTE 'ALTER TABLE markets
            ALTER COLUMN question SET COMPRESSION lz4,
            ALTER COLUMN search_text SET COMPRESSION lz4,
            ALTER COLUMN search_words SET COMPRESSION lz4,
            ALTER COLUMN description SET COMPRESSION lz4,
            ALTER COLUMN outcomes SET COMPRESSION lz4,
            ALTER COLUMN rules_primary SET COMPRESSION lz4,
            ALTER COLUMN rules_secondary SET COMPRESSION lz4';
        EXECUTE 'ALTER TABLE events ALTER COLUMN description SET COMPRESSION lz4';
    ELSE
        RAISE NOTICE 'LZ4 compression is not available on this server: long texts stay compressed by pglz';
    END IF;
END
$$;
