from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from uuid import UUID






T = TypeVar("T", bound="EventMarketView")



@_attrs_define
class EventMarketView:
    """ A market of an event, as the event's get lists it.

        Attributes:
            id (UUID): The market's Marketlens id (a UUID): get it for its figures.
            question (str): The market's question.
            price (float): The price of the market's first outcome, a fraction from 0 to 1.
            volume24h (float): The volume traded in the last 24 hours, in US dollars.
     """

    id: UUID
    question: str
    price: float
    volume24h: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        question = self.question

        price = self.price

        volume24h = self.volume24h


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "question": question,
            "price": price,
            "volume24h": volume24h,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        question = d.pop("question")

        price = d.pop("price")

        volume24h = d.pop("volume24h")

        event_market_view = cls(
            id=id,
            question=question,
            price=price,
            volume24h=volume24h,
        )


        event_market_view.additional_properties = d
        return event_market_view

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
