from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.price_level import PriceLevel





T = TypeVar("T", bound="OutcomeBookView")



@_attrs_define
class OutcomeBookView:
    """ One outcome's side of a book.

        Attributes:
            outcome (str): The outcome's name, as the market names it.
            bids (list[PriceLevel]): Offers to buy this outcome, best (highest price) first.
            asks (list[PriceLevel]): Offers to sell this outcome, best (lowest price) first.
     """

    outcome: str
    bids: list[PriceLevel]
    asks: list[PriceLevel]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.price_level import PriceLevel # noqa: PLC0415
        outcome = self.outcome

        bids = []
        for bids_item_data in self.bids:
            bids_item = bids_item_data.to_dict()
            bids.append(bids_item)



        asks = []
        for asks_item_data in self.asks:
            asks_item = asks_item_data.to_dict()
            asks.append(asks_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "outcome": outcome,
            "bids": bids,
            "asks": asks,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.price_level import PriceLevel # noqa: PLC0415
        d = dict(src_dict)
        outcome = d.pop("outcome")

        bids = []
        _bids = d.pop("bids")
        for bids_item_data in (_bids):
            bids_item = PriceLevel.from_dict(bids_item_data)



            bids.append(bids_item)


        asks = []
        _asks = d.pop("asks")
        for asks_item_data in (_asks):
            asks_item = PriceLevel.from_dict(asks_item_data)



            asks.append(asks_item)


        outcome_book_view = cls(
            outcome=outcome,
            bids=bids,
            asks=asks,
        )


        outcome_book_view.additional_properties = d
        return outcome_book_view

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
