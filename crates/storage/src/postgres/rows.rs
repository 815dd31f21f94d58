//! PostgreSQL's column types for [`RecordRow`]: native `UUID`, `TIMESTAMPTZ`, `JSONB` and
//! `BOOLEAN`.

use marketlens_domain::Outcome;
use marketlens_domain::time::Timestamp;
use sqlx::Row;
use sqlx::postgres::PgRow;
use sqlx::types::Json;
use uuid::Uuid;

use crate::StoreError;
use crate::records::RecordRow;

impl RecordRow for PgRow {
    fn text(&self, column: &str) -> Result<String, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn optional_text(&self, column: &str) -> Result<Option<String>, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn real(&self, column: &str) -> Result<f64, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn optional_real(&self, column: &str) -> Result<Option<f64>, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn integer(&self, column: &str) -> Result<i64, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn flag(&self, column: &str) -> Result<bool, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn uuid(&self, column: &str) -> Result<Uuid, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn optional_uuid(&self, column: &str) -> Result<Option<Uuid>, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn timestamp(&self, column: &str) -> Result<Timestamp, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn optional_timestamp(&self, column: &str) -> Result<Option<Timestamp>, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn outcomes(&self, column: &str) -> Result<Vec<Outcome>, StoreError> {
        Ok(self.try_get::<Json<Vec<Outcome>>, _>(column)?.0)
    }
}
