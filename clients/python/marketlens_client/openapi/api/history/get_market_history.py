from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.get_market_history_interval import GetMarketHistoryInterval
from ...models.history_envelope import HistoryEnvelope
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime



def _get_kwargs(
    id: UUID,
    *,
    interval: GetMarketHistoryInterval | Unset = GetMarketHistoryInterval.VALUE_1,
    from_: datetime.date | datetime.datetime | Unset = UNSET,
    to: datetime.date | datetime.datetime | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    params: dict[str, Any] = {}

    json_interval: str | Unset = UNSET
    if not isinstance(interval, Unset):
        json_interval = interval.value

    params["interval"] = json_interval

    json_from_: str | Unset
    if isinstance(from_, Unset):
        json_from_ = UNSET
    elif isinstance(from_, datetime.datetime):
        json_from_ = from_.isoformat()
    else:
        json_from_ = from_.isoformat()

    params["from"] = json_from_

    json_to: str | Unset
    if isinstance(to, Unset):
        json_to = UNSET
    elif isinstance(to, datetime.datetime):
        json_to = to.isoformat()
    else:
        json_to = to.isoformat()

    params["to"] = json_to

    params["limit"] = limit

    params["offset"] = offset


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/markets/{id}/history".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | HistoryEnvelope | None:
    if response.status_code == 200:
        response_200 = HistoryEnvelope.from_dict(response.json())



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

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | HistoryEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    interval: GetMarketHistoryInterval | Unset = GetMarketHistoryInterval.VALUE_1,
    from_: datetime.date | datetime.datetime | Unset = UNSET,
    to: datetime.date | datetime.datetime | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    idempotency_key: str | Unset = UNSET,

) -> Response[ErrorBody | HistoryEnvelope]:
    """ Candles of each outcome's price, oldest first, in UTC buckets of `interval`.

     With the default retention, five-minute candles cover the last 7 days, hourly and four-hour
    ones the last 90 days, and daily ones all the history kept (finer bars expire).

    Args:
        id (UUID):
        interval (GetMarketHistoryInterval | Unset):  Default: GetMarketHistoryInterval.VALUE_1.
        from_ (datetime.date | datetime.datetime | Unset):
        to (datetime.date | datetime.datetime | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | HistoryEnvelope]
     """


    kwargs = _get_kwargs(
        id=id,
interval=interval,
from_=from_,
to=to,
limit=limit,
offset=offset,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    interval: GetMarketHistoryInterval | Unset = GetMarketHistoryInterval.VALUE_1,
    from_: datetime.date | datetime.datetime | Unset = UNSET,
    to: datetime.date | datetime.datetime | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    idempotency_key: str | Unset = UNSET,

) -> ErrorBody | HistoryEnvelope | None:
    """ Candles of each outcome's price, oldest first, in UTC buckets of `interval`.

     With the default retention, five-minute candles cover the last 7 days, hourly and four-hour
    ones the last 90 days, and daily ones all the history kept (finer bars expire).

    Args:
        id (UUID):
        interval (GetMarketHistoryInterval | Unset):  Default: GetMarketHistoryInterval.VALUE_1.
        from_ (datetime.date | datetime.datetime | Unset):
        to (datetime.date | datetime.datetime | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | HistoryEnvelope
     """


    return sync_detailed(
        id=id,
client=client,
interval=interval,
from_=from_,
to=to,
limit=limit,
offset=offset,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    interval: GetMarketHistoryInterval | Unset = GetMarketHistoryInterval.VALUE_1,
    from_: datetime.date | datetime.datetime | Unset = UNSET,
    to: datetime.date | datetime.datetime | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    idempotency_key: str | Unset = UNSET,

) -> Response[ErrorBody | HistoryEnvelope]:
    """ Candles of each outcome's price, oldest first, in UTC buckets of `interval`.

     With the default retention, five-minute candles cover the last 7 days, hourly and four-hour
    ones the last 90 days, and daily ones all the history kept (finer bars expire).

    Args:
        id (UUID):
        interval (GetMarketHistoryInterval | Unset):  Default: GetMarketHistoryInterval.VALUE_1.
        from_ (datetime.date | datetime.datetime | Unset):
        to (datetime.date | datetime.datetime | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | HistoryEnvelope]
     """


    kwargs = _get_kwargs(
        id=id,
interval=interval,
from_=from_,
to=to,
limit=limit,
offset=offset,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    interval: GetMarketHistoryInterval | Unset = GetMarketHistoryInterval.VALUE_1,
    from_: datetime.date | datetime.datetime | Unset = UNSET,
    to: datetime.date | datetime.datetime | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    idempotency_key: str | Unset = UNSET,

) -> ErrorBody | HistoryEnvelope | None:
    """ Candles of each outcome's price, oldest first, in UTC buckets of `interval`.

     With the default retention, five-minute candles cover the last 7 days, hourly and four-hour
    ones the last 90 days, and daily ones all the history kept (finer bars expire).

    Args:
        id (UUID):
        interval (GetMarketHistoryInterval | Unset):  Default: GetMarketHistoryInterval.VALUE_1.
        from_ (datetime.date | datetime.datetime | Unset):
        to (datetime.date | datetime.datetime | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | HistoryEnvelope
     """


    return (await asyncio_detailed(
        id=id,
client=client,
interval=interval,
from_=from_,
to=to,
limit=limit,
offset=offset,
idempotency_key=idempotency_key,

    )).parsed
