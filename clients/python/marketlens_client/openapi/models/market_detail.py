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
  from ..models.detail_outcome import DetailOutcome
  from ..models.market_resolution import MarketResolution
  from ..models.market_rules import MarketRules
  from ..models.matched_market_view import MatchedMarketView





T = TypeVar("T", bound="MarketDetail")



@_attrs_define
class MarketDetail:
    """ A market with its description, dates, outcomes and the markets of the other exchange that ask
    the same question.

        Attributes:
            id (UUID): The market's Marketlens id (a UUID), the same on every node and after every sync.
            exchange_id (Exchange): An exchange: `POLYMARKET` or `KALSHI`.
            external_market_id (str): The exchange's own id of the market: Polymarket's numeric market id or Kalshi's
                ticker.
            question (str): The market's question, as the exchange words it.
            description (str): The market's full description as the exchange gives it; empty when it gives none.
            status (MarketStatus): Where a market is in its life: `OPEN` (trading), `CLOSED` (trading has stopped, the
                result is not yet known) or `RESOLVED` (the result is known).
            category (Category): The subject a market or event is filed under, the same for both exchanges
                (`docs/contract/decisions.md#d6-category`).
            liquidity (float): The market's current liquidity, in US dollars.
            volume (float): The market's total traded volume, in US dollars.
            volume24h (float): The volume traded in the last 24 hours, in US dollars.
            created_at (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            updated_at (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            outcomes (list[DetailOutcome]): The market's outcomes and their current prices, in the exchange's order.
            matched_markets (list[MatchedMarketView]): Markets of the other exchange that ask the same question, best first,
                at most 5; empty when
                none is known.
            last_synced_at (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            rules (MarketRules): How a market resolves, in its exchange's words; each part `null` when the exchange states
                none.
            start_date (datetime.datetime | None | Unset):
            end_date (datetime.datetime | None | Unset):
            event_id (None | Unset | UUID): The id of the market's event (see `GET /api/v1/events/{id}`); `null` when the
                market
                belongs to no event or its event is not stored. Beyond the interface.
            url (None | str | Unset): The market's public page on its exchange (a Kalshi page is its event's), in a form
                `GET /api/v1/markets/lookup` reads back; `null` when the exchange gave nothing to build
                one from. Beyond the interface.
            resolution (MarketResolution | None | Unset):
     """

    id: UUID
    exchange_id: Exchange
    external_market_id: str
    question: str
    description: str
    status: MarketStatus
    category: Category
    liquidity: float
    volume: float
    volume24h: float
    created_at: datetime.datetime
    updated_at: datetime.datetime
    outcomes: list[DetailOutcome]
    matched_markets: list[MatchedMarketView]
    last_synced_at: datetime.datetime
    rules: MarketRules
    start_date: datetime.datetime | None | Unset = UNSET
    end_date: datetime.datetime | None | Unset = UNSET
    event_id: None | Unset | UUID = UNSET
    url: None | str | Unset = UNSET
    resolution: MarketResolution | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.detail_outcome import DetailOutcome # noqa: PLC0415
        from ..models.market_resolution import MarketResolution # noqa: PLC0415
        from ..models.market_rules import MarketRules # noqa: PLC0415
        from ..models.matched_market_view import MatchedMarketView # noqa: PLC0415
        id = str(self.id)

        exchange_id = self.exchange_id.value

        external_market_id = self.external_market_id

        question = self.question

        description = self.description

        status = self.status.value

        category = self.category.value

        liquidity = self.liquidity

        volume = self.volume

        volume24h = self.volume24h

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        outcomes = []
        for outcomes_item_data in self.outcomes:
            outcomes_item = outcomes_item_data.to_dict()
            outcomes.append(outcomes_item)



        matched_markets = []
        for matched_markets_item_data in self.matched_markets:
            matched_markets_item = matched_markets_item_data.to_dict()
            matched_markets.append(matched_markets_item)



        last_synced_at = self.last_synced_at.isoformat()

        rules = self.rules.to_dict()

        start_date: None | str | Unset
        if isinstance(self.start_date, Unset):
            start_date = UNSET
        elif isinstance(self.start_date, datetime.datetime):
            start_date = self.start_date.isoformat()
        else:
            start_date = self.start_date

        end_date: None | str | Unset
        if isinstance(self.end_date, Unset):
            end_date = UNSET
        elif isinstance(self.end_date, datetime.datetime):
            end_date = self.end_date.isoformat()
        else:
            end_date = self.end_date

        event_id: None | str | Unset
        if isinstance(self.event_id, Unset):
            event_id = UNSET
        elif isinstance(self.event_id, UUID):
            event_id = str(self.event_id)
        else:
            event_id = self.event_id

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        resolution: dict[str, Any] | None | Unset
        if isinstance(self.resolution, Unset):
            resolution = UNSET
        elif isinstance(self.resolution, MarketResolution):
            resolution = self.resolution.to_dict()
        else:
            resolution = self.resolution


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "exchangeId": exchange_id,
            "externalMarketId": external_market_id,
            "question": question,
            "description": description,
            "status": status,
            "category": category,
            "liquidity": liquidity,
            "volume": volume,
            "volume24h": volume24h,
            "createdAt": created_at,
            "updatedAt": updated_at,
            "outcomes": outcomes,
            "matchedMarkets": matched_markets,
            "lastSyncedAt": last_synced_at,
            "rules": rules,
        })
        if start_date is not UNSET:
            field_dict["startDate"] = start_date
        if end_date is not UNSET:
            field_dict["endDate"] = end_date
        if event_id is not UNSET:
            field_dict["eventId"] = event_id
        if url is not UNSET:
            field_dict["url"] = url
        if resolution is not UNSET:
            field_dict["resolution"] = resolution

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.detail_outcome import DetailOutcome # noqa: PLC0415
        from ..models.market_resolution import MarketResolution # noqa: PLC0415
        from ..models.market_rules import MarketRules # noqa: PLC0415
        from ..models.matched_market_view import MatchedMarketView # noqa: PLC0415
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        exchange_id = Exchange(d.pop("exchangeId"))




        external_market_id = d.pop("externalMarketId")

        question = d.pop("question")

        description = d.pop("description")

        status = MarketStatus(d.pop("status"))




        category = Category(d.pop("category"))




        liquidity = d.pop("liquidity")

        volume = d.pop("volume")

        volume24h = d.pop("volume24h")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))




        outcomes = []
        _outcomes = d.pop("outcomes")
        for outcomes_item_data in (_outcomes):
            outcomes_item = DetailOutcome.from_dict(outcomes_item_data)



            outcomes.append(outcomes_item)


        matched_markets = []
        _matched_markets = d.pop("matchedMarkets")
        for matched_markets_item_data in (_matched_markets):
            matched_markets_item = MatchedMarketView.from_dict(matched_markets_item_data)



            matched_markets.append(matched_markets_item)


        last_synced_at = datetime.datetime.fromisoformat(d.pop("lastSyncedAt"))




        rules = MarketRules.from_dict(d.pop("rules"))




        def _parse_start_date(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                start_date_type_1 = datetime.datetime.fromisoformat(data)



                return start_date_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        start_date = _parse_start_date(d.pop("startDate", UNSET))


        def _parse_end_date(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_date_type_1 = datetime.datetime.fromisoformat(data)



                return end_date_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        end_date = _parse_end_date(d.pop("endDate", UNSET))


        def _parse_event_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                event_id_type_0 = UUID(data)



                return event_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        event_id = _parse_event_id(d.pop("eventId", UNSET))


        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))


        def _parse_resolution(data: object) -> MarketResolution | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                resolution_type_1 = MarketResolution.from_dict(data)



                return resolution_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MarketResolution | None | Unset, data)

        resolution = _parse_resolution(d.pop("resolution", UNSET))


        market_detail = cls(
            id=id,
            exchange_id=exchange_id,
            external_market_id=external_market_id,
            question=question,
            description=description,
            status=status,
            category=category,
            liquidity=liquidity,
            volume=volume,
            volume24h=volume24h,
            created_at=created_at,
            updated_at=updated_at,
            outcomes=outcomes,
            matched_markets=matched_markets,
            last_synced_at=last_synced_at,
            rules=rules,
            start_date=start_date,
            end_date=end_date,
            event_id=event_id,
            url=url,
            resolution=resolution,
        )


        market_detail.additional_properties = d
        return market_detail

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
