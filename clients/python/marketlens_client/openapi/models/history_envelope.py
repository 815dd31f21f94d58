from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.market_history import MarketHistory
  from ..models.pagination import Pagination





T = TypeVar("T", bound="HistoryEnvelope")



@_attrs_define
class HistoryEnvelope:
    """ A page of a market's price history.

        Attributes:
            data (MarketHistory): A market's price history: one series of candles per outcome.
            pagination (Pagination): Where a page lies in the whole list (`docs/contract/interface.md#i2-5`).
     """

    data: MarketHistory
    pagination: Pagination
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.market_history import MarketHistory # noqa: PLC0415
        from ..models.pagination import Pagination # noqa: PLC0415
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
        from ..models.market_history import MarketHistory # noqa: PLC0415
        from ..models.pagination import Pagination # noqa: PLC0415
        d = dict(src_dict)
        data = MarketHistory.from_dict(d.pop("data"))




        pagination = Pagination.from_dict(d.pop("pagination"))




        history_envelope = cls(
            data=data,
            pagination=pagination,
        )


        history_envelope.additional_properties = d
        return history_envelope

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
