from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="CandleView")



@_attrs_define
class CandleView:
    """ An outcome's price over `[time, time + interval)`, and the market's 24-hour volume at its close.

        Attributes:
            time (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            open_ (float): The first price observed in the bucket, a fraction from 0 to 1.
            high (float): The highest price observed in the bucket.
            low (float): The lowest price observed in the bucket.
            close (float): The last price observed in the bucket.
            volume24h (float): The market's 24-hour volume, in US dollars, at the bucket's last observation.
     """

    time: datetime.datetime
    open_: float
    high: float
    low: float
    close: float
    volume24h: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        time = self.time.isoformat()

        open_ = self.open_

        high = self.high

        low = self.low

        close = self.close

        volume24h = self.volume24h


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "time": time,
            "open": open_,
            "high": high,
            "low": low,
            "close": close,
            "volume24h": volume24h,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        time = datetime.datetime.fromisoformat(d.pop("time"))




        open_ = d.pop("open")

        high = d.pop("high")

        low = d.pop("low")

        close = d.pop("close")

        volume24h = d.pop("volume24h")

        candle_view = cls(
            time=time,
            open_=open_,
            high=high,
            low=low,
            close=close,
            volume24h=volume24h,
        )


        candle_view.additional_properties = d
        return candle_view

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
