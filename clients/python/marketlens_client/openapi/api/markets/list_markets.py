from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.category import Category
from ...models.error_body import ErrorBody
from ...models.exchange import Exchange
from ...models.list_envelope_market_list_item import ListEnvelopeMarketListItem
from ...models.list_markets_include import ListMarketsInclude
from ...models.list_markets_sort_by import ListMarketsSortBy
from ...models.list_markets_sort_order import ListMarketsSortOrder
from ...models.market_status import MarketStatus
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    exchange: Exchange | Unset = UNSET,
    status: MarketStatus | Unset = UNSET,
    category: Category | Unset = UNSET,
    search: str | Unset = UNSET,
    sort_by: ListMarketsSortBy | Unset = ListMarketsSortBy.VOLUME24H,
    sort_order: ListMarketsSortOrder | Unset = ListMarketsSortOrder.DESC,
    include: ListMarketsInclude | Unset = UNSET,
    external_market_id: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    json_exchange: str | Unset = UNSET
    if not isinstance(exchange, Unset):
        json_exchange = exchange.value

    params["exchange"] = json_exchange

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    json_category: str | Unset = UNSET
    if not isinstance(category, Unset):
        json_category = category.value

    params["category"] = json_category

    params["search"] = search

    json_sort_by: str | Unset = UNSET
    if not isinstance(sort_by, Unset):
        json_sort_by = sort_by.value

    params["sortBy"] = json_sort_by

    json_sort_order: str | Unset = UNSET
    if not isinstance(sort_order, Unset):
        json_sort_order = sort_order.value

    params["sortOrder"] = json_sort_order

    json_include: str | Unset = UNSET
    if not isinstance(include, Unset):
        json_include = include.value

    params["include"] = json_include

    params["externalMarketId"] = external_market_id


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/markets",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ListEnvelopeMarketListItem | None:
    if response.status_code == 200:
        response_200 = ListEnvelopeMarketListItem.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 402:
        response_402 = ErrorBody.from_dict(response.json())



        return response_402

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | ListEnvelopeMarketListItem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    exchange: Exchange | Unset = UNSET,
    status: MarketStatus | Unset = UNSET,
    category: Category | Unset = UNSET,
    search: str | Unset = UNSET,
    sort_by: ListMarketsSortBy | Unset = ListMarketsSortBy.VOLUME24H,
    sort_order: ListMarketsSortOrder | Unset = ListMarketsSortOrder.DESC,
    include: ListMarketsInclude | Unset = UNSET,
    external_market_id: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[ErrorBody | ListEnvelopeMarketListItem]:
    """ Markets of both exchanges, filtered, searched, sorted and paged.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        exchange (Exchange | Unset): An exchange: `POLYMARKET` or `KALSHI`.
        status (MarketStatus | Unset): Where a market is in its life: `OPEN` (trading), `CLOSED`
            (trading has stopped, the result is not yet known) or `RESOLVED` (the result is known).
        category (Category | Unset): The subject a market or event is filed under, the same for
            both exchanges (`docs/contract/decisions.md#d6-category`).
        search (str | Unset):
        sort_by (ListMarketsSortBy | Unset):  Default: ListMarketsSortBy.VOLUME24H.
        sort_order (ListMarketsSortOrder | Unset):  Default: ListMarketsSortOrder.DESC.
        include (ListMarketsInclude | Unset):
        external_market_id (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListEnvelopeMarketListItem]
     """


    kwargs = _get_kwargs(
        limit=limit,
offset=offset,
exchange=exchange,
status=status,
category=category,
search=search,
sort_by=sort_by,
sort_order=sort_order,
include=include,
external_market_id=external_market_id,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    exchange: Exchange | Unset = UNSET,
    status: MarketStatus | Unset = UNSET,
    category: Category | Unset = UNSET,
    search: str | Unset = UNSET,
    sort_by: ListMarketsSortBy | Unset = ListMarketsSortBy.VOLUME24H,
    sort_order: ListMarketsSortOrder | Unset = ListMarketsSortOrder.DESC,
    include: ListMarketsInclude | Unset = UNSET,
    external_market_id: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> ErrorBody | ListEnvelopeMarketListItem | None:
    """ Markets of both exchanges, filtered, searched, sorted and paged.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        exchange (Exchange | Unset): An exchange: `POLYMARKET` or `KALSHI`.
        status (MarketStatus | Unset): Where a market is in its life: `OPEN` (trading), `CLOSED`
            (trading has stopped, the result is not yet known) or `RESOLVED` (the result is known).
        category (Category | Unset): The subject a market or event is filed under, the same for
            both exchanges (`docs/contract/decisions.md#d6-category`).
        search (str | Unset):
        sort_by (ListMarketsSortBy | Unset):  Default: ListMarketsSortBy.VOLUME24H.
        sort_order (ListMarketsSortOrder | Unset):  Default: ListMarketsSortOrder.DESC.
        include (ListMarketsInclude | Unset):
        external_market_id (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListEnvelopeMarketListItem
     """


    return sync_detailed(
        client=client,
limit=limit,
offset=offset,
exchange=exchange,
status=status,
category=category,
search=search,
sort_by=sort_by,
sort_order=sort_order,
include=include,
external_market_id=external_market_id,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    exchange: Exchange | Unset = UNSET,
    status: MarketStatus | Unset = UNSET,
    category: Category | Unset = UNSET,
    search: str | Unset = UNSET,
    sort_by: ListMarketsSortBy | Unset = ListMarketsSortBy.VOLUME24H,
    sort_order: ListMarketsSortOrder | Unset = ListMarketsSortOrder.DESC,
    include: ListMarketsInclude | Unset = UNSET,
    external_market_id: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[ErrorBody | ListEnvelopeMarketListItem]:
    """ Markets of both exchanges, filtered, searched, sorted and paged.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        exchange (Exchange | Unset): An exchange: `POLYMARKET` or `KALSHI`.
        status (MarketStatus | Unset): Where a market is in its life: `OPEN` (trading), `CLOSED`
            (trading has stopped, the result is not yet known) or `RESOLVED` (the result is known).
        category (Category | Unset): The subject a market or event is filed under, the same for
            both exchanges (`docs/contract/decisions.md#d6-category`).
        search (str | Unset):
        sort_by (ListMarketsSortBy | Unset):  Default: ListMarketsSortBy.VOLUME24H.
        sort_order (ListMarketsSortOrder | Unset):  Default: ListMarketsSortOrder.DESC.
        include (ListMarketsInclude | Unset):
        external_market_id (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListEnvelopeMarketListItem]
     """


    kwargs = _get_kwargs(
        limit=limit,
offset=offset,
exchange=exchange,
status=status,
category=category,
search=search,
sort_by=sort_by,
sort_order=sort_order,
include=include,
external_market_id=external_market_id,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    exchange: Exchange | Unset = UNSET,
    status: MarketStatus | Unset = UNSET,
    category: Category | Unset = UNSET,
    search: str | Unset = UNSET,
    sort_by: ListMarketsSortBy | Unset = ListMarketsSortBy.VOLUME24H,
    sort_order: ListMarketsSortOrder | Unset = ListMarketsSortOrder.DESC,
    include: ListMarketsInclude | Unset = UNSET,
    external_market_id: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> ErrorBody | ListEnvelopeMarketListItem | None:
    """ Markets of both exchanges, filtered, searched, sorted and paged.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        exchange (Exchange | Unset): An exchange: `POLYMARKET` or `KALSHI`.
        status (MarketStatus | Unset): Where a market is in its life: `OPEN` (trading), `CLOSED`
            (trading has stopped, the result is not yet known) or `RESOLVED` (the result is known).
        category (Category | Unset): The subject a market or event is filed under, the same for
            both exchanges (`docs/contract/decisions.md#d6-category`).
        search (str | Unset):
        sort_by (ListMarketsSortBy | Unset):  Default: ListMarketsSortBy.VOLUME24H.
        sort_order (ListMarketsSortOrder | Unset):  Default: ListMarketsSortOrder.DESC.
        include (ListMarketsInclude | Unset):
        external_market_id (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListEnvelopeMarketListItem
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
offset=offset,
exchange=exchange,
status=status,
category=category,
search=search,
sort_by=sort_by,
sort_order=sort_order,
include=include,
external_market_id=external_market_id,
idempotency_key=idempotency_key,

    )).parsed
