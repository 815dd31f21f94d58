"""Waiting out a 429 instead of failing.

The server answers 429 with `Retry-After` (seconds) when an account is over its requests per
minute, or an address over its failed authentications. A 429 is refused before anything is
charged, so sending the same request again cannot charge it twice.
"""

import asyncio
import time
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from .openapi.client import AuthenticatedClient

#: How long to wait when a 429 carries no usable `Retry-After`, in seconds.
DEFAULT_WAIT = 1.0


def retry_after(response: httpx.Response) -> float:
    """The seconds `response`'s `Retry-After` asks to wait: a number of seconds or an HTTP date."""
    value = response.headers.get("Retry-After", "").strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return DEFAULT_WAIT


class RetryOn429(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """An httpx transport, sync and async, that sends a request again after a 429, up to
    `retries` times, waiting as `Retry-After` says; a wait longer than `max_wait` seconds is
    not waited out, and the 429 is returned."""

    def __init__(
        self,
        *,
        retries: int = 3,
        max_wait: float = 60.0,
        sync_transport: httpx.BaseTransport | None = None,
        async_transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.retries = retries
        self.max_wait = max_wait
        self._sync = sync_transport or httpx.HTTPTransport()
        self._async = async_transport or httpx.AsyncHTTPTransport()
        self._sleep = sleep

    def _wait(self, response: httpx.Response, attempt: int) -> float | None:
        if response.status_code != 429 or attempt >= self.retries:
            return None
        wait = retry_after(response)
        return wait if wait <= self.max_wait else None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()
        attempt = 0
        while True:
            response = self._sync.handle_request(request)
            wait = self._wait(response, attempt)
            if wait is None:
                return response
            response.close()
            self._sleep(wait)
            attempt += 1

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        attempt = 0
        while True:
            response = await self._async.handle_async_request(request)
            wait = self._wait(response, attempt)
            if wait is None:
                return response
            await response.aclose()
            await asyncio.sleep(wait)
            attempt += 1

    def close(self) -> None:
        self._sync.close()

    async def aclose(self) -> None:
        await self._async.aclose()


def connect(
    base_url: str,
    api_key: str,
    *,
    retries: int = 3,
    max_wait: float = 60.0,
    timeout: float = 30.0,
    **httpx_args: Any,
) -> AuthenticatedClient:
    """A client of the server at `base_url` (e.g. `http://127.0.0.1:8080`) that sends
    `api_key` with every call, retries after a 429, and raises on an undocumented status.
    Pass it to any operation of `marketlens_client.openapi.api`."""
    return AuthenticatedClient(
        base_url=base_url,
        token=api_key,
        timeout=httpx.Timeout(timeout),
        raise_on_unexpected_status=True,
        httpx_args={"transport": RetryOn429(retries=retries, max_wait=max_wait), **httpx_args},
    )
