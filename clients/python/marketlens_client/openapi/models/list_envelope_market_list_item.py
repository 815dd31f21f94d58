from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.market_list_item import MarketListItem
  from ..models.pagination import Pagination





T = TypeVar("T", bound="ListEnvelopeMarketListItem")



@_attrs_define
class ListEnvelopeMarketListItem:
    """ A page of items, under `data`, and where the page lies in the whole list.

        Attributes:
            data (list[MarketListItem]): This page's items, in the list's order.
            pagination (Pagination): Where a page lies in the whole list (`docs/contract/interface.md#i2-5`).
     """

    data: list[MarketListItem]
    pagination: Pagination
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.market_list_item import MarketListItem # noqa: PLC0415
        from ..models.pagination import Pagination # noqa: PLC0415
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)



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
        from ..models.market_list_item import MarketListItem # noqa: PLC0415
        from ..models.pagination import Pagination # noqa: PLC0415
        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in (_data):
            data_item = MarketListItem.from_dict(data_item_data)



            data.append(data_item)


        pagination = Pagination.from_dict(d.pop("pagination"))




        list_envelope_market_list_item = cls(
            data=data,
            pagination=pagination,
        )


        list_envelope_market_list_item.additional_properties = d
        return list_envelope_market_list_item

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
