from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from uuid import UUID






T = TypeVar("T", bound="NewKey")



@_attrs_define
class NewKey:
    """ A key just made: the only time the key itself is shown.

        Attributes:
            id (UUID): The key's id (a UUID), which revoking names.
            api_key (str): The key itself, to send as `Authorization: Bearer <key>`. Shown only now: the server keeps
                only its hash.
            display (str): The key's truncated form, as the account and key lists show it.
     """

    id: UUID
    api_key: str
    display: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        api_key = self.api_key

        display = self.display


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "apiKey": api_key,
            "display": display,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        api_key = d.pop("apiKey")

        display = d.pop("display")

        new_key = cls(
            id=id,
            api_key=api_key,
            display=display,
        )


        new_key.additional_properties = d
        return new_key

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
