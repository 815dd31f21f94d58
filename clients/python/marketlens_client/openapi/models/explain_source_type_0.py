from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.explain_source_type_0_type import ExplainSourceType0Type






T = TypeVar("T", bound="ExplainSourceType0")



@_attrs_define
class ExplainSourceType0:
    """ The market data Marketlens holds.

        Attributes:
            name (str): `Polymarket market data` or `Kalshi market data`.
            url (str): The market's page on its exchange.
            type_ (ExplainSourceType0Type):
     """

    name: str
    url: str
    type_: ExplainSourceType0Type
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        url = self.url

        type_ = self.type_.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "url": url,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        url = d.pop("url")

        type_ = ExplainSourceType0Type(d.pop("type"))




        explain_source_type_0 = cls(
            name=name,
            url=url,
            type_=type_,
        )


        explain_source_type_0.additional_properties = d
        return explain_source_type_0

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
