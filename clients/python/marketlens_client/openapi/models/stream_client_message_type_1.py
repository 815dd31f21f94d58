from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stream_client_message_type_1_type import StreamClientMessageType1Type
from typing import cast






T = TypeVar("T", bound="StreamClientMessageType1")



@_attrs_define
class StreamClientMessageType1:
    """ Follow these markets (their Marketlens ids): 1 credit each now, and 1 more at the start
    of each further minute.

        Attributes:
            markets (list[str]):
            type_ (StreamClientMessageType1Type):
     """

    markets: list[str]
    type_: StreamClientMessageType1Type
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        markets = self.markets



        type_ = self.type_.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "markets": markets,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        markets = cast(list[str], d.pop("markets"))


        type_ = StreamClientMessageType1Type(d.pop("type"))




        stream_client_message_type_1 = cls(
            markets=markets,
            type_=type_,
        )


        stream_client_message_type_1.additional_properties = d
        return stream_client_message_type_1

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
