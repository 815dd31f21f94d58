from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ListOutcome")



@_attrs_define
class ListOutcome:
    """ An outcome in a list (`include=outcomes`): no id.

        Attributes:
            name (str): The outcome's name as the exchange gives it (`Yes`, `No`, a team, a range).
            price (float): The outcome's current price: a fraction from 0 to 1, the market's implied probability of it.
            best_bid_price (float | None | Unset): The highest price a buyer bids, a fraction from 0 to 1; the key is absent
                when the exchange
                gives none.
            best_ask_price (float | None | Unset): The lowest price a seller asks, a fraction from 0 to 1; the key is absent
                when the exchange
                gives none.
     """

    name: str
    price: float
    best_bid_price: float | None | Unset = UNSET
    best_ask_price: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        price = self.price

        best_bid_price: float | None | Unset
        if isinstance(self.best_bid_price, Unset):
            best_bid_price = UNSET
        else:
            best_bid_price = self.best_bid_price

        best_ask_price: float | None | Unset
        if isinstance(self.best_ask_price, Unset):
            best_ask_price = UNSET
        else:
            best_ask_price = self.best_ask_price


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "price": price,
        })
        if best_bid_price is not UNSET:
            field_dict["bestBidPrice"] = best_bid_price
        if best_ask_price is not UNSET:
            field_dict["bestAskPrice"] = best_ask_price

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        price = d.pop("price")

        def _parse_best_bid_price(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        best_bid_price = _parse_best_bid_price(d.pop("bestBidPrice", UNSET))


        def _parse_best_ask_price(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        best_ask_price = _parse_best_ask_price(d.pop("bestAskPrice", UNSET))


        list_outcome = cls(
            name=name,
            price=price,
            best_bid_price=best_bid_price,
            best_ask_price=best_ask_price,
        )


        list_outcome.additional_properties = d
        return list_outcome

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
