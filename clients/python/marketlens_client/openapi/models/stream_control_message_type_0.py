from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.exchange import Exchange
from ..models.stream_control_message_type_0_type import StreamControlMessageType0Type
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="StreamControlMessageType0")



@_attrs_define
class StreamControlMessageType0:
    """ A market is followed: its `book` follows when the server has it.

        Attributes:
            market (UUID):
            exchange (Exchange): An exchange: `POLYMARKET` or `KALSHI`.
            outcomes (list[str]):
            credits_remaining (int): The account's balance after this market's first minute.
            type_ (StreamControlMessageType0Type):
     """

    market: UUID
    exchange: Exchange
    outcomes: list[str]
    credits_remaining: int
    type_: StreamControlMessageType0Type
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        market = str(self.market)

        exchange = self.exchange.value

        outcomes = self.outcomes



        credits_remaining = self.credits_remaining

        type_ = self.type_.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "market": market,
            "exchange": exchange,
            "outcomes": outcomes,
            "creditsRemaining": credits_remaining,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        market = UUID(d.pop("market"))




        exchange = Exchange(d.pop("exchange"))




        outcomes = cast(list[str], d.pop("outcomes"))


        credits_remaining = d.pop("creditsRemaining")

        type_ = StreamControlMessageType0Type(d.pop("type"))




        stream_control_message_type_0 = cls(
            market=market,
            exchange=exchange,
            outcomes=outcomes,
            credits_remaining=credits_remaining,
            type_=type_,
        )


        stream_control_message_type_0.additional_properties = d
        return stream_control_message_type_0

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
