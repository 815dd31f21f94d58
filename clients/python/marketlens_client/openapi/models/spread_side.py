from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.category import Category
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="SpreadSide")



@_attrs_define
class SpreadSide:
    """ One side of a spread: a market and the outcome of it that is compared.

        Attributes:
            id (UUID): The market's Marketlens id (a UUID).
            external_market_id (str): The exchange's own id of the market: Polymarket's numeric market id or Kalshi's
                ticker.
            question (str): The market's question, as its exchange words it.
            category (Category): The subject a market or event is filed under, the same for both exchanges
                (`docs/contract/decisions.md#d6-category`).
            outcome (str): The name of the outcome compared.
            price (float): The compared outcome's current price, a fraction from 0 to 1.
            volume24h (float): The market's volume of the last 24 hours, in US dollars.
            last_synced_at (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            stale (bool): The price was last confirmed longer ago than the server's stale age.
     """

    id: UUID
    external_market_id: str
    question: str
    category: Category
    outcome: str
    price: float
    volume24h: float
    last_synced_at: datetime.datetime
    stale: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        external_market_id = self.external_market_id

        question = self.question

        category = self.category.value

        outcome = self.outcome

        price = self.price

        volume24h = self.volume24h

        last_synced_at = self.last_synced_at.isoformat()

        stale = self.stale


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "externalMarketId": external_market_id,
            "question": question,
            "category": category,
            "outcome": outcome,
            "price": price,
            "volume24h": volume24h,
            "lastSyncedAt": last_synced_at,
            "stale": stale,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        external_market_id = d.pop("externalMarketId")

        question = d.pop("question")

        category = Category(d.pop("category"))




        outcome = d.pop("outcome")

        price = d.pop("price")

        volume24h = d.pop("volume24h")

        last_synced_at = datetime.datetime.fromisoformat(d.pop("lastSyncedAt"))




        stale = d.pop("stale")

        spread_side = cls(
            id=id,
            external_market_id=external_market_id,
            question=question,
            category=category,
            outcome=outcome,
            price=price,
            volume24h=volume24h,
            last_synced_at=last_synced_at,
            stale=stale,
        )


        spread_side.additional_properties = d
        return spread_side

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
