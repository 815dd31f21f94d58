"""Every item of a list operation, page after page."""

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from .errors import MarketlensError
from .openapi.client import AuthenticatedClient
from .openapi.models.error_body import ErrorBody
from .openapi.models.pagination import Pagination

Item = TypeVar("Item", covariant=True)

#: The largest page every list operation takes.
PAGE_SIZE = 200


class Page(Protocol[Item]):
    """A page of a list operation's answer."""

    @property
    def data(self) -> Sequence[Item]: ...

    @property
    def pagination(self) -> Pagination: ...


def items(
    operation: Callable[..., ErrorBody | Page[Item] | None],
    client: AuthenticatedClient,
    *,
    page_size: int = PAGE_SIZE,
    **parameters: Any,
) -> Iterator[Item]:
    """Yields every item a list operation's `sync` function gives for `parameters`, asking for
    the next page while the server says there is one.

    >>> from marketlens_client.openapi.api.markets import list_markets
    >>> for market in items(list_markets.sync, client, category=Category.CRYPTO): ...

    Raises `MarketlensError` when the server refuses a page.
    """
    offset = 0
    while True:
        page = operation(client=client, limit=page_size, offset=offset, **parameters)
        if page is None or isinstance(page, ErrorBody):
            raise MarketlensError(page)
        yield from page.data
        if not page.pagination.has_more or not page.data:
            return
        offset += len(page.data)
