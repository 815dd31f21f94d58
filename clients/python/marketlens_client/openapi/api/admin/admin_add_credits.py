from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.add_credits import AddCredits
from ...models.data_envelope_admin_account import DataEnvelopeAdminAccount
from ...models.error_body import ErrorBody
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: AddCredits,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/admin/v1/accounts/{id}/credits".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DataEnvelopeAdminAccount | ErrorBody | None:
    if response.status_code == 200:
        response_200 = DataEnvelopeAdminAccount.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DataEnvelopeAdminAccount | ErrorBody]:
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
    body: AddCredits,

) -> Response[DataEnvelopeAdminAccount | ErrorBody]:
    """ Add credits to an account: raises purchased and remaining, with a ledger line.

    Args:
        id (UUID):
        body (AddCredits): Credits to add to an account.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataEnvelopeAdminAccount | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: AddCredits,

) -> DataEnvelopeAdminAccount | ErrorBody | None:
    """ Add credits to an account: raises purchased and remaining, with a ledger line.

    Args:
        id (UUID):
        body (AddCredits): Credits to add to an account.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataEnvelopeAdminAccount | ErrorBody
     """


    return sync_detailed(
        id=id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: AddCredits,

) -> Response[DataEnvelopeAdminAccount | ErrorBody]:
    """ Add credits to an account: raises purchased and remaining, with a ledger line.

    Args:
        id (UUID):
        body (AddCredits): Credits to add to an account.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataEnvelopeAdminAccount | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: AddCredits,

) -> DataEnvelopeAdminAccount | ErrorBody | None:
    """ Add credits to an account: raises purchased and remaining, with a ledger line.

    Args:
        id (UUID):
        body (AddCredits): Credits to add to an account.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataEnvelopeAdminAccount | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
