from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stream_control_message_type_3_type import StreamControlMessageType3Type
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.error_object import ErrorObject





T = TypeVar("T", bound="StreamControlMessageType3")



@_attrs_define
class StreamControlMessageType3:
    """ Something went wrong: with `market`, that market is not (or no longer) subscribed.

        Attributes:
            error (ErrorObject): What went wrong: a stable code, a message for people, and details for programs.
            type_ (StreamControlMessageType3Type):
            market (None | Unset | UUID):
     """

    error: ErrorObject
    type_: StreamControlMessageType3Type
    market: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.error_object import ErrorObject # noqa: PLC0415
        error = self.error.to_dict()

        type_ = self.type_.value

        market: None | str | Unset
        if isinstance(self.market, Unset):
            market = UNSET
        elif isinstance(self.market, UUID):
            market = str(self.market)
        else:
            market = self.market


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "error": error,
            "type": type_,
        })
        if market is not UNSET:
            field_dict["market"] = market

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_object import ErrorObject # noqa: PLC0415
        d = dict(src_dict)
        error = ErrorObject.from_dict(d.pop("error"))




        type_ = StreamControlMessageType3Type(d.pop("type"))




        def _parse_market(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                market_type_0 = UUID(data)



                return market_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        market = _parse_market(d.pop("market", UNSET))


        stream_control_message_type_3 = cls(
            error=error,
            type_=type_,
            market=market,
        )


        stream_control_message_type_3.additional_properties = d
        return stream_control_message_type_3

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
