from enum import StrEnum

class GetMarketHistoryInterval(StrEnum):
    VALUE_0 = "5m"
    VALUE_1 = "1h"
    VALUE_2 = "4h"
    VALUE_3 = "1d"

    def __str__(self) -> str:
        return str(self.value)
