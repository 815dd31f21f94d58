from enum import StrEnum

class ExplainSourceType1Type(StrEnum):
    NEWS_FEED = "news-feed"

    def __str__(self) -> str:
        return str(self.value)
