from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.category import Category
from ..models.exchange import Exchange
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.event_market_view import EventMarketView





T = TypeVar("T", bound="EventDetail")



@_attrs_define
class EventDetail:
    """ An event with its markets.

        Attributes:
            id (UUID): The event's Marketlens id (a UUID).
            title (str): The event's title, as the exchange gives it.
            description (str): The event's description; empty when the exchange gives none.
            exchange (Exchange): An exchange: `POLYMARKET` or `KALSHI`.
            category (Category): The subject a market or event is filed under, the same for both exchanges
                (`docs/contract/decisions.md#d6-category`).
            total_volume (float): The total traded volume of the event's markets, in US dollars.
            image_url (str): The event's image on the exchange; an empty string when there is none.
            created_at (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            markets (list[EventMarketView]): The event's markets.
     """

    id: UUID
    title: str
    description: str
    exchange: Exchange
    category: Category
    total_volume: float
    image_url: str
    created_at: datetime.datetime
    markets: list[EventMarketView]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_market_view import EventMarketView # noqa: PLC0415
        id = str(self.id)

        title = self.title

        description = self.description

        exchange = self.exchange.value

        category = self.category.value

        total_volume = self.total_volume

        image_url = self.image_url

        created_at = self.created_at.isoformat()

        markets = []
        for markets_item_data in self.markets:
            markets_item = markets_item_data.to_dict()
            markets.append(markets_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "title": title,
            "description": description,
            "exchange": exchange,
            "category": category,
            "totalVolume": total_volume,
            "imageUrl": image_url,
            "createdAt": created_at,
            "markets": markets,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_market_view import EventMarketView # noqa: PLC0415
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        title = d.pop("title")

        description = d.pop("description")

        exchange = Exchange(d.pop("exchange"))




        category = Category(d.pop("category"))




        total_volume = d.pop("totalVolume")

        image_url = d.pop("imageUrl")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        markets = []
        _markets = d.pop("markets")
        for markets_item_data in (_markets):
            markets_item = EventMarketView.from_dict(markets_item_data)



            markets.append(markets_item)


        event_detail = cls(
            id=id,
            title=title,
            description=description,
            exchange=exchange,
            category=category,
            total_volume=total_volume,
            image_url=image_url,
            created_at=created_at,
            markets=markets,
        )


        event_detail.additional_properties = d
        return event_detail

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
