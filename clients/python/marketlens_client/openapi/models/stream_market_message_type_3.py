from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stream_market_message_type_3_type import StreamMarketMessageType3Type
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.trade_view import TradeView





T = TypeVar("T", bound="StreamMarketMessageType3")



@_attrs_define
class StreamMarketMessageType3:
    """ A trade.

        Attributes:
            seq (int):
            market (UUID):
            time (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            trade (TradeView): One trade.
            type_ (StreamMarketMessageType3Type):
     """

    seq: int
    market: UUID
    time: datetime.datetime
    trade: TradeView
    type_: StreamMarketMessageType3Type
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.trade_view import TradeView # noqa: PLC0415
        seq = self.seq

        market = str(self.market)

        time = self.time.isoformat()

        trade = self.trade.to_dict()

        type_ = self.type_.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seq": seq,
            "market": market,
            "time": time,
            "trade": trade,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trade_view import TradeView # noqa: PLC0415
        d = dict(src_dict)
        seq = d.pop("seq")

        market = UUID(d.pop("market"))




        time = datetime.datetime.fromisoformat(d.pop("time"))




        trade = TradeView.from_dict(d.pop("trade"))




        type_ = StreamMarketMessageType3Type(d.pop("type"))




        stream_market_message_type_3 = cls(
            seq=seq,
            market=market,
            time=time,
            trade=trade,
            type_=type_,
        )


        stream_market_message_type_3.additional_properties = d
        return stream_market_message_type_3

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
