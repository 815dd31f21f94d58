//! SQLite's column types for [`RecordRow`]: UUIDs as text, times as epoch milliseconds,
//! outcomes as JSON text, flags as 0 or 1.

use marketlens_domain::Outcome;
use marketlens_domain::time::{Timestamp, from_epoch_millis};
use sqlx::Row;
use sqlx::sqlite::SqliteRow;
use uuid::Uuid;

use crate::StoreError;
use crate::records::{RecordRow, corrupt, decoded_as_is};

impl RecordRow for SqliteRow {
    decoded_as_is!();

    fn flag(&self, column: &str) -> Result<bool, StoreError> {
        Ok(self.try_get::<i64, _>(column)? == 1)
    }

    fn uuid(&self, column: &str) -> Result<Uuid, StoreError> {
        self.parsed(column)
    }

    fn optional_uuid(&self, column: &str) -> Result<Option<Uuid>, StoreError> {
        let text: Option<String> = self.try_get(column)?;
        text.map(|text| text.parse().map_err(|error| corrupt(column, error)))
            .transpose()
    }

    fn timestamp(&self, column: &str) -> Result<Timestamp, StoreError> {
        Ok(from_epoch_millis(self.try_get(column)?))
    }

    fn optional_timestamp(&self, column: &str) -> Result<Option<Timestamp>, StoreError> {
        let millis: Option<i64> = self.try_get(column)?;
        Ok(millis.map(from_epoch_millis))
    }

    fn outcomes(&self, column: &str) -> Result<Vec<Outcome>, StoreError> {
        let json: String = self.try_get(column)?;
        serde_json::from_str(&json).map_err(|error| corrupt(column, error))
    }
}
