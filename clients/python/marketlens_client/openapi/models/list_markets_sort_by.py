from enum import StrEnum

class ListMarketsSortBy(StrEnum):
    CREATEDAT = "createdAt"
    LIQUIDITY = "liquidity"
    VOLUME = "volume"
    VOLUME24H = "volume24h"

    def __str__(self) -> str:
        return str(self.value)
