from enum import StrEnum

class StreamMarketMessageType3Type(StrEnum):
    TRADE = "trade"

    def __str__(self) -> str:
        return str(self.value)
