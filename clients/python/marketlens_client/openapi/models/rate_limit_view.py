from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="RateLimitView")



@_attrs_define
class RateLimitView:
    """ An account's requests-per-minute limit and this minute's use of it.

        Attributes:
            requests_per_minute (int): The most requests the account may make in a minute.
            current_usage (int): Requests made in the current minute, this one included.
            resets_at (str): When the current minute's window ends (ISO 8601, UTC).
     """

    requests_per_minute: int
    current_usage: int
    resets_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        requests_per_minute = self.requests_per_minute

        current_usage = self.current_usage

        resets_at = self.resets_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "requestsPerMinute": requests_per_minute,
            "currentUsage": current_usage,
            "resetsAt": resets_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        requests_per_minute = d.pop("requestsPerMinute")

        current_usage = d.pop("currentUsage")

        resets_at = d.pop("resetsAt")

        rate_limit_view = cls(
            requests_per_minute=requests_per_minute,
            current_usage=current_usage,
            resets_at=resets_at,
        )


        rate_limit_view.additional_properties = d
        return rate_limit_view

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
