from enum import StrEnum

class StreamMarketMessageType1Type(StrEnum):
    LEVELS = "levels"

    def __str__(self) -> str:
        return str(self.value)
