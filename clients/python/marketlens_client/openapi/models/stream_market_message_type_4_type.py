from enum import StrEnum

class StreamMarketMessageType4Type(StrEnum):
    STATE = "state"

    def __str__(self) -> str:
        return str(self.value)
