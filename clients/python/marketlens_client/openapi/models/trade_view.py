from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.taker_side import TakerSide
from typing import cast
import datetime






T = TypeVar("T", bound="TradeView")



@_attrs_define
class TradeView:
    """ One trade.

        Attributes:
            id (str): The exchange's id of the trade: Kalshi's `trade_id`; on Polymarket, the transaction hash
                and the end of the outcome token's id.
            time (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            outcome (str): The outcome traded, as the market names it.
            price (float): The price of one contract of `outcome`, a fraction from 0 to 1.
            size (float): Contracts traded.
            taker_side (TakerSide): Whether a trade's taker bought or sold the outcome traded.
     """

    id: str
    time: datetime.datetime
    outcome: str
    price: float
    size: float
    taker_side: TakerSide
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        time = self.time.isoformat()

        outcome = self.outcome

        price = self.price

        size = self.size

        taker_side = self.taker_side.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "time": time,
            "outcome": outcome,
            "price": price,
            "size": size,
            "takerSide": taker_side,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        time = datetime.datetime.fromisoformat(d.pop("time"))




        outcome = d.pop("outcome")

        price = d.pop("price")

        size = d.pop("size")

        taker_side = TakerSide(d.pop("takerSide"))




        trade_view = cls(
            id=id,
            time=time,
            outcome=outcome,
            price=price,
            size=size,
            taker_side=taker_side,
        )


        trade_view.additional_properties = d
        return trade_view

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
