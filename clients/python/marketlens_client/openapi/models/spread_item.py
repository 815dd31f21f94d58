from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.spread_side import SpreadSide





T = TypeVar("T", bound="SpreadItem")



@_attrs_define
class SpreadItem:
    """ A matched pair of open markets, the same side's price on each exchange.

        Attributes:
            similarity (float): How sure the matcher is that both markets resolve alike: a fraction from 0 to 1, 3 decimals.
            flipped (bool): Kalshi's second outcome ("No") is the side that pays with Polymarket's first, so that is
                the Kalshi price compared.
            spread (float): The absolute difference of the two prices, rounded to 6 decimal places.
            volume24h (float): The smaller of the two markets' 24-hour volumes.
            stale (bool): Either price is stale: the spread compares prices of different times.
            polymarket (SpreadSide): One side of a spread: a market and the outcome of it that is compared.
            kalshi (SpreadSide): One side of a spread: a market and the outcome of it that is compared.
     """

    similarity: float
    flipped: bool
    spread: float
    volume24h: float
    stale: bool
    polymarket: SpreadSide
    kalshi: SpreadSide
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.spread_side import SpreadSide # noqa: PLC0415
        similarity = self.similarity

        flipped = self.flipped

        spread = self.spread

        volume24h = self.volume24h

        stale = self.stale

        polymarket = self.polymarket.to_dict()

        kalshi = self.kalshi.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "similarity": similarity,
            "flipped": flipped,
            "spread": spread,
            "volume24h": volume24h,
            "stale": stale,
            "polymarket": polymarket,
            "kalshi": kalshi,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.spread_side import SpreadSide # noqa: PLC0415
        d = dict(src_dict)
        similarity = d.pop("similarity")

        flipped = d.pop("flipped")

        spread = d.pop("spread")

        volume24h = d.pop("volume24h")

        stale = d.pop("stale")

        polymarket = SpreadSide.from_dict(d.pop("polymarket"))




        kalshi = SpreadSide.from_dict(d.pop("kalshi"))




        spread_item = cls(
            similarity=similarity,
            flipped=flipped,
            spread=spread,
            volume24h=volume24h,
            stale=stale,
            polymarket=polymarket,
            kalshi=kalshi,
        )


        spread_item.additional_properties = d
        return spread_item

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
