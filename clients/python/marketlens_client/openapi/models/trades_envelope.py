from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.cursor_pagination import CursorPagination
  from ..models.market_trades import MarketTrades





T = TypeVar("T", bound="TradesEnvelope")



@_attrs_define
class TradesEnvelope:
    """ A page of a market's trades.

        Attributes:
            data (MarketTrades): A page of a market's trades.
            pagination (CursorPagination): Where a cursor-paged list goes next.
     """

    data: MarketTrades
    pagination: CursorPagination
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.cursor_pagination import CursorPagination # noqa: PLC0415
        from ..models.market_trades import MarketTrades # noqa: PLC0415
        data = self.data.to_dict()

        pagination = self.pagination.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "data": data,
            "pagination": pagination,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cursor_pagination import CursorPagination # noqa: PLC0415
        from ..models.market_trades import MarketTrades # noqa: PLC0415
        d = dict(src_dict)
        data = MarketTrades.from_dict(d.pop("data"))




        pagination = CursorPagination.from_dict(d.pop("pagination"))




        trades_envelope = cls(
            data=data,
            pagination=pagination,
        )


        trades_envelope.additional_properties = d
        return trades_envelope

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
