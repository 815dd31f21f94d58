from enum import StrEnum

class StreamMarketMessageType0Type(StrEnum):
    BOOK = "book"

    def __str__(self) -> str:
        return str(self.value)
