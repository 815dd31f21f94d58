from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="AdminKey")



@_attrs_define
class AdminKey:
    """ An API key as the operator sees it: never the key itself.

        Attributes:
            id (UUID): The key's id (a UUID), which revoking names.
            account_id (UUID): The id of the account the key charges.
            display (str): The truncated form; the key itself is shown only when it is made.
            created_at (datetime.datetime): When the key was made (ISO 8601, UTC).
            revoked_at (datetime.datetime | None | Unset): `null` while the key is live.
     """

    id: UUID
    account_id: UUID
    display: str
    created_at: datetime.datetime
    revoked_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        account_id = str(self.account_id)

        display = self.display

        created_at = self.created_at.isoformat()

        revoked_at: None | str | Unset
        if isinstance(self.revoked_at, Unset):
            revoked_at = UNSET
        elif isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "accountId": account_id,
            "display": display,
            "createdAt": created_at,
        })
        if revoked_at is not UNSET:
            field_dict["revokedAt"] = revoked_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        account_id = UUID(d.pop("accountId"))




        display = d.pop("display")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        def _parse_revoked_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)



                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        revoked_at = _parse_revoked_at(d.pop("revokedAt", UNSET))


        admin_key = cls(
            id=id,
            account_id=account_id,
            display=display,
            created_at=created_at,
            revoked_at=revoked_at,
        )


        admin_key.additional_properties = d
        return admin_key

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
