from enum import StrEnum

class StreamControlMessageType0Type(StrEnum):
    SUBSCRIBED = "subscribed"

    def __str__(self) -> str:
        return str(self.value)
