from enum import StrEnum

class Category(StrEnum):
    CLIMATE_WEATHER = "Climate & Weather"
    CRYPTO = "Crypto"
    CULTURE = "Culture"
    ECONOMICS = "Economics"
    FINANCE = "Finance"
    HEALTH = "Health"
    OTHER = "Other"
    POLITICS = "Politics"
    SCIENCE_TECHNOLOGY = "Science & Technology"
    SPORTS = "Sports"
    WORLD = "World"

    def __str__(self) -> str:
        return str(self.value)
