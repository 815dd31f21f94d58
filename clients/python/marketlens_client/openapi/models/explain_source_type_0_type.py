from enum import StrEnum

class ExplainSourceType0Type(StrEnum):
    MARKET_DB = "market-db"

    def __str__(self) -> str:
        return str(self.value)
