from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ExplainRequest")



@_attrs_define
class ExplainRequest:
    """ What to explain: the body of `POST /api/v1/explain`.

        Attributes:
            query (str): A Polymarket or Kalshi market URL (parsed, never fetched), a market's id on its exchange (a
                Polymarket id or slug, a Kalshi ticker, any case), or free words.
     """

    query: str





    def to_dict(self) -> dict[str, Any]:
        query = self.query


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "query": query,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        query = d.pop("query")

        explain_request = cls(
            query=query,
        )

        return explain_request

