from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stream_market_message_type_1_type import StreamMarketMessageType1Type
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.stream_level import StreamLevel





T = TypeVar("T", bound="StreamMarketMessageType1")



@_attrs_define
class StreamMarketMessageType1:
    """ Levels of the book whose size changed: the size now at the price, 0 when it is gone.

        Attributes:
            seq (int):
            market (UUID):
            time (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            changes (list[StreamLevel]):
            type_ (StreamMarketMessageType1Type):
     """

    seq: int
    market: UUID
    time: datetime.datetime
    changes: list[StreamLevel]
    type_: StreamMarketMessageType1Type
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.stream_level import StreamLevel # noqa: PLC0415
        seq = self.seq

        market = str(self.market)

        time = self.time.isoformat()

        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)



        type_ = self.type_.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seq": seq,
            "market": market,
            "time": time,
            "changes": changes,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stream_level import StreamLevel # noqa: PLC0415
        d = dict(src_dict)
        seq = d.pop("seq")

        market = UUID(d.pop("market"))




        time = datetime.datetime.fromisoformat(d.pop("time"))




        changes = []
        _changes = d.pop("changes")
        for changes_item_data in (_changes):
            changes_item = StreamLevel.from_dict(changes_item_data)



            changes.append(changes_item)


        type_ = StreamMarketMessageType1Type(d.pop("type"))




        stream_market_message_type_1 = cls(
            seq=seq,
            market=market,
            time=time,
            changes=changes,
            type_=type_,
        )


        stream_market_message_type_1.additional_properties = d
        return stream_market_message_type_1

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
