from enum import StrEnum

class ListMarketsInclude(StrEnum):
    OUTCOMES = "outcomes"

    def __str__(self) -> str:
        return str(self.value)
