from enum import StrEnum

class TakerSide(StrEnum):
    BUY = "BUY"
    SELL = "SELL"

    def __str__(self) -> str:
        return str(self.value)
