from enum import StrEnum

class StreamControlMessageType3Type(StrEnum):
    ERROR = "error"

    def __str__(self) -> str:
        return str(self.value)
