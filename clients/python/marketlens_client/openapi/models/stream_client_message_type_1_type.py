from enum import StrEnum

class StreamClientMessageType1Type(StrEnum):
    SUBSCRIBE = "subscribe"

    def __str__(self) -> str:
        return str(self.value)
