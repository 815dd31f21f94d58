from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.admin_account import AdminAccount
  from ..models.new_key import NewKey





T = TypeVar("T", bound="CreatedAccount")



@_attrs_define
class CreatedAccount:
    """ A new account and its first key.

        Attributes:
            account (AdminAccount): An account as the operator sees it.
            key (NewKey): A key just made: the only time the key itself is shown.
     """

    account: AdminAccount
    key: NewKey
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.admin_account import AdminAccount # noqa: PLC0415
        from ..models.new_key import NewKey # noqa: PLC0415
        account = self.account.to_dict()

        key = self.key.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "account": account,
            "key": key,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.admin_account import AdminAccount # noqa: PLC0415
        from ..models.new_key import NewKey # noqa: PLC0415
        d = dict(src_dict)
        account = AdminAccount.from_dict(d.pop("account"))




        key = NewKey.from_dict(d.pop("key"))




        created_account = cls(
            account=account,
            key=key,
        )


        created_account.additional_properties = d
        return created_account

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
