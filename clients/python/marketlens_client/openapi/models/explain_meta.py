from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.platform import Platform






T = TypeVar("T", bound="ExplainMeta")



@_attrs_define
class ExplainMeta:
    """ The query and the market it was matched to.

        Attributes:
            query (str): The query, as given.
            market_id (str): The Marketlens id (a UUID) of the market explained.
            platform (Platform): An exchange in explain's lower case: `polymarket` or `kalshi`.
            timestamp (str): When the explanation was made (ISO 8601, UTC).
            credits_used (int): Credits for the market data alone: 1, part of the envelope's total.
     """

    query: str
    market_id: str
    platform: Platform
    timestamp: str
    credits_used: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        query = self.query

        market_id = self.market_id

        platform = self.platform.value

        timestamp = self.timestamp

        credits_used = self.credits_used


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "query": query,
            "marketId": market_id,
            "platform": platform,
            "timestamp": timestamp,
            "creditsUsed": credits_used,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        query = d.pop("query")

        market_id = d.pop("marketId")

        platform = Platform(d.pop("platform"))




        timestamp = d.pop("timestamp")

        credits_used = d.pop("creditsUsed")

        explain_meta = cls(
            query=query,
            market_id=market_id,
            platform=platform,
            timestamp=timestamp,
            credits_used=credits_used,
        )


        explain_meta.additional_properties = d
        return explain_meta

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
