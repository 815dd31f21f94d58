from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_account import CreateAccount
from ...models.data_envelope_created_account import DataEnvelopeCreatedAccount
from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    *,
    body: CreateAccount,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/admin/v1/accounts",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DataEnvelopeCreatedAccount | ErrorBody | None:
    if response.status_code == 201:
        response_201 = DataEnvelopeCreatedAccount.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())



        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DataEnvelopeCreatedAccount | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateAccount,

) -> Response[DataEnvelopeCreatedAccount | ErrorBody]:
    """ Make an account and its first key.

    Args:
        body (CreateAccount): A new account: its tier, and optionally its starting credits, wallet
            address and label.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataEnvelopeCreatedAccount | ErrorBody]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: CreateAccount,

) -> DataEnvelopeCreatedAccount | ErrorBody | None:
    """ Make an account and its first key.

    Args:
        body (CreateAccount): A new account: its tier, and optionally its starting credits, wallet
            address and label.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataEnvelopeCreatedAccount | ErrorBody
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateAccount,

) -> Response[DataEnvelopeCreatedAccount | ErrorBody]:
    """ Make an account and its first key.

    Args:
        body (CreateAccount): A new account: its tier, and optionally its starting credits, wallet
            address and label.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataEnvelopeCreatedAccount | ErrorBody]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateAccount,

) -> DataEnvelopeCreatedAccount | ErrorBody | None:
    """ Make an account and its first key.

    Args:
        body (CreateAccount): A new account: its tier, and optionally its starting credits, wallet
            address and label.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataEnvelopeCreatedAccount | ErrorBody
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
