from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stream_control_message_type_1_type import StreamControlMessageType1Type
from uuid import UUID






T = TypeVar("T", bound="StreamControlMessageType1")



@_attrs_define
class StreamControlMessageType1:
    """ A market is no longer followed, as the client asked.

        Attributes:
            market (UUID):
            type_ (StreamControlMessageType1Type):
     """

    market: UUID
    type_: StreamControlMessageType1Type
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        market = str(self.market)

        type_ = self.type_.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "market": market,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        market = UUID(d.pop("market"))




        type_ = StreamControlMessageType1Type(d.pop("type"))




        stream_control_message_type_1 = cls(
            market=market,
            type_=type_,
        )


        stream_control_message_type_1.additional_properties = d
        return stream_control_message_type_1

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
