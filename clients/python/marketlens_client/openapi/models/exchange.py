from enum import StrEnum

class Exchange(StrEnum):
    KALSHI = "KALSHI"
    POLYMARKET = "POLYMARKET"

    def __str__(self) -> str:
        return str(self.value)
