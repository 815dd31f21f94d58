//! PostgreSQL's column types for [`RecordRow`]: native `UUID`, `TIMESTAMPTZ`, `JSONB` and
//! `BOOLEAN`.

use marketlens_domain::Outcome;
use marketlens_domain::time::Timestamp;
use sqlx::Row;
use sqlx::postgres::PgRow;
use sqlx::types::Json;
use uuid::Uuid;

use crate::StoreError;
use crate::records::{RecordRow, decoded_as_is};

impl RecordRow for PgRow {
    decoded_as_is!(
        flag: bool,
        uuid: Uuid,
        optional_uuid: Option<Uuid>,
        timestamp: Timestamp,
        optional_timestamp: Option<Timestamp>,
    );

    fn outcomes(&self, column: &str) -> Result<Vec<Outcome>, StoreError> {
        Ok(self.try_get::<Json<Vec<Outcome>>, _>(column)?.0)
    }
}
