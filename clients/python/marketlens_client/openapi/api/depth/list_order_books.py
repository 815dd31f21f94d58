from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.order_books_envelope import OrderBooksEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    ids: str,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    params: dict[str, Any] = {}

    params["ids"] = ids


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/orderbooks",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | OrderBooksEnvelope | None:
    if response.status_code == 200:
        response_200 = OrderBooksEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | OrderBooksEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    ids: str,
    idempotency_key: str | Unset = UNSET,

) -> Response[ErrorBody | OrderBooksEnvelope]:
    """ The order books of up to 50 markets in one call, in the order their ids are given.

     Each id is served once however often it is given. Every id must name a market (else 404,
    naming them); the call is charged 1 credit per book, and only if every book is served.

    Args:
        ids (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | OrderBooksEnvelope]
     """


    kwargs = _get_kwargs(
        ids=ids,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    ids: str,
    idempotency_key: str | Unset = UNSET,

) -> ErrorBody | OrderBooksEnvelope | None:
    """ The order books of up to 50 markets in one call, in the order their ids are given.

     Each id is served once however often it is given. Every id must name a market (else 404,
    naming them); the call is charged 1 credit per book, and only if every book is served.

    Args:
        ids (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | OrderBooksEnvelope
     """


    return sync_detailed(
        client=client,
ids=ids,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    ids: str,
    idempotency_key: str | Unset = UNSET,

) -> Response[ErrorBody | OrderBooksEnvelope]:
    """ The order books of up to 50 markets in one call, in the order their ids are given.

     Each id is served once however often it is given. Every id must name a market (else 404,
    naming them); the call is charged 1 credit per book, and only if every book is served.

    Args:
        ids (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | OrderBooksEnvelope]
     """


    kwargs = _get_kwargs(
        ids=ids,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    ids: str,
    idempotency_key: str | Unset = UNSET,

) -> ErrorBody | OrderBooksEnvelope | None:
    """ The order books of up to 50 markets in one call, in the order their ids are given.

     Each id is served once however often it is given. Every id must name a market (else 404,
    naming them); the call is charged 1 credit per book, and only if every book is served.

    Args:
        ids (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | OrderBooksEnvelope
     """


    return (await asyncio_detailed(
        client=client,
ids=ids,
idempotency_key=idempotency_key,

    )).parsed
