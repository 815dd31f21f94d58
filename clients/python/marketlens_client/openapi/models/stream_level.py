from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="StreamLevel")



@_attrs_define
class StreamLevel:
    """ One level of one outcome's book as it is now.

        Attributes:
            outcome (str):
            side (str):
            price (float):
            size (float): Contracts now at this price; 0: the level is gone.
     """

    outcome: str
    side: str
    price: float
    size: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome

        side = self.side

        price = self.price

        size = self.size


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "outcome": outcome,
            "side": side,
            "price": price,
            "size": size,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        outcome = d.pop("outcome")

        side = d.pop("side")

        price = d.pop("price")

        size = d.pop("size")

        stream_level = cls(
            outcome=outcome,
            side=side,
            price=price,
            size=size,
        )


        stream_level.additional_properties = d
        return stream_level

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
