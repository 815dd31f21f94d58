from enum import StrEnum

class StreamClientMessageType0Type(StrEnum):
    AUTH = "auth"

    def __str__(self) -> str:
        return str(self.value)
