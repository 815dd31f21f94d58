"""Calls every operation of a running Marketlens server through the generated client and
checks what it parses: the types, the ids that must agree, and the credits, which must move by
exactly what the calls charged (`X-Credits-Used`). scripts/clients runs it against the demo.

Usage: python every_operation.py BASE_URL API_KEY ADMIN_TOKEN
"""

import sys
from typing import Any, TypeVar

from marketlens_client import connect, items, to_dataframe
from marketlens_client.openapi import AuthenticatedClient, Client
from marketlens_client.openapi.api.account import get_account
from marketlens_client.openapi.api.admin import (
    admin_add_credits,
    admin_create_account,
    admin_create_key,
    admin_get_account,
    admin_get_ledger,
    admin_list_accounts,
    admin_list_keys,
    admin_revoke_key,
    admin_update_account,
)
from marketlens_client.openapi.api.depth import get_order_book, list_order_books, list_trades
from marketlens_client.openapi.api.events import get_event, list_events
from marketlens_client.openapi.api.explain import explain_market, explain_market_by_body
from marketlens_client.openapi.api.history import get_market_history
from marketlens_client.openapi.api.markets import get_market, list_markets, lookup_market
from marketlens_client.openapi.api.operations import (
    check_liveness,
    check_readiness,
    get_metrics,
    get_open_api_document,
)
from marketlens_client.openapi.api.spreads import list_spreads
from marketlens_client.openapi.models import (
    AddCredits,
    CreateAccount,
    DataEnvelopeAccountView,
    DataEnvelopeAdminAccount,
    DataEnvelopeAdminKey,
    DataEnvelopeCreatedAccount,
    DataEnvelopeEventDetail,
    DataEnvelopeMarketDetail,
    DataEnvelopeNewKey,
    DataEnvelopeOrderBookView,
    DataEnvelopeVecAdminAccount,
    DataEnvelopeVecAdminKey,
    ExplainEnvelope,
    ExplainRequest,
    GetMarketHistoryInterval,
    HistoryEnvelope,
    LedgerPage,
    ListEnvelopeEventListItem,
    ListEnvelopeMarketListItem,
    ListEnvelopeSpreadItem,
    ListMarketsSortBy,
    MarketStatus,
    OrderBooksEnvelope,
    TradesEnvelope,
    UpdateAccount,
)
from marketlens_client.openapi.types import UNSET, Response

Parsed = TypeVar("Parsed")
charged = 0


def answered(response: Response[Any], kind: type[Parsed], status: int = 200) -> Parsed:
    """The parsed answer, checked to be `kind` with `status`; counts the credits it charged."""
    global charged
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert isinstance(response.parsed, kind), type(response.parsed)
    charged += int(response.headers.get("X-Credits-Used", 0))
    return response.parsed


def main(base_url: str, api_key: str, admin_token: str) -> None:
    api = connect(base_url, api_key)
    before = answered(get_account.sync_detailed(client=api), DataEnvelopeAccountView).data.credits_.remaining
    global charged
    charged = 0

    markets = answered(
        list_markets.sync_detailed(client=api, limit=3, sort_by=ListMarketsSortBy.VOLUME, status=MarketStatus.OPEN),
        ListEnvelopeMarketListItem,
    )
    assert markets.data and all(market.status == MarketStatus.OPEN for market in markets.data)
    volumes = [market.volume for market in markets.data]
    assert volumes == sorted(volumes, reverse=True), volumes
    market_id = markets.data[0].id

    market = answered(get_market.sync_detailed(market_id, client=api), DataEnvelopeMarketDetail).data
    assert market.id == market_id and market.outcomes
    history = answered(
        get_market_history.sync_detailed(market_id, client=api, interval=GetMarketHistoryInterval.VALUE_1),
        HistoryEnvelope,
    )
    assert history.data.market_id == market_id

    spreads = answered(list_spreads.sync_detailed(client=api), ListEnvelopeSpreadItem)
    for spread in spreads.data:
        assert 0 <= spread.spread <= 1

    events = answered(list_events.sync_detailed(client=api, limit=2), ListEnvelopeEventListItem)
    event = answered(get_event.sync_detailed(events.data[0].id, client=api), DataEnvelopeEventDetail).data
    assert event.id == events.data[0].id

    explained = answered(explain_market.sync_detailed(client=api, query=market.question), ExplainEnvelope)
    assert explained.data.meta.market_id == str(market_id), (explained.data.meta.market_id, market_id)
    by_body = answered(
        explain_market_by_body.sync_detailed(client=api, body=ExplainRequest(query=market.question)),
        ExplainEnvelope,
    )
    assert by_body.data.meta.market_id == str(market_id)
    looked_up = answered(
        lookup_market.sync_detailed(client=api, url_query=explained.data.market.url), DataEnvelopeMarketDetail
    )
    assert looked_up.data.id == market_id

    # Depth: a demo market with a recorded book and trades (demo-data/depth/SOURCES.md).
    recorded = answered(
        list_markets.sync_detailed(client=api, external_market_id="KXELONMARS-99"), ListEnvelopeMarketListItem
    ).data[0].id
    book = answered(get_order_book.sync_detailed(recorded, client=api), DataEnvelopeOrderBookView).data
    yes = book.outcomes[0]
    assert book.market_id == recorded and yes.bids[0].price < yes.asks[0].price, book
    books = answered(list_order_books.sync_detailed(client=api, ids=f"{recorded},{recorded}"), OrderBooksEnvelope)
    assert [item.market_id for item in books.data] == [recorded]
    trades, cursor = [], None
    while True:
        page = answered(list_trades.sync_detailed(recorded, client=api, limit=2, cursor=cursor or UNSET), TradesEnvelope)
        trades += page.data.trades
        if not page.pagination.has_more:
            break
        cursor = page.pagination.next_cursor
    assert len({trade.id for trade in trades}) == len(trades) == 5, trades

    after = answered(get_account.sync_detailed(client=api), DataEnvelopeAccountView).data.credits_.remaining
    assert before - after == charged, f"credits went from {before} to {after}, but the calls charged {charged}"
    print(f"python: {charged} credits charged by the calls, {before - after} taken from the account")

    # Every page of a list, and a DataFrame of it.
    every = list(items(list_markets.sync, api, page_size=200, status=MarketStatus.OPEN))
    total = answered(list_markets.sync_detailed(client=api, limit=1, status=MarketStatus.OPEN), ListEnvelopeMarketListItem)
    assert len(every) == total.pagination.total, (len(every), total.pagination.total)
    frame = to_dataframe(every[:10])
    assert list(frame["id"]) == [str(market.id) for market in every[:10]]

    public = Client(base_url=base_url, raise_on_unexpected_status=True)
    for operation in (check_liveness, check_readiness, get_open_api_document):
        assert operation.sync_detailed(client=public).status_code == 200, operation.__name__
    metrics = get_metrics.sync_detailed(client=public)
    assert metrics.status_code == 200 and b"marketlens_" in metrics.content

    admin = AuthenticatedClient(base_url=base_url, token=admin_token, raise_on_unexpected_status=True)
    created = answered(
        admin_create_account.sync_detailed(client=admin, body=CreateAccount(tier="starter", credits_=100)),
        DataEnvelopeCreatedAccount,
        201,
    ).data
    account_id = created.account.id
    assert created.account.credits_.remaining == 100 and created.key.api_key.startswith("pm_live_")
    listed = answered(admin_list_accounts.sync_detailed(client=admin), DataEnvelopeVecAdminAccount).data
    assert account_id in [account.id for account in listed]
    answered(admin_get_account.sync_detailed(account_id, client=admin), DataEnvelopeAdminAccount)
    updated = answered(
        admin_update_account.sync_detailed(account_id, client=admin, body=UpdateAccount(tier="pro")),
        DataEnvelopeAdminAccount,
    ).data
    assert updated.tier == "pro"
    topped = answered(
        admin_add_credits.sync_detailed(account_id, client=admin, body=AddCredits(credits_=50)),
        DataEnvelopeAdminAccount,
    ).data
    assert topped.credits_.remaining == 150
    key = answered(admin_create_key.sync_detailed(account_id, client=admin), DataEnvelopeNewKey, 201).data
    keys = answered(admin_list_keys.sync_detailed(account_id, client=admin), DataEnvelopeVecAdminKey).data
    assert key.id in [listed_key.id for listed_key in keys]
    revoked = answered(admin_revoke_key.sync_detailed(key.id, client=admin), DataEnvelopeAdminKey).data
    assert revoked.revoked_at
    ledger = answered(admin_get_ledger.sync_detailed(account_id, client=admin), LedgerPage)
    assert [line.credits_ for line in ledger.data] == [100, 50], [line.credits_ for line in ledger.data]
    print("python: every operation answered as documented")


if __name__ == "__main__":
    main(*sys.argv[1:4])
