from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="CreateAccount")



@_attrs_define
class CreateAccount:
    """ A new account: its tier, and optionally its starting credits, wallet address and label.

        Attributes:
            tier (str): One of the tiers the server is configured with.
            credits_ (int | Unset): Credits to start with.
            wallet_address (str | Unset): The owner's wallet address, if any.
            label (str | Unset): A note for the operator, e.g. who the account is for.
     """

    tier: str
    credits_: int | Unset = UNSET
    wallet_address: str | Unset = UNSET
    label: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        tier = self.tier

        credits_ = self.credits_

        wallet_address = self.wallet_address

        label = self.label


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "tier": tier,
        })
        if credits_ is not UNSET:
            field_dict["credits"] = credits_
        if wallet_address is not UNSET:
            field_dict["walletAddress"] = wallet_address
        if label is not UNSET:
            field_dict["label"] = label

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tier = d.pop("tier")

        credits_ = d.pop("credits", UNSET)

        wallet_address = d.pop("walletAddress", UNSET)

        label = d.pop("label", UNSET)

        create_account = cls(
            tier=tier,
            credits_=credits_,
            wallet_address=wallet_address,
            label=label,
        )

        return create_account

