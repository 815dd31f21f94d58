"""The hand-written helpers against a scripted server (httpx.MockTransport): retries after
429, pages, errors and DataFrames. tests/test_every_operation.py runs the client against a
real server."""

import asyncio
from typing import Any

import httpx
import pytest

from marketlens_client import MarketlensError, RetryOn429, items, to_dataframe
from marketlens_client.openapi import AuthenticatedClient
from marketlens_client.openapi.api.account import get_account
from marketlens_client.openapi.api.markets import list_markets
from marketlens_client.openapi.models.category import Category
from marketlens_client.openapi.models.data_envelope_account_view import DataEnvelopeAccountView
from marketlens_client.openapi.models.list_envelope_market_list_item import ListEnvelopeMarketListItem
from marketlens_client.retry import retry_after

MARKET = {
    "id": "00000000-0000-0000-0000-000000000001",
    "exchangeId": "KALSHI",
    "externalMarketId": "KXTEST-1",
    "question": "Will it?",
    "status": "OPEN",
    "category": "Economics",
    "liquidity": 1.0,
    "volume": 2.0,
    "volume24h": 3.0,
    "createdAt": "2025-01-01T00:00:00.000Z",
}
ERROR = {
    "success": False,
    "error": {"code": "INSUFFICIENT_CREDITS", "message": "Not enough credits."},
    "requestId": "r",
}


def client_of(handler: Any, sleeps: list[float] | None = None) -> AuthenticatedClient:
    transport = RetryOn429(
        sync_transport=httpx.MockTransport(handler),
        async_transport=httpx.MockTransport(handler),
        sleep=(sleeps.append if sleeps is not None else lambda _: None),
    )
    return AuthenticatedClient(base_url="http://test", token="k", httpx_args={"transport": transport})


def page(offset: int, total: int, size: int) -> dict[str, Any]:
    count = max(0, min(size, total - offset))
    return {
        "data": [dict(MARKET, externalMarketId=f"KXTEST-{offset + n}") for n in range(count)],
        "pagination": {"total": total, "limit": size, "offset": offset, "hasMore": offset + count < total},
    }


def test_a_429_is_retried_after_its_retry_after_and_then_answered() -> None:
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.headers["Authorization"])
        if len(calls) < 3:
            return httpx.Response(429, headers={"Retry-After": "2"}, json=ERROR)
        return httpx.Response(200, json=page(0, 1, 50))

    sleeps: list[float] = []
    answer = list_markets.sync(client=client_of(handler, sleeps))
    assert isinstance(answer, ListEnvelopeMarketListItem)
    assert len(calls) == 3 and calls[0] == "Bearer k"
    assert sleeps == [2.0, 2.0]


def test_retries_stop_at_the_limit_and_the_429_is_returned() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, headers={"Retry-After": "1"}, json=ERROR)

    transport = RetryOn429(retries=2, sync_transport=httpx.MockTransport(handler), sleep=lambda _: None)
    with httpx.Client(transport=transport) as client:
        assert client.get("http://test/").status_code == 429


def test_a_wait_longer_than_max_wait_is_not_waited_out() -> None:
    sleeps: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, headers={"Retry-After": "3600"})

    transport = RetryOn429(max_wait=60, sync_transport=httpx.MockTransport(handler), sleep=sleeps.append)
    with httpx.Client(transport=transport) as client:
        assert client.get("http://test/").status_code == 429
    assert sleeps == []


def test_the_async_client_retries_too() -> None:
    calls = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        return httpx.Response(429, headers={"Retry-After": "0"}) if calls == 1 else httpx.Response(200, json={})

    transport = RetryOn429(async_transport=httpx.MockTransport(handler))

    async def get() -> int:
        async with httpx.AsyncClient(transport=transport) as client:
            return (await client.get("http://test/")).status_code

    assert asyncio.run(get()) == 200 and calls == 2


def test_retry_after_reads_seconds_and_dates_and_falls_back() -> None:
    assert retry_after(httpx.Response(429, headers={"Retry-After": "7"})) == 7.0
    assert retry_after(httpx.Response(429, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})) == 0.0
    assert retry_after(httpx.Response(429)) == 1.0


def test_items_walks_every_page() -> None:
    offsets: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        offset, limit = int(request.url.params["offset"]), int(request.url.params["limit"])
        offsets.append(offset)
        assert request.url.params["category"] == "Economics"
        return httpx.Response(200, json=page(offset, 5, limit))

    markets = list(items(list_markets.sync, client_of(handler), page_size=2, category=Category.ECONOMICS))
    assert [market.external_market_id for market in markets] == [f"KXTEST-{n}" for n in range(5)]
    assert offsets == [0, 2, 4]


def test_a_refused_page_raises_with_the_code() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(402, json=ERROR)

    with pytest.raises(MarketlensError) as raised:
        list(items(list_markets.sync, client_of(handler)))
    assert raised.value.code == "INSUFFICIENT_CREDITS"


def test_to_dataframe_flattens_nested_fields() -> None:
    account = {
        "apiKey": "pm_live_ab...cd",
        "credits": {"remaining": 5, "purchased": 10, "used": 5},
        "user": {"id": "u", "walletAddress": ""},
        "tier": "pro",
        "rateLimit": {"requestsPerMinute": 1200, "currentUsage": 1, "resetsAt": "2025-01-01T00:00:00.000Z"},
    }

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"data": account})

    answer = get_account.sync(client=client_of(handler))
    assert isinstance(answer, DataEnvelopeAccountView)
    frame = to_dataframe([answer.data])
    assert frame.loc[0, "credits.remaining"] == 5
    assert frame.loc[0, "tier"] == "pro"
