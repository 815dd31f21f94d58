//! Marketlens's in-memory catalogue: the lists, totals, sorts and search of the API answered
//! from memory, whatever the catalogue's size, and kept in step with the store; and the news
//! explain draws its key factors from, held the same way.
//!
//! Why not the store's own queries: at a million markets a list's `total` (a count over the
//! filters), a deep page (an offset of 100,000) and a search on a common word each cost a
//! database tens to hundreds of milliseconds, and the API is to answer every call in a few.
//! Here a list is a handful of operations on compressed bitmaps (`roaring`) of precomputed
//! sort orders, and a search intersects the bitmaps of its words. What a single market's page
//! shows in full (its description, dates, URLs) stays in the store, which answers that by its
//! primary key, so memory holds only what lists need.
//!
//! - [`CatalogReader`]: what the API reads; [`StoreReader`] answers it with the store's queries.
//! - [`Snapshot`]: one immutable, indexed picture of the catalogue.
//! - [`LiveCatalog`]: the current snapshot, reloaded when the store's revision moves, and the
//!   store's queries until the first load finishes.
//! - [`ItemForm`]: which of the API's renderings of a market a list keeps per snapshot
//!   ([`LiveCatalog::list_rendered_markets`]), so that a page is copied rather than serialized.
//! - [`LiveNews`]: the recent news articles in a relevance index, for explain's key factors.
//! - [`explain`]: the one market a query names (a URL or free words), and what the news says
//!   of it: store and catalogue reads, no HTTP.
//!
//! Invariant: a snapshot answers every query exactly as the store does (the same items in the
//! same order, the same totals); the tests hold both to it. Only search for explain
//! ([`CatalogReader::search_any_words`]) may rank differently, as each store's index does.

pub mod explain;
mod live;
mod news;
mod reader;
mod rendered;
mod snapshot;

pub use live::{CatalogSettings, CatalogStatus, LiveCatalog};
pub use marketlens_news::MarketLife;
pub use news::{LiveNews, MarketNews};
pub use reader::{CatalogReader, SearchHit, StoreReader};
pub use rendered::ItemForm;
pub use snapshot::{Snapshot, Spread, SpreadQuery, SpreadSort};
