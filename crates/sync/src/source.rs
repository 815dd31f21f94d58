//! What to ask each exchange for. Gamma walks events with their nested markets through its
//! keyset endpoint (its offset paging is refused past a few thousand records and its plain
//! list endpoints are retired), and looks single markets up by id on `/markets/keyset`. Kalshi
//! walks `/events` with nested markets, which avoids the flood of generated combination
//! markets on `/markets`, and looks markets up on `/markets` by ticker. Both cursor-paged.
//!
//! An incremental walk asks only for what can change: open events (Gamma `closed=false`,
//! Kalshi `status=open`). Markets that closed since are found by looking up every market the
//! store holds as open that the walk did not return.

use marketlens_domain::Exchange;
use url::form_urlencoded::Serializer;

/// How much of an exchange to walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    /// Everything the exchange lists.
    Everything,
    /// Open events only.
    Open,
}

/// Markets looked up per request: Gamma's keyset endpoint returns at most 100 per page, and
/// Kalshi's `tickers` filter is kept to the same size to keep URLs short.
pub const LOOKUP_BATCH: usize = 100;

/// The path and query of one page of a walk.
pub fn walk_page(exchange: Exchange, walk: Walk, page_size: u32, cursor: Option<&str>) -> String {
    let mut query = Serializer::new(String::new());
    query.append_pair("limit", &page_size.to_string());
    match exchange {
        Exchange::Polymarket => {
            if walk == Walk::Open {
                query.append_pair("closed", "false");
            }
            if let Some(cursor) = cursor {
                query.append_pair("after_cursor", cursor);
            }
            format!("/events/keyset?{}", query.finish())
        }
        Exchange::Kalshi => {
            query.append_pair("with_nested_markets", "true");
            if walk == Walk::Open {
                query.append_pair("status", "open");
            }
            if let Some(cursor) = cursor {
                query.append_pair("cursor", cursor);
            }
            format!("/events?{}", query.finish())
        }
    }
}

/// The path and query that look up these markets (at most [`LOOKUP_BATCH`]) by the
/// exchange's own id.
pub fn market_lookup(exchange: Exchange, external_ids: &[String]) -> String {
    let mut query = Serializer::new(String::new());
    match exchange {
        Exchange::Polymarket => {
            query.append_pair("limit", &LOOKUP_BATCH.to_string());
            for id in external_ids {
                query.append_pair("id", id);
            }
            format!("/markets/keyset?{}", query.finish())
        }
        Exchange::Kalshi => {
            query.append_pair("limit", &LOOKUP_BATCH.to_string());
            query.append_pair("tickers", &external_ids.join(","));
            format!("/markets?{}", query.finish())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_each_exchanges_requests() {
        assert_eq!(
            walk_page(Exchange::Polymarket, Walk::Everything, 500, None),
            "/events/keyset?limit=500"
        );
        assert_eq!(
            walk_page(Exchange::Polymarket, Walk::Open, 200, Some("k 1/2")),
            "/events/keyset?limit=200&closed=false&after_cursor=k+1%2F2"
        );
        assert_eq!(
            walk_page(Exchange::Kalshi, Walk::Open, 200, Some("CgYI")),
            "/events?limit=200&with_nested_markets=true&status=open&cursor=CgYI"
        );
        assert_eq!(
            market_lookup(Exchange::Polymarket, &["1".into(), "22".into()]),
            "/markets/keyset?limit=100&id=1&id=22"
        );
        assert_eq!(
            market_lookup(Exchange::Kalshi, &["KX-A".into(), "KX-B".into()]),
            "/markets?limit=100&tickers=KX-A%2CKX-B"
        );
    }
}
