from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.check_readiness_response_200 import CheckReadinessResponse200
from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/readyz",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CheckReadinessResponse200 | ErrorBody | None:
    if response.status_code == 200:
        response_200 = CheckReadinessResponse200.from_dict(response.json())



        return response_200

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CheckReadinessResponse200 | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[CheckReadinessResponse200 | ErrorBody]:
    """ The process can serve: its store answers, quickly enough, and takes writes.

     Answers at once, 503, while the store's health probe finds it down, read-only or slow
    (the reason in the message); else reports what the store holds and, per exchange, the freshness of
    its data: the last
    successful sync, its age, and the last run's error (URLs in errors without their
    credentials). Read at most once a second however often it is asked (see
    [`ReadinessCache`]), since anyone may ask.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CheckReadinessResponse200 | ErrorBody]
     """


    kwargs = _get_kwargs(
        
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,

) -> CheckReadinessResponse200 | ErrorBody | None:
    """ The process can serve: its store answers, quickly enough, and takes writes.

     Answers at once, 503, while the store's health probe finds it down, read-only or slow
    (the reason in the message); else reports what the store holds and, per exchange, the freshness of
    its data: the last
    successful sync, its age, and the last run's error (URLs in errors without their
    credentials). Read at most once a second however often it is asked (see
    [`ReadinessCache`]), since anyone may ask.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CheckReadinessResponse200 | ErrorBody
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[CheckReadinessResponse200 | ErrorBody]:
    """ The process can serve: its store answers, quickly enough, and takes writes.

     Answers at once, 503, while the store's health probe finds it down, read-only or slow
    (the reason in the message); else reports what the store holds and, per exchange, the freshness of
    its data: the last
    successful sync, its age, and the last run's error (URLs in errors without their
    credentials). Read at most once a second however often it is asked (see
    [`ReadinessCache`]), since anyone may ask.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CheckReadinessResponse200 | ErrorBody]
     """


    kwargs = _get_kwargs(
        
    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,

) -> CheckReadinessResponse200 | ErrorBody | None:
    """ The process can serve: its store answers, quickly enough, and takes writes.

     Answers at once, 503, while the store's health probe finds it down, read-only or slow
    (the reason in the message); else reports what the store holds and, per exchange, the freshness of
    its data: the last
    successful sync, its age, and the last run's error (URLs in errors without their
    credentials). Read at most once a second however often it is asked (see
    [`ReadinessCache`]), since anyone may ask.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CheckReadinessResponse200 | ErrorBody
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
