from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.error_object import ErrorObject





T = TypeVar("T", bound="ErrorBody")



@_attrs_define
class ErrorBody:
    """ The error JSON, fields in the contract's order.

        Attributes:
            success (bool): Always `false`.
            error (ErrorObject): What went wrong: a stable code, a message for people, and details for programs.
            request_id (None | str | Unset): The server's id of the request, as in the `X-Server-Request-Id` header: the one
                the
                ledger and the logs know the call by (`X-Request-Id` echoes a client's own id).
     """

    success: bool
    error: ErrorObject
    request_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.error_object import ErrorObject # noqa: PLC0415
        success = self.success

        error = self.error.to_dict()

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "success": success,
            "error": error,
        })
        if request_id is not UNSET:
            field_dict["requestId"] = request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_object import ErrorObject # noqa: PLC0415
        d = dict(src_dict)
        success = d.pop("success")

        error = ErrorObject.from_dict(d.pop("error"))




        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("requestId", UNSET))


        error_body = cls(
            success=success,
            error=error,
            request_id=request_id,
        )


        error_body.additional_properties = d
        return error_body

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
