from enum import StrEnum

class StreamClientMessageType2Type(StrEnum):
    UNSUBSCRIBE = "unsubscribe"

    def __str__(self) -> str:
        return str(self.value)
