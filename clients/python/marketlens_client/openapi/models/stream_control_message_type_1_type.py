from enum import StrEnum

class StreamControlMessageType1Type(StrEnum):
    UNSUBSCRIBED = "unsubscribed"

    def __str__(self) -> str:
        return str(self.value)
