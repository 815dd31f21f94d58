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






T = TypeVar("T", bound="EventListItem")



@_attrs_define
class EventListItem:
    """ An event in a list: a group of markets an exchange lists together.

        Attributes:
            id (UUID): The event's Marketlens id (a UUID).
            title (str): The event's title, as the exchange gives it.
            description (str): The event's description; empty when the exchange gives none.
            exchange (Exchange): An exchange: `POLYMARKET` or `KALSHI`.
            category (Category): The subject a market or event is filed under, the same for both exchanges
                (`docs/contract/decisions.md#d6-category`).
            market_count (int): How many markets the event holds.
            total_volume (float): The total traded volume of the event's markets, in US dollars.
            image_url (str): The event's image on the exchange; an empty string when there is none.
            created_at (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
     """

    id: UUID
    title: str
    description: str
    exchange: Exchange
    category: Category
    market_count: int
    total_volume: float
    image_url: str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        title = self.title

        description = self.description

        exchange = self.exchange.value

        category = self.category.value

        market_count = self.market_count

        total_volume = self.total_volume

        image_url = self.image_url

        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "title": title,
            "description": description,
            "exchange": exchange,
            "category": category,
            "marketCount": market_count,
            "totalVolume": total_volume,
            "imageUrl": image_url,
            "createdAt": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        title = d.pop("title")

        description = d.pop("description")

        exchange = Exchange(d.pop("exchange"))




        category = Category(d.pop("category"))




        market_count = d.pop("marketCount")

        total_volume = d.pop("totalVolume")

        image_url = d.pop("imageUrl")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        event_list_item = cls(
            id=id,
            title=title,
            description=description,
            exchange=exchange,
            category=category,
            market_count=market_count,
            total_volume=total_volume,
            image_url=image_url,
            created_at=created_at,
        )


        event_list_item.additional_properties = d
        return event_list_item

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
