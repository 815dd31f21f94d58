//! Each market's list item as the API renders it, kept for the life of one snapshot, so that a
//! page of a list is its items' bytes copied rather than each item serialized again.
//!
//! Why: serializing a default list page (numbers, ids, times, escaped questions) took about a
//! quarter of its server CPU at benchmark load (`bench/profile.sh`, README "Performance"),
//! while the same few hundred markets head most pages. An item depends only on the snapshot's
//! data, so it can be kept exactly as long as the snapshot: a new snapshot starts empty.
//!
//! What it does not do: decide what an item looks like (the caller's `render` does, and must
//! give the same bytes for the same market and form), or keep more than [`KEPT_BYTES`] per
//! snapshot: past that, items not kept yet are rendered on every call, as before, so that a
//! client paging through the whole catalogue cannot grow memory without bound.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Which rendering of a market a list asks for: the API lists a market with or without its
/// outcomes (`include=outcomes`), and each is kept apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemForm {
    Plain,
    WithOutcomes,
}

const FORMS: usize = 2;

/// The most bytes of rendered items (and their slots) one snapshot keeps: about 200,000 plain
/// items.
const KEPT_BYTES: usize = 64 << 20;

/// Markets per chunk of slots: a chunk is allocated when one of its markets is first kept, so
/// that a snapshot of a million markets costs no 24 MB of empty slots per form.
const CHUNK: usize = 1024;

type Slots = Box<[OnceLock<Arc<[u8]>>]>;

pub(crate) struct RenderedItems {
    /// Per form, per chunk of docs, each doc's item once rendered.
    chunks: [Box<[OnceLock<Slots>]>; FORMS],
    /// Bytes kept so far, items and chunks.
    kept: AtomicUsize,
}

impl RenderedItems {
    /// Room for the items of `markets` docs, none kept yet.
    pub(crate) fn new(markets: usize) -> RenderedItems {
        RenderedItems {
            chunks: std::array::from_fn(|_| (0..markets.div_ceil(CHUNK)).map(|_| OnceLock::new()).collect()),
            kept: AtomicUsize::new(0),
        }
    }

    /// `doc`'s item in `form`: the one kept, or `render`'s, kept if there is room.
    pub(crate) fn item(&self, form: ItemForm, doc: u32, render: impl FnOnce() -> Vec<u8>) -> Arc<[u8]> {
        let doc = doc as usize;
        let chunk = &self.chunks[form as usize][doc / CHUNK];
        if let Some(item) = chunk.get().and_then(|slots| slots[doc % CHUNK].get()) {
            return item.clone();
        }
        if self.kept.load(Ordering::Relaxed) >= KEPT_BYTES {
            return render().into();
        }
        let slots = chunk.get_or_init(|| {
            self.kept
                .fetch_add(CHUNK * size_of::<OnceLock<Arc<[u8]>>>(), Ordering::Relaxed);
            (0..CHUNK).map(|_| OnceLock::new()).collect()
        });
        slots[doc % CHUNK]
            .get_or_init(|| {
                let item: Arc<[u8]> = render().into();
                self.kept.fetch_add(item.len(), Ordering::Relaxed);
                item
            })
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_is_rendered_once_per_form() {
        let items = RenderedItems::new(3 * CHUNK);
        let renders = AtomicUsize::new(0);
        let render = |text: &'static str| {
            renders.fetch_add(1, Ordering::Relaxed);
            text.as_bytes().to_vec()
        };
        assert_eq!(&*items.item(ItemForm::Plain, 2049, || render("plain")), b"plain");
        assert_eq!(&*items.item(ItemForm::Plain, 2049, || render("again")), b"plain");
        assert_eq!(&*items.item(ItemForm::WithOutcomes, 2049, || render("full")), b"full");
        assert_eq!(&*items.item(ItemForm::Plain, 0, || render("other")), b"other");
        assert_eq!(renders.load(Ordering::Relaxed), 3);
    }

    #[test]
    fn past_the_budget_items_are_rendered_every_time() {
        let items = RenderedItems::new(CHUNK);
        items.kept.store(KEPT_BYTES, Ordering::Relaxed);
        assert_eq!(&*items.item(ItemForm::Plain, 5, || b"first".to_vec()), b"first");
        assert_eq!(&*items.item(ItemForm::Plain, 5, || b"second".to_vec()), b"second");
        assert!(
            items.chunks[0][0].get().is_none(),
            "no chunk is allocated past the budget"
        );
    }
}
