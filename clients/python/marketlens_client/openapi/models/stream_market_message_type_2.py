from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stream_market_message_type_2_type import StreamMarketMessageType2Type
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="StreamMarketMessageType2")



@_attrs_define
class StreamMarketMessageType2:
    """ An outcome's price, and the last trade and best bid and ask it comes from.

        Attributes:
            seq (int):
            market (UUID):
            time (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            outcome (str):
            type_ (StreamMarketMessageType2Type):
            price (float | None | Unset): The outcome's price as its exchange displays it, the one the market calls state
                and
                the price history records: on Polymarket the middle of the best bid and ask when
                they are at most 0.10 apart, else the last trade; on Kalshi the last trade, else
                the middle of the best bid and ask. `null` while neither gives a price.
            last (float | None | Unset): The last traded price, when the exchange sent one.
            best_bid (float | None | Unset):
            best_ask (float | None | Unset):
     """

    seq: int
    market: UUID
    time: datetime.datetime
    outcome: str
    type_: StreamMarketMessageType2Type
    price: float | None | Unset = UNSET
    last: float | None | Unset = UNSET
    best_bid: float | None | Unset = UNSET
    best_ask: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        market = str(self.market)

        time = self.time.isoformat()

        outcome = self.outcome

        type_ = self.type_.value

        price: float | None | Unset
        if isinstance(self.price, Unset):
            price = UNSET
        else:
            price = self.price

        last: float | None | Unset
        if isinstance(self.last, Unset):
            last = UNSET
        else:
            last = self.last

        best_bid: float | None | Unset
        if isinstance(self.best_bid, Unset):
            best_bid = UNSET
        else:
            best_bid = self.best_bid

        best_ask: float | None | Unset
        if isinstance(self.best_ask, Unset):
            best_ask = UNSET
        else:
            best_ask = self.best_ask


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seq": seq,
            "market": market,
            "time": time,
            "outcome": outcome,
            "type": type_,
        })
        if price is not UNSET:
            field_dict["price"] = price
        if last is not UNSET:
            field_dict["last"] = last
        if best_bid is not UNSET:
            field_dict["bestBid"] = best_bid
        if best_ask is not UNSET:
            field_dict["bestAsk"] = best_ask

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seq = d.pop("seq")

        market = UUID(d.pop("market"))




        time = datetime.datetime.fromisoformat(d.pop("time"))




        outcome = d.pop("outcome")

        type_ = StreamMarketMessageType2Type(d.pop("type"))




        def _parse_price(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        price = _parse_price(d.pop("price", UNSET))


        def _parse_last(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        last = _parse_last(d.pop("last", UNSET))


        def _parse_best_bid(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        best_bid = _parse_best_bid(d.pop("bestBid", UNSET))


        def _parse_best_ask(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        best_ask = _parse_best_ask(d.pop("bestAsk", UNSET))


        stream_market_message_type_2 = cls(
            seq=seq,
            market=market,
            time=time,
            outcome=outcome,
            type_=type_,
            price=price,
            last=last,
            best_bid=best_bid,
            best_ask=best_ask,
        )


        stream_market_message_type_2.additional_properties = d
        return stream_market_message_type_2

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
