from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="AddCredits")



@_attrs_define
class AddCredits:
    """ Credits to add to an account.

        Attributes:
            credits_ (int): How many credits to add; raises both purchased and remaining.
     """

    credits_: int





    def to_dict(self) -> dict[str, Any]:
        credits_ = self.credits_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "credits": credits_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        credits_ = d.pop("credits")

        add_credits = cls(
            credits_=credits_,
        )

        return add_credits

