from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.account_status import AccountStatus
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.admin_credits import AdminCredits





T = TypeVar("T", bound="AdminAccount")



@_attrs_define
class AdminAccount:
    """ An account as the operator sees it.

        Attributes:
            id (UUID): The account's id (a UUID).
            label (str): The operator's note on the account; may be empty.
            tier (str): The account's tier, which sets its requests per minute.
            status (AccountStatus): Whether an account's keys are served (`active`) or refused with 403 (`suspended`).
            wallet_address (str): The owner's wallet address; an empty string when there is none.
            credits_ (AdminCredits): An account's credits.
            created_at (datetime.datetime): When the account was made (ISO 8601, UTC).
     """

    id: UUID
    label: str
    tier: str
    status: AccountStatus
    wallet_address: str
    credits_: AdminCredits
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.admin_credits import AdminCredits # noqa: PLC0415
        id = str(self.id)

        label = self.label

        tier = self.tier

        status = self.status.value

        wallet_address = self.wallet_address

        credits_ = self.credits_.to_dict()

        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "label": label,
            "tier": tier,
            "status": status,
            "walletAddress": wallet_address,
            "credits": credits_,
            "createdAt": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.admin_credits import AdminCredits # noqa: PLC0415
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        label = d.pop("label")

        tier = d.pop("tier")

        status = AccountStatus(d.pop("status"))




        wallet_address = d.pop("walletAddress")

        credits_ = AdminCredits.from_dict(d.pop("credits"))




        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        admin_account = cls(
            id=id,
            label=label,
            tier=tier,
            status=status,
            wallet_address=wallet_address,
            credits_=credits_,
            created_at=created_at,
        )


        admin_account.additional_properties = d
        return admin_account

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
