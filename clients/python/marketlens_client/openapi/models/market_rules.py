from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="MarketRules")



@_attrs_define
class MarketRules:
    """ How a market resolves, in its exchange's words; each part `null` when the exchange states
    none.

        Attributes:
            primary (None | str | Unset): The resolution rule: Kalshi's primary rules; Polymarket's description (the
                market's
                `description` too).
            secondary (None | str | Unset): Further terms: Kalshi's secondary rules. Always `null` on Polymarket.
            source (None | str | Unset): Where the result is to be read, as Polymarket names it (a URL or a name). Always
                `null` on Kalshi, whose rules name their sources.
     """

    primary: None | str | Unset = UNSET
    secondary: None | str | Unset = UNSET
    source: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        primary: None | str | Unset
        if isinstance(self.primary, Unset):
            primary = UNSET
        else:
            primary = self.primary

        secondary: None | str | Unset
        if isinstance(self.secondary, Unset):
            secondary = UNSET
        else:
            secondary = self.secondary

        source: None | str | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        else:
            source = self.source


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if primary is not UNSET:
            field_dict["primary"] = primary
        if secondary is not UNSET:
            field_dict["secondary"] = secondary
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_primary(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        primary = _parse_primary(d.pop("primary", UNSET))


        def _parse_secondary(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secondary = _parse_secondary(d.pop("secondary", UNSET))


        def _parse_source(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source = _parse_source(d.pop("source", UNSET))


        market_rules = cls(
            primary=primary,
            secondary=secondary,
            source=source,
        )


        market_rules.additional_properties = d
        return market_rules

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
