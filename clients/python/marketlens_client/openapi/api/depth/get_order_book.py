from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.data_envelope_order_book_view import DataEnvelopeOrderBookView
from ...models.error_body import ErrorBody
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/markets/{id}/orderbook".format(id=quote(str(id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DataEnvelopeOrderBookView | ErrorBody | None:
    if response.status_code == 200:
        response_200 = DataEnvelopeOrderBookView.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DataEnvelopeOrderBookView | ErrorBody]:
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
    idempotency_key: str | Unset = UNSET,

) -> Response[DataEnvelopeOrderBookView | ErrorBody]:
    """ A market's order book: per outcome, bids and asks as `{price, size}`, best first.

     Kalshi's books hold only bids of each side; a NO bid at `p` is shown as a YES ask at
    `1 - p` (and a YES bid at `p` as a NO ask at `1 - p`). A Polymarket book is its first
    outcome's token book; the second outcome's is the same book seen from the other side.

    Args:
        id (UUID):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataEnvelopeOrderBookView | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
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
    idempotency_key: str | Unset = UNSET,

) -> DataEnvelopeOrderBookView | ErrorBody | None:
    """ A market's order book: per outcome, bids and asks as `{price, size}`, best first.

     Kalshi's books hold only bids of each side; a NO bid at `p` is shown as a YES ask at
    `1 - p` (and a YES bid at `p` as a NO ask at `1 - p`). A Polymarket book is its first
    outcome's token book; the second outcome's is the same book seen from the other side.

    Args:
        id (UUID):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataEnvelopeOrderBookView | ErrorBody
     """


    return sync_detailed(
        id=id,
client=client,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,

) -> Response[DataEnvelopeOrderBookView | ErrorBody]:
    """ A market's order book: per outcome, bids and asks as `{price, size}`, best first.

     Kalshi's books hold only bids of each side; a NO bid at `p` is shown as a YES ask at
    `1 - p` (and a YES bid at `p` as a NO ask at `1 - p`). A Polymarket book is its first
    outcome's token book; the second outcome's is the same book seen from the other side.

    Args:
        id (UUID):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataEnvelopeOrderBookView | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
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
    idempotency_key: str | Unset = UNSET,

) -> DataEnvelopeOrderBookView | ErrorBody | None:
    """ A market's order book: per outcome, bids and asks as `{price, size}`, best first.

     Kalshi's books hold only bids of each side; a NO bid at `p` is shown as a YES ask at
    `1 - p` (and a YES bid at `p` as a NO ask at `1 - p`). A Polymarket book is its first
    outcome's token book; the second outcome's is the same book seen from the other side.

    Args:
        id (UUID):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataEnvelopeOrderBookView | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
idempotency_key=idempotency_key,

    )).parsed
