from enum import StrEnum

class StreamMarketMessageType2Type(StrEnum):
    PRICE = "price"

    def __str__(self) -> str:
        return str(self.value)
