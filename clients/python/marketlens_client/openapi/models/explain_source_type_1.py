from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.explain_source_type_1_type import ExplainSourceType1Type
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ExplainSourceType1")



@_attrs_define
class ExplainSourceType1:
    """ An article a key factor is taken from.

        Attributes:
            title (str): The article's headline.
            url (str): The article's address, as its feed gives it.
            publisher (str): Who published the article: its feed's title, or the feed's host when it has none.
            type_ (ExplainSourceType1Type):
            published_at (None | str | Unset): `null` when the feed gave no date.
     """

    title: str
    url: str
    publisher: str
    type_: ExplainSourceType1Type
    published_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        title = self.title

        url = self.url

        publisher = self.publisher

        type_ = self.type_.value

        published_at: None | str | Unset
        if isinstance(self.published_at, Unset):
            published_at = UNSET
        else:
            published_at = self.published_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "title": title,
            "url": url,
            "publisher": publisher,
            "type": type_,
        })
        if published_at is not UNSET:
            field_dict["publishedAt"] = published_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        title = d.pop("title")

        url = d.pop("url")

        publisher = d.pop("publisher")

        type_ = ExplainSourceType1Type(d.pop("type"))




        def _parse_published_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        published_at = _parse_published_at(d.pop("publishedAt", UNSET))


        explain_source_type_1 = cls(
            title=title,
            url=url,
            publisher=publisher,
            type_=type_,
            published_at=published_at,
        )


        explain_source_type_1.additional_properties = d
        return explain_source_type_1

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
