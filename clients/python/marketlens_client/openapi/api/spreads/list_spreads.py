from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.category import Category
from ...models.error_body import ErrorBody
from ...models.list_envelope_spread_item import ListEnvelopeSpreadItem
from ...models.list_spreads_sort_by import ListSpreadsSortBy
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    min_similarity: float | Unset = 0.0,
    min_volume_24_h: float | Unset = 0.0,
    category: Category | Unset = UNSET,
    sort_by: ListSpreadsSortBy | Unset = ListSpreadsSortBy.SPREAD,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    params: dict[str, Any] = {}

    params["minSimilarity"] = min_similarity

    params["minVolume24h"] = min_volume_24_h

    json_category: str | Unset = UNSET
    if not isinstance(category, Unset):
        json_category = category.value

    params["category"] = json_category

    json_sort_by: str | Unset = UNSET
    if not isinstance(sort_by, Unset):
        json_sort_by = sort_by.value

    params["sortBy"] = json_sort_by

    params["limit"] = limit

    params["offset"] = offset


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/spreads",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ListEnvelopeSpreadItem | None:
    if response.status_code == 200:
        response_200 = ListEnvelopeSpreadItem.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | ListEnvelopeSpreadItem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    min_similarity: float | Unset = 0.0,
    min_volume_24_h: float | Unset = 0.0,
    category: Category | Unset = UNSET,
    sort_by: ListSpreadsSortBy | Unset = ListSpreadsSortBy.SPREAD,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    idempotency_key: str | Unset = UNSET,

) -> Response[ErrorBody | ListEnvelopeSpreadItem]:
    """ Matched pairs of open markets with both exchanges' prices of the same outcome.

     The Kalshi price compared is the side that pays when Polymarket's first outcome does: its
    "No" when the match is flipped (`flipped: true`). A price confirmed longer ago than the
    server's stale age is flagged (`stale`), on its side and on the pair.

    Args:
        min_similarity (float | Unset):  Default: 0.0.
        min_volume_24_h (float | Unset):  Default: 0.0.
        category (Category | Unset): The subject a market or event is filed under, the same for
            both exchanges (`docs/contract/decisions.md#d6-category`).
        sort_by (ListSpreadsSortBy | Unset):  Default: ListSpreadsSortBy.SPREAD.
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListEnvelopeSpreadItem]
     """


    kwargs = _get_kwargs(
        min_similarity=min_similarity,
min_volume_24_h=min_volume_24_h,
category=category,
sort_by=sort_by,
limit=limit,
offset=offset,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    min_similarity: float | Unset = 0.0,
    min_volume_24_h: float | Unset = 0.0,
    category: Category | Unset = UNSET,
    sort_by: ListSpreadsSortBy | Unset = ListSpreadsSortBy.SPREAD,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    idempotency_key: str | Unset = UNSET,

) -> ErrorBody | ListEnvelopeSpreadItem | None:
    """ Matched pairs of open markets with both exchanges' prices of the same outcome.

     The Kalshi price compared is the side that pays when Polymarket's first outcome does: its
    "No" when the match is flipped (`flipped: true`). A price confirmed longer ago than the
    server's stale age is flagged (`stale`), on its side and on the pair.

    Args:
        min_similarity (float | Unset):  Default: 0.0.
        min_volume_24_h (float | Unset):  Default: 0.0.
        category (Category | Unset): The subject a market or event is filed under, the same for
            both exchanges (`docs/contract/decisions.md#d6-category`).
        sort_by (ListSpreadsSortBy | Unset):  Default: ListSpreadsSortBy.SPREAD.
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListEnvelopeSpreadItem
     """


    return sync_detailed(
        client=client,
min_similarity=min_similarity,
min_volume_24_h=min_volume_24_h,
category=category,
sort_by=sort_by,
limit=limit,
offset=offset,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    min_similarity: float | Unset = 0.0,
    min_volume_24_h: float | Unset = 0.0,
    category: Category | Unset = UNSET,
    sort_by: ListSpreadsSortBy | Unset = ListSpreadsSortBy.SPREAD,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    idempotency_key: str | Unset = UNSET,

) -> Response[ErrorBody | ListEnvelopeSpreadItem]:
    """ Matched pairs of open markets with both exchanges' prices of the same outcome.

     The Kalshi price compared is the side that pays when Polymarket's first outcome does: its
    "No" when the match is flipped (`flipped: true`). A price confirmed longer ago than the
    server's stale age is flagged (`stale`), on its side and on the pair.

    Args:
        min_similarity (float | Unset):  Default: 0.0.
        min_volume_24_h (float | Unset):  Default: 0.0.
        category (Category | Unset): The subject a market or event is filed under, the same for
            both exchanges (`docs/contract/decisions.md#d6-category`).
        sort_by (ListSpreadsSortBy | Unset):  Default: ListSpreadsSortBy.SPREAD.
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListEnvelopeSpreadItem]
     """


    kwargs = _get_kwargs(
        min_similarity=min_similarity,
min_volume_24_h=min_volume_24_h,
category=category,
sort_by=sort_by,
limit=limit,
offset=offset,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    min_similarity: float | Unset = 0.0,
    min_volume_24_h: float | Unset = 0.0,
    category: Category | Unset = UNSET,
    sort_by: ListSpreadsSortBy | Unset = ListSpreadsSortBy.SPREAD,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    idempotency_key: str | Unset = UNSET,

) -> ErrorBody | ListEnvelopeSpreadItem | None:
    """ Matched pairs of open markets with both exchanges' prices of the same outcome.

     The Kalshi price compared is the side that pays when Polymarket's first outcome does: its
    "No" when the match is flipped (`flipped: true`). A price confirmed longer ago than the
    server's stale age is flagged (`stale`), on its side and on the pair.

    Args:
        min_similarity (float | Unset):  Default: 0.0.
        min_volume_24_h (float | Unset):  Default: 0.0.
        category (Category | Unset): The subject a market or event is filed under, the same for
            both exchanges (`docs/contract/decisions.md#d6-category`).
        sort_by (ListSpreadsSortBy | Unset):  Default: ListSpreadsSortBy.SPREAD.
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListEnvelopeSpreadItem
     """


    return (await asyncio_detailed(
        client=client,
min_similarity=min_similarity,
min_volume_24_h=min_volume_24_h,
category=category,
sort_by=sort_by,
limit=limit,
offset=offset,
idempotency_key=idempotency_key,

    )).parsed
