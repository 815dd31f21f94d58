"""Python client of the Marketlens API.

`marketlens_client.openapi` is generated from the server's OpenAPI document by
openapi-python-client (one module per operation, one class per schema). This package adds
only what the generated code cannot know:

- `connect`: a client that waits and retries when the server answers 429, as its
  `Retry-After` says (a 429 is never charged, so a retry cannot charge twice);
- `items`: every item of a list operation, page after page;
- `to_dataframe`: items as a pandas DataFrame (`pip install 'marketlens-client[pandas]'`).
"""

from .errors import MarketlensError
from .frames import to_dataframe
from .pages import items
from .retry import RetryOn429, connect

__all__ = ["MarketlensError", "RetryOn429", "connect", "items", "to_dataframe"]
