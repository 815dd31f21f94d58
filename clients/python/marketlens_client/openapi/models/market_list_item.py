from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.category import Category
from ..models.exchange import Exchange
from ..models.market_status import MarketStatus
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.list_outcome import ListOutcome





T = TypeVar("T", bound="MarketListItem")



@_attrs_define
class MarketListItem:
    """ A market in a list: its figures without description, dates or matches (get has them).

        Attributes:
            id (UUID): The market's Marketlens id (a UUID), the same on every node and after every sync.
            exchange_id (Exchange): An exchange: `POLYMARKET` or `KALSHI`.
            external_market_id (str): The exchange's own id of the market: Polymarket's numeric market id or Kalshi's
                ticker.
            question (str): The market's question, as the exchange words it.
            status (MarketStatus): Where a market is in its life: `OPEN` (trading), `CLOSED` (trading has stopped, the
                result is not yet known) or `RESOLVED` (the result is known).
            category (Category): The subject a market or event is filed under, the same for both exchanges
                (`docs/contract/decisions.md#d6-category`).
            liquidity (float): The market's current liquidity, in US dollars.
            volume (float): The market's total traded volume, in US dollars.
            volume24h (float): The volume traded in the last 24 hours, in US dollars.
            created_at (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            outcomes (list[ListOutcome] | None | Unset): The market's outcomes and their prices; the key is present only
                with `include=outcomes`.
     """

    id: UUID
    exchange_id: Exchange
    external_market_id: str
    question: str
    status: MarketStatus
    category: Category
    liquidity: float
    volume: float
    volume24h: float
    created_at: datetime.datetime
    outcomes: list[ListOutcome] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.list_outcome import ListOutcome # noqa: PLC0415
        id = str(self.id)

        exchange_id = self.exchange_id.value

        external_market_id = self.external_market_id

        question = self.question

        status = self.status.value

        category = self.category.value

        liquidity = self.liquidity

        volume = self.volume

        volume24h = self.volume24h

        created_at = self.created_at.isoformat()

        outcomes: list[dict[str, Any]] | None | Unset
        if isinstance(self.outcomes, Unset):
            outcomes = UNSET
        elif isinstance(self.outcomes, list):
            outcomes = []
            for outcomes_type_0_item_data in self.outcomes:
                outcomes_type_0_item = outcomes_type_0_item_data.to_dict()
                outcomes.append(outcomes_type_0_item)


        else:
            outcomes = self.outcomes


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "exchangeId": exchange_id,
            "externalMarketId": external_market_id,
            "question": question,
            "status": status,
            "category": category,
            "liquidity": liquidity,
            "volume": volume,
            "volume24h": volume24h,
            "createdAt": created_at,
        })
        if outcomes is not UNSET:
            field_dict["outcomes"] = outcomes

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.list_outcome import ListOutcome # noqa: PLC0415
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        exchange_id = Exchange(d.pop("exchangeId"))




        external_market_id = d.pop("externalMarketId")

        question = d.pop("question")

        status = MarketStatus(d.pop("status"))




        category = Category(d.pop("category"))




        liquidity = d.pop("liquidity")

        volume = d.pop("volume")

        volume24h = d.pop("volume24h")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        def _parse_outcomes(data: object) -> list[ListOutcome] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                outcomes_type_0 = []
                _outcomes_type_0 = data
                for outcomes_type_0_item_data in (_outcomes_type_0):
                    outcomes_type_0_item = ListOutcome.from_dict(outcomes_type_0_item_data)



                    outcomes_type_0.append(outcomes_type_0_item)

                return outcomes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ListOutcome] | None | Unset, data)

        outcomes = _parse_outcomes(d.pop("outcomes", UNSET))


        market_list_item = cls(
            id=id,
            exchange_id=exchange_id,
            external_market_id=external_market_id,
            question=question,
            status=status,
            category=category,
            liquidity=liquidity,
            volume=volume,
            volume24h=volume24h,
            created_at=created_at,
            outcomes=outcomes,
        )


        market_list_item.additional_properties = d
        return market_list_item

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
