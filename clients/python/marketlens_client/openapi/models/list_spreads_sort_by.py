from enum import StrEnum

class ListSpreadsSortBy(StrEnum):
    SPREAD = "spread"
    VOLUME24H = "volume24h"

    def __str__(self) -> str:
        return str(self.value)
