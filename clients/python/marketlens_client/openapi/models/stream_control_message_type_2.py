from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stream_control_message_type_2_type import StreamControlMessageType2Type
from typing import cast
import datetime






T = TypeVar("T", bound="StreamControlMessageType2")



@_attrs_define
class StreamControlMessageType2:
    """ Sent every few seconds, so that a client can tell a quiet market from a dead connection.

        Attributes:
            time (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            type_ (StreamControlMessageType2Type):
     """

    time: datetime.datetime
    type_: StreamControlMessageType2Type
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        time = self.time.isoformat()

        type_ = self.type_.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "time": time,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        time = datetime.datetime.fromisoformat(d.pop("time"))




        type_ = StreamControlMessageType2Type(d.pop("type"))




        stream_control_message_type_2 = cls(
            time=time,
            type_=type_,
        )


        stream_control_message_type_2.additional_properties = d
        return stream_control_message_type_2

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
