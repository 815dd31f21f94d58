from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/stream",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorBody | None:
    if response.status_code == 101:
        response_101 = cast(Any, None)
        return response_101

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())



        return response_403

    if response.status_code == 426:
        response_426 = ErrorBody.from_dict(response.json())



        return response_426

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[Any | ErrorBody]:
    """ Live market data over a WebSocket.

     Upgrade with a WebSocket client, sending the key as `Authorization: Bearer <API_KEY>`, or,
    from a browser, as the first message: `{"type":"auth","key":"<API_KEY>"}` (within 10 s).
    Then send `{"type":"subscribe","markets":["<market id>",...]}` (and `unsubscribe` alike).
    Each market costs 1 credit per started minute: the first when it is subscribed (refused
    with an `error` `INSUFFICIENT_CREDITS` when the balance cannot pay it), then one as each
    further minute starts (a minute that cannot be paid ends that subscription with an
    `error`). Each tier bounds the stream connections an account holds open and the markets
    one connection follows (`RATE_LIMITED`).

    The server sends JSON text frames, each with a `type` (`StreamControlMessage`,
    `StreamMarketMessage`): `subscribed`, then the market's whole `book` (per outcome, as
    `getOrderBook` shows it), then `levels` (the size now at a price; 0: gone), `price`,
    `trade` and `state` (`live` or `interrupted`). Every market message carries `seq`, 1, 2, 3…
    per subscription: a number skipped means messages were lost, and the next `book` is whole
    again. A `heartbeat` comes every 5 s; an `error` carries the error shape's `code` and
    `message` (with `market`: that market is not, or no longer, subscribed). Close codes:
    4001 the key was refused or is no longer good, 4008 the client did not read as fast as
    messages came (its queue filled), 4029 the account has its tier's stream connections open,
    1001 the server is shutting down (reconnect).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,

) -> Any | ErrorBody | None:
    """ Live market data over a WebSocket.

     Upgrade with a WebSocket client, sending the key as `Authorization: Bearer <API_KEY>`, or,
    from a browser, as the first message: `{"type":"auth","key":"<API_KEY>"}` (within 10 s).
    Then send `{"type":"subscribe","markets":["<market id>",...]}` (and `unsubscribe` alike).
    Each market costs 1 credit per started minute: the first when it is subscribed (refused
    with an `error` `INSUFFICIENT_CREDITS` when the balance cannot pay it), then one as each
    further minute starts (a minute that cannot be paid ends that subscription with an
    `error`). Each tier bounds the stream connections an account holds open and the markets
    one connection follows (`RATE_LIMITED`).

    The server sends JSON text frames, each with a `type` (`StreamControlMessage`,
    `StreamMarketMessage`): `subscribed`, then the market's whole `book` (per outcome, as
    `getOrderBook` shows it), then `levels` (the size now at a price; 0: gone), `price`,
    `trade` and `state` (`live` or `interrupted`). Every market message carries `seq`, 1, 2, 3…
    per subscription: a number skipped means messages were lost, and the next `book` is whole
    again. A `heartbeat` comes every 5 s; an `error` carries the error shape's `code` and
    `message` (with `market`: that market is not, or no longer, subscribed). Close codes:
    4001 the key was refused or is no longer good, 4008 the client did not read as fast as
    messages came (its queue filled), 4029 the account has its tier's stream connections open,
    1001 the server is shutting down (reconnect).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[Any | ErrorBody]:
    """ Live market data over a WebSocket.

     Upgrade with a WebSocket client, sending the key as `Authorization: Bearer <API_KEY>`, or,
    from a browser, as the first message: `{"type":"auth","key":"<API_KEY>"}` (within 10 s).
    Then send `{"type":"subscribe","markets":["<market id>",...]}` (and `unsubscribe` alike).
    Each market costs 1 credit per started minute: the first when it is subscribed (refused
    with an `error` `INSUFFICIENT_CREDITS` when the balance cannot pay it), then one as each
    further minute starts (a minute that cannot be paid ends that subscription with an
    `error`). Each tier bounds the stream connections an account holds open and the markets
    one connection follows (`RATE_LIMITED`).

    The server sends JSON text frames, each with a `type` (`StreamControlMessage`,
    `StreamMarketMessage`): `subscribed`, then the market's whole `book` (per outcome, as
    `getOrderBook` shows it), then `levels` (the size now at a price; 0: gone), `price`,
    `trade` and `state` (`live` or `interrupted`). Every market message carries `seq`, 1, 2, 3…
    per subscription: a number skipped means messages were lost, and the next `book` is whole
    again. A `heartbeat` comes every 5 s; an `error` carries the error shape's `code` and
    `message` (with `market`: that market is not, or no longer, subscribed). Close codes:
    4001 the key was refused or is no longer good, 4008 the client did not read as fast as
    messages came (its queue filled), 4029 the account has its tier's stream connections open,
    1001 the server is shutting down (reconnect).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        
    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,

) -> Any | ErrorBody | None:
    """ Live market data over a WebSocket.

     Upgrade with a WebSocket client, sending the key as `Authorization: Bearer <API_KEY>`, or,
    from a browser, as the first message: `{"type":"auth","key":"<API_KEY>"}` (within 10 s).
    Then send `{"type":"subscribe","markets":["<market id>",...]}` (and `unsubscribe` alike).
    Each market costs 1 credit per started minute: the first when it is subscribed (refused
    with an `error` `INSUFFICIENT_CREDITS` when the balance cannot pay it), then one as each
    further minute starts (a minute that cannot be paid ends that subscription with an
    `error`). Each tier bounds the stream connections an account holds open and the markets
    one connection follows (`RATE_LIMITED`).

    The server sends JSON text frames, each with a `type` (`StreamControlMessage`,
    `StreamMarketMessage`): `subscribed`, then the market's whole `book` (per outcome, as
    `getOrderBook` shows it), then `levels` (the size now at a price; 0: gone), `price`,
    `trade` and `state` (`live` or `interrupted`). Every market message carries `seq`, 1, 2, 3…
    per subscription: a number skipped means messages were lost, and the next `book` is whole
    again. A `heartbeat` comes every 5 s; an `error` carries the error shape's `code` and
    `message` (with `market`: that market is not, or no longer, subscribed). Close codes:
    4001 the key was refused or is no longer good, 4008 the client did not read as fast as
    messages came (its queue filled), 4029 the account has its tier's stream connections open,
    1001 the server is shutting down (reconnect).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
