from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.account_status import AccountStatus
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateAccount")



@_attrs_define
class UpdateAccount:
    """ What to change in an account: its tier, its status, or both; at least one.

        Attributes:
            tier (None | str | Unset): One of the tiers the server is configured with.
            status (AccountStatus | None | Unset):
     """

    tier: None | str | Unset = UNSET
    status: AccountStatus | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        tier: None | str | Unset
        if isinstance(self.tier, Unset):
            tier = UNSET
        else:
            tier = self.tier

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, AccountStatus):
            status = self.status.value
        else:
            status = self.status


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if tier is not UNSET:
            field_dict["tier"] = tier
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_tier(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tier = _parse_tier(d.pop("tier", UNSET))


        def _parse_status(data: object) -> AccountStatus | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_1 = AccountStatus(data)



                return status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccountStatus | None | Unset, data)

        status = _parse_status(d.pop("status", UNSET))


        update_account = cls(
            tier=tier,
            status=status,
        )

        return update_account

