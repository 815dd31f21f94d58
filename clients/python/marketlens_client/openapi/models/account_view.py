from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.credits_view import CreditsView
  from ..models.rate_limit_view import RateLimitView
  from ..models.user_view import UserView





T = TypeVar("T", bound="AccountView")



@_attrs_define
class AccountView:
    """ The calling key's account: its credits, tier and rate limit (`docs/contract/interface.md#i2-4`).

        Attributes:
            api_key (str): The calling key, shortened so that it cannot be used (`pm_live_ab12...cd34`).
            credits_ (CreditsView): An account's credits: every charged call takes its cost from `remaining`.
            user (UserView): The owner of an account.
            tier (str): The account's tier, which sets its requests per minute (`free`, `starter`, `pro`,
                `enterprise`, or a tier the operator configured).
            rate_limit (RateLimitView): An account's requests-per-minute limit and this minute's use of it.
     """

    api_key: str
    credits_: CreditsView
    user: UserView
    tier: str
    rate_limit: RateLimitView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.credits_view import CreditsView # noqa: PLC0415
        from ..models.rate_limit_view import RateLimitView # noqa: PLC0415
        from ..models.user_view import UserView # noqa: PLC0415
        api_key = self.api_key

        credits_ = self.credits_.to_dict()

        user = self.user.to_dict()

        tier = self.tier

        rate_limit = self.rate_limit.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "apiKey": api_key,
            "credits": credits_,
            "user": user,
            "tier": tier,
            "rateLimit": rate_limit,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.credits_view import CreditsView # noqa: PLC0415
        from ..models.rate_limit_view import RateLimitView # noqa: PLC0415
        from ..models.user_view import UserView # noqa: PLC0415
        d = dict(src_dict)
        api_key = d.pop("apiKey")

        credits_ = CreditsView.from_dict(d.pop("credits"))




        user = UserView.from_dict(d.pop("user"))




        tier = d.pop("tier")

        rate_limit = RateLimitView.from_dict(d.pop("rateLimit"))




        account_view = cls(
            api_key=api_key,
            credits_=credits_,
            user=user,
            tier=tier,
            rate_limit=rate_limit,
        )


        account_view.additional_properties = d
        return account_view

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
