from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.trades_envelope import TradesEnvelope
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/markets/{id}/trades".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | TradesEnvelope | None:
    if response.status_code == 200:
        response_200 = TradesEnvelope.from_dict(response.json())



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

    if response.status_code == 502:
        response_502 = ErrorBody.from_dict(response.json())



        return response_502

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | TradesEnvelope]:
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
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
    idempotency_key: str | Unset = UNSET,

) -> Response[ErrorBody | TradesEnvelope]:
    """ A page of a market's trades, newest first, with cursor pagination: pass a page's
    `nextCursor` as `cursor` for the page after it.

    Args:
        id (UUID):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TradesEnvelope]
     """


    kwargs = _get_kwargs(
        id=id,
cursor=cursor,
limit=limit,
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
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
    idempotency_key: str | Unset = UNSET,

) -> ErrorBody | TradesEnvelope | None:
    """ A page of a market's trades, newest first, with cursor pagination: pass a page's
    `nextCursor` as `cursor` for the page after it.

    Args:
        id (UUID):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TradesEnvelope
     """


    return sync_detailed(
        id=id,
client=client,
cursor=cursor,
limit=limit,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
    idempotency_key: str | Unset = UNSET,

) -> Response[ErrorBody | TradesEnvelope]:
    """ A page of a market's trades, newest first, with cursor pagination: pass a page's
    `nextCursor` as `cursor` for the page after it.

    Args:
        id (UUID):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TradesEnvelope]
     """


    kwargs = _get_kwargs(
        id=id,
cursor=cursor,
limit=limit,
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
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
    idempotency_key: str | Unset = UNSET,

) -> ErrorBody | TradesEnvelope | None:
    """ A page of a market's trades, newest first, with cursor pagination: pass a page's
    `nextCursor` as `cursor` for the page after it.

    Args:
        id (UUID):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TradesEnvelope
     """


    return (await asyncio_detailed(
        id=id,
client=client,
cursor=cursor,
limit=limit,
idempotency_key=idempotency_key,

    )).parsed
