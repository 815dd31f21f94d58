from enum import StrEnum

class LedgerKind(StrEnum):
    CHARGE = "charge"
    CREDIT = "credit"
    REFUND = "refund"

    def __str__(self) -> str:
        return str(self.value)
