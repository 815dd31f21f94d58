from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.error_code import ErrorCode
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.error_object_details_type_0 import ErrorObjectDetailsType0





T = TypeVar("T", bound="ErrorObject")



@_attrs_define
class ErrorObject:
    """ What went wrong: a stable code, a message for people, and details for programs.

        Attributes:
            code (ErrorCode): What went wrong, as a stable code to branch on (`docs/contract/decisions.md#d2-codes`).
            message (str): What went wrong, in words for people; may change between versions.
            details (ErrorObjectDetailsType0 | None | Unset): What the mistake was: the parameter and what it allows, the
                credits required and
                remaining, the rate limit and when it resets, the markets closest to a query explain
                found no market for (`candidates`).
     """

    code: ErrorCode
    message: str
    details: ErrorObjectDetailsType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.error_object_details_type_0 import ErrorObjectDetailsType0 # noqa: PLC0415
        code = self.code.value

        message = self.message

        details: dict[str, Any] | None | Unset
        if isinstance(self.details, Unset):
            details = UNSET
        elif isinstance(self.details, ErrorObjectDetailsType0):
            details = self.details.to_dict()
        else:
            details = self.details


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "code": code,
            "message": message,
        })
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_object_details_type_0 import ErrorObjectDetailsType0 # noqa: PLC0415
        d = dict(src_dict)
        code = ErrorCode(d.pop("code"))




        message = d.pop("message")

        def _parse_details(data: object) -> ErrorObjectDetailsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = ErrorObjectDetailsType0.from_dict(data)



                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorObjectDetailsType0 | None | Unset, data)

        details = _parse_details(d.pop("details", UNSET))


        error_object = cls(
            code=code,
            message=message,
            details=details,
        )


        error_object.additional_properties = d
        return error_object

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
