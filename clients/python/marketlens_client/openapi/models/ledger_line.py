from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.ledger_kind import LedgerKind
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="LedgerLine")



@_attrs_define
class LedgerLine:
    """ A line of an account's ledger: credits added, or a call's charge.

        Attributes:
            id (int): The line's number, increasing in the order lines were written; `after` pages by it.
            kind (LedgerKind): A ledger line's kind: `credit` (credits added) or `charge` (a call's cost).
            credits_ (int): Always positive; the kind says which way it moved the balance.
            created_at (datetime.datetime): When the line was written (ISO 8601, UTC).
            api_key_id (None | Unset | UUID): The key that made the charged call; `null` for credits added.
            operation (None | str | Unset): The operation charged (`listMarkets`, `explain`, ...); `null` for credits added.
            request_id (None | str | Unset): The server's id of the charged request (`X-Server-Request-Id`), which the logs
                know it by;
                `null` for credits added.
     """

    id: int
    kind: LedgerKind
    credits_: int
    created_at: datetime.datetime
    api_key_id: None | Unset | UUID = UNSET
    operation: None | str | Unset = UNSET
    request_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind.value

        credits_ = self.credits_

        created_at = self.created_at.isoformat()

        api_key_id: None | str | Unset
        if isinstance(self.api_key_id, Unset):
            api_key_id = UNSET
        elif isinstance(self.api_key_id, UUID):
            api_key_id = str(self.api_key_id)
        else:
            api_key_id = self.api_key_id

        operation: None | str | Unset
        if isinstance(self.operation, Unset):
            operation = UNSET
        else:
            operation = self.operation

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "kind": kind,
            "credits": credits_,
            "createdAt": created_at,
        })
        if api_key_id is not UNSET:
            field_dict["apiKeyId"] = api_key_id
        if operation is not UNSET:
            field_dict["operation"] = operation
        if request_id is not UNSET:
            field_dict["requestId"] = request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        kind = LedgerKind(d.pop("kind"))




        credits_ = d.pop("credits")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        def _parse_api_key_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                api_key_id_type_0 = UUID(data)



                return api_key_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        api_key_id = _parse_api_key_id(d.pop("apiKeyId", UNSET))


        def _parse_operation(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        operation = _parse_operation(d.pop("operation", UNSET))


        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("requestId", UNSET))


        ledger_line = cls(
            id=id,
            kind=kind,
            credits_=credits_,
            created_at=created_at,
            api_key_id=api_key_id,
            operation=operation,
            request_id=request_id,
        )


        ledger_line.additional_properties = d
        return ledger_line

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
