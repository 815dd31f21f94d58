from enum import StrEnum

class StreamControlMessageType2Type(StrEnum):
    HEARTBEAT = "heartbeat"

    def __str__(self) -> str:
        return str(self.value)
