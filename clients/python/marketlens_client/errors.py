"""The error a helper raises when the server refuses a call."""

from .openapi.models.error_body import ErrorBody


class MarketlensError(Exception):
    """The server refused a call: `code` is the stable error code to branch on
    (`INVALID_PARAMETER`, `INSUFFICIENT_CREDITS`, ...), `message` says why in words."""

    def __init__(self, body: ErrorBody | None) -> None:
        self.code = body.error.code.value if body else "UNEXPECTED_RESPONSE"
        self.message = body.error.message if body else "The server's answer was not a documented one."
        super().__init__(f"{self.code}: {self.message}")
