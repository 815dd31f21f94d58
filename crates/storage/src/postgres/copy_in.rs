//! PostgreSQL's bulk writes ([`RowWriter`]): rows streamed by `COPY ... FROM STDIN` in its
//! text format, instead of multi-row `INSERT`s.
//!
//! A multi-row `INSERT` of markets binds 35 parameters a row, and PostgreSQL parses, plans and
//! type-checks each statement; `COPY` sends the rows as lines of text the server reads
//! straight into the table. Rows are encoded into a buffer sent every [`CHUNK_BYTES`], so a
//! write holds at most one chunk beside the rows it was given, however many they are.
//!
//! Rows the table holds none of go straight into it ([`RowWriter::insert_rows`]). An upsert
//! ([`RowWriter::upsert_rows`]) copies its rows into a temporary table of the same columns
//! (one per table and connection, made on first use) and moves them into the table by one
//! `INSERT ... SELECT ... ON CONFLICT`, in the same statement that empties the temporary
//! table: the same semantics as the multi-row upsert, decided by the same `ON CONFLICT`.
//!
//! The text format's rules (PostgreSQL's `COPY` documentation, "Text Format"): columns are
//! separated by a tab, rows end with a newline, `\N` is NULL, and a backslash, tab, newline or
//! carriage return inside a value is written as `\\`, `\t`, `\n` or `\r`; nothing else is
//! escaped, so every other character (any Unicode) goes as its UTF-8 bytes, which the
//! connection's `client_encoding` (UTF8, set by sqlx) names. PostgreSQL text cannot hold NUL:
//! a value with one is refused before anything is sent, as the server would refuse it bound.
//! `crates/storage/tests/store/copy_in.rs` round-trips arbitrary text through it.

use marketlens_domain::time::Timestamp;
use sqlx::PgConnection;
use sqlx::postgres::PgCopyIn;
use std::fmt::Write as _;
use uuid::Uuid;

use super::Statements;
use crate::StoreError;
use crate::table_rows::{RowWriter, TableRow, ValueSink};

/// Bytes of encoded rows per `CopyData` message sent.
const CHUNK_BYTES: usize = 1 << 20;

/// Rows encoded in `COPY`'s text format.
#[derive(Default)]
struct CopyText {
    buffer: Vec<u8>,
    /// Whether the row being encoded has a value yet (the next one is preceded by a tab).
    in_row: bool,
    /// The first value that could not be encoded.
    failure: Option<StoreError>,
}

impl CopyText {
    /// Encodes `row` as one line.
    fn row(&mut self, row: &impl TableRow) -> Result<(), StoreError> {
        row.values(self)?;
        self.buffer.push(b'\n');
        self.in_row = false;
        match self.failure.take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Starts a value: the separator from the previous one.
    fn separate(&mut self) -> &mut Vec<u8> {
        if self.in_row {
            self.buffer.push(b'\t');
        }
        self.in_row = true;
        &mut self.buffer
    }

    /// A value whose text needs no escaping (numbers, ids, times, hex).
    fn plain(&mut self, value: std::fmt::Arguments) -> &mut Self {
        let _ = Appended(self.separate()).write_fmt(value);
        self
    }

    fn null(&mut self) -> &mut Self {
        self.separate().extend_from_slice(b"\\N");
        self
    }
}

impl ValueSink for CopyText {
    fn text(&mut self, value: &str) -> &mut Self {
        if value.contains('\0') {
            self.failure.get_or_insert(StoreError::Invalid(
                "a text holds a NUL character, which PostgreSQL cannot store".to_owned(),
            ));
        }
        let buffer = self.separate();
        for byte in value.bytes() {
            match byte {
                b'\\' => buffer.extend_from_slice(b"\\\\"),
                b'\t' => buffer.extend_from_slice(b"\\t"),
                b'\n' => buffer.extend_from_slice(b"\\n"),
                b'\r' => buffer.extend_from_slice(b"\\r"),
                _ => buffer.push(byte),
            }
        }
        self
    }

    fn optional_text(&mut self, value: Option<&str>) -> &mut Self {
        match value {
            Some(value) => self.text(value),
            None => self.null(),
        }
    }

    fn real(&mut self, value: f64) -> &mut Self {
        // Rust writes the shortest digits that read back as the same double; PostgreSQL
        // reads them exactly. Its names for what has no digits:
        if value.is_nan() {
            self.plain(format_args!("NaN"))
        } else if value.is_infinite() {
            self.plain(format_args!("{}Infinity", if value < 0.0 { "-" } else { "" }))
        } else {
            self.plain(format_args!("{value:?}"))
        }
    }

    fn optional_real(&mut self, value: Option<f64>) -> &mut Self {
        match value {
            Some(value) => self.real(value),
            None => self.null(),
        }
    }

    fn integer(&mut self, value: i64) -> &mut Self {
        self.plain(format_args!("{value}"))
    }

    fn id(&mut self, value: Uuid) -> &mut Self {
        self.history_id(value)
    }

    fn optional_id(&mut self, value: Option<Uuid>) -> &mut Self {
        match value {
            Some(value) => self.id(value),
            None => self.null(),
        }
    }

    fn history_id(&mut self, value: Uuid) -> &mut Self {
        self.plain(format_args!("{}", value.hyphenated()))
    }

    fn time(&mut self, value: Timestamp) -> &mut Self {
        // ISO 8601 in UTC to the microsecond, what a TIMESTAMPTZ keeps, whatever the
        // session's DateStyle or time zone.
        self.plain(format_args!("{}", value.format("%Y-%m-%dT%H:%M:%S%.6fZ")))
    }

    fn optional_time(&mut self, value: Option<Timestamp>) -> &mut Self {
        match value {
            Some(value) => self.time(value),
            None => self.null(),
        }
    }

    fn json(&mut self, value: &str) -> &mut Self {
        self.text(value)
    }

    fn bytes(&mut self, value: &[u8]) -> &mut Self {
        // BYTEA's hex form, `\x...`, its backslash escaped as any other.
        let buffer = self.separate();
        buffer.extend_from_slice(b"\\\\x");
        for byte in value {
            let _ = write!(Appended(&mut *buffer), "{byte:02x}");
        }
        self
    }
}

/// Formatted text appended to a byte buffer (writing to it cannot fail).
struct Appended<'b>(&'b mut Vec<u8>);

impl std::fmt::Write for Appended<'_> {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.0.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

/// Streams `rows` into `table` (its [`TableRow::COLUMNS`]) by one `COPY`, on `connection`.
async fn copy_rows<R: TableRow>(connection: &mut PgConnection, table: &str, rows: &[R]) -> Result<(), StoreError> {
    if rows.is_empty() {
        return Ok(());
    }
    let mut copy = connection
        .copy_in_raw(&format!("COPY {table} ({}) FROM STDIN", R::COLUMNS))
        .await?;
    let mut text = CopyText::default();
    for row in rows {
        if let Err(error) = text.row(row) {
            abort(copy).await;
            return Err(error);
        }
        if text.buffer.len() >= CHUNK_BYTES {
            send(&mut copy, &mut text).await?;
        }
    }
    send(&mut copy, &mut text).await?;
    copy.finish().await?;
    Ok(())
}

async fn send(copy: &mut PgCopyIn<&mut PgConnection>, text: &mut CopyText) -> Result<(), StoreError> {
    if !text.buffer.is_empty() {
        copy.send(text.buffer.as_slice()).await?;
        text.buffer.clear();
    }
    Ok(())
}

/// Ends a `COPY` without writing anything, leaving the connection ready for the statement
/// that rolls its transaction back.
async fn abort(copy: PgCopyIn<&mut PgConnection>) {
    if let Err(error) = copy.abort("a row could not be encoded").await {
        tracing::warn!(%error, "ending a COPY");
    }
}

impl RowWriter for Statements<'_> {
    async fn insert_rows<R: TableRow>(&mut self, table: &str, rows: &[R]) -> Result<(), StoreError> {
        copy_rows(&mut *self.0, table, rows).await
    }

    async fn upsert_rows<R: TableRow>(&mut self, table: &str, rows: &[R], on_conflict: &str) -> Result<(), StoreError> {
        if rows.is_empty() {
            return Ok(());
        }
        let staged = format!("pg_temp.copied_{table}");
        // `IF NOT EXISTS` tells of an existing table by a notice, which sqlx would log at
        // every write; this transaction's notices are not wanted.
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
            "SET LOCAL client_min_messages = warning; \
             CREATE TEMPORARY TABLE IF NOT EXISTS {staged} AS SELECT {columns} FROM {table} WITH NO DATA",
            columns = R::COLUMNS
        )))
        .execute(&mut *self.0)
        .await?;
        copy_rows(&mut *self.0, &staged, rows).await?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "WITH moved AS (DELETE FROM {staged} RETURNING {columns}) \
             INSERT INTO {table} ({columns}) SELECT {columns} FROM moved{on_conflict}",
            columns = R::COLUMNS
        )))
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marketlens_domain::time::from_epoch_millis;

    struct Texts(Vec<Option<&'static str>>);

    impl TableRow for Texts {
        const COLUMNS: &'static str = "";

        fn values(&self, sink: &mut impl ValueSink) -> Result<(), StoreError> {
            for text in &self.0 {
                sink.optional_text(*text);
            }
            Ok(())
        }
    }

    fn encoded(row: &impl TableRow) -> Result<String, StoreError> {
        let mut text = CopyText::default();
        text.row(row)?;
        Ok(String::from_utf8(text.buffer).unwrap())
    }

    #[test]
    fn text_escapes_only_what_the_format_gives_a_meaning() {
        let row = Texts(vec![
            Some("tab\there"),
            Some("line\nbreak\r"),
            Some("back\\slash \\N"),
            None,
            Some(""),
            Some("é ✓ \"quoted\" 'single' , ; |"),
        ]);
        assert_eq!(
            encoded(&row).unwrap(),
            "tab\\there\tline\\nbreak\\r\tback\\\\slash \\\\N\t\\N\t\té ✓ \"quoted\" 'single' , ; |\n"
        );
    }

    #[test]
    fn nul_is_refused() {
        assert!(matches!(
            encoded(&Texts(vec![Some("a\0b")])),
            Err(StoreError::Invalid(_))
        ));
    }

    struct Values;

    impl TableRow for Values {
        const COLUMNS: &'static str = "";

        fn values(&self, sink: &mut impl ValueSink) -> Result<(), StoreError> {
            sink.real(0.1)
                .real(1e300)
                .real(f64::NEG_INFINITY)
                .integer(-7)
                .time(from_epoch_millis(1_750_000_000_123))
                .bytes(&[0, 0xab, 0xff])
                .optional_time(None);
            Ok(())
        }
    }

    #[test]
    fn numbers_times_and_bytes_in_the_forms_postgresql_reads() {
        assert_eq!(
            encoded(&Values).unwrap(),
            "0.1\t1e300\t-Infinity\t-7\t2025-06-15T15:06:40.123000Z\t\\\\x00abff\t\\N\n"
        );
    }
}
