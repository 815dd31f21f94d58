from enum import StrEnum

class MarketStatus(StrEnum):
    CLOSED = "CLOSED"
    OPEN = "OPEN"
    RESOLVED = "RESOLVED"

    def __str__(self) -> str:
        return str(self.value)
