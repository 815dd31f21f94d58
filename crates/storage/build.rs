//! `sqlx::migrate!` embeds the migration files when this crate compiles, and cargo does not
//! see them as inputs: without this, a migration added or edited is left out of the build
//! until some source file of the crate changes too.

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
