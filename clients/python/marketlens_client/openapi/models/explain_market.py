from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.explain_status import ExplainStatus
from ..models.platform import Platform
from typing import cast

if TYPE_CHECKING:
  from ..models.explain_outcome import ExplainOutcome





T = TypeVar("T", bound="ExplainMarket")



@_attrs_define
class ExplainMarket:
    """ The market explained, in explain's shape.

        Attributes:
            title (str): The title of the market's event, or the question when it has none.
            question (str): The market's question.
            platform (Platform): An exchange in explain's lower case: `polymarket` or `kalshi`.
            provider (str): The exchange's display name: `Polymarket` or `Kalshi`.
            volume (float): The market's total traded volume, in US dollars.
            volume24h (float): The volume traded in the last 24 hours, in US dollars.
            liquidity (float): The market's current liquidity, in US dollars.
            created_at (str): When the exchange created the market (ISO 8601, UTC).
            end_date (str): An empty string when the exchange gives none.
            status (ExplainStatus): Explain's status of a market: `open` while it trades, `closed` after.
            outcomes (list[ExplainOutcome]): The market's outcomes and their current prices.
            url (str): The market's page on its exchange.
            image (str): The market's image on its exchange; an empty string when there is none.
     """

    title: str
    question: str
    platform: Platform
    provider: str
    volume: float
    volume24h: float
    liquidity: float
    created_at: str
    end_date: str
    status: ExplainStatus
    outcomes: list[ExplainOutcome]
    url: str
    image: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.explain_outcome import ExplainOutcome # noqa: PLC0415
        title = self.title

        question = self.question

        platform = self.platform.value

        provider = self.provider

        volume = self.volume

        volume24h = self.volume24h

        liquidity = self.liquidity

        created_at = self.created_at

        end_date = self.end_date

        status = self.status.value

        outcomes = []
        for outcomes_item_data in self.outcomes:
            outcomes_item = outcomes_item_data.to_dict()
            outcomes.append(outcomes_item)



        url = self.url

        image = self.image


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "title": title,
            "question": question,
            "platform": platform,
            "provider": provider,
            "volume": volume,
            "volume24h": volume24h,
            "liquidity": liquidity,
            "createdAt": created_at,
            "endDate": end_date,
            "status": status,
            "outcomes": outcomes,
            "url": url,
            "image": image,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.explain_outcome import ExplainOutcome # noqa: PLC0415
        d = dict(src_dict)
        title = d.pop("title")

        question = d.pop("question")

        platform = Platform(d.pop("platform"))




        provider = d.pop("provider")

        volume = d.pop("volume")

        volume24h = d.pop("volume24h")

        liquidity = d.pop("liquidity")

        created_at = d.pop("createdAt")

        end_date = d.pop("endDate")

        status = ExplainStatus(d.pop("status"))




        outcomes = []
        _outcomes = d.pop("outcomes")
        for outcomes_item_data in (_outcomes):
            outcomes_item = ExplainOutcome.from_dict(outcomes_item_data)



            outcomes.append(outcomes_item)


        url = d.pop("url")

        image = d.pop("image")

        explain_market = cls(
            title=title,
            question=question,
            platform=platform,
            provider=provider,
            volume=volume,
            volume24h=volume24h,
            liquidity=liquidity,
            created_at=created_at,
            end_date=end_date,
            status=status,
            outcomes=outcomes,
            url=url,
            image=image,
        )


        explain_market.additional_properties = d
        return explain_market

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
