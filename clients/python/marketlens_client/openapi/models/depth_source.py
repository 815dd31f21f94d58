from enum import StrEnum

class DepthSource(StrEnum):
    RECORDING = "recording"
    REST = "rest"
    STREAM = "stream"

    def __str__(self) -> str:
        return str(self.value)
