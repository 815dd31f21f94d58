from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stream_market_message_type_0_type import StreamMarketMessageType0Type
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.outcome_book_view import OutcomeBookView





T = TypeVar("T", bound="StreamMarketMessageType0")



@_attrs_define
class StreamMarketMessageType0:
    """ The whole book, one per outcome: after subscribing, and after every interruption.

        Attributes:
            seq (int):
            market (UUID):
            time (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            outcomes (list[OutcomeBookView]):
            type_ (StreamMarketMessageType0Type):
     """

    seq: int
    market: UUID
    time: datetime.datetime
    outcomes: list[OutcomeBookView]
    type_: StreamMarketMessageType0Type
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.outcome_book_view import OutcomeBookView # noqa: PLC0415
        seq = self.seq

        market = str(self.market)

        time = self.time.isoformat()

        outcomes = []
        for outcomes_item_data in self.outcomes:
            outcomes_item = outcomes_item_data.to_dict()
            outcomes.append(outcomes_item)



        type_ = self.type_.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seq": seq,
            "market": market,
            "time": time,
            "outcomes": outcomes,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.outcome_book_view import OutcomeBookView # noqa: PLC0415
        d = dict(src_dict)
        seq = d.pop("seq")

        market = UUID(d.pop("market"))




        time = datetime.datetime.fromisoformat(d.pop("time"))




        outcomes = []
        _outcomes = d.pop("outcomes")
        for outcomes_item_data in (_outcomes):
            outcomes_item = OutcomeBookView.from_dict(outcomes_item_data)



            outcomes.append(outcomes_item)


        type_ = StreamMarketMessageType0Type(d.pop("type"))




        stream_market_message_type_0 = cls(
            seq=seq,
            market=market,
            time=time,
            outcomes=outcomes,
            type_=type_,
        )


        stream_market_message_type_0.additional_properties = d
        return stream_market_message_type_0

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
