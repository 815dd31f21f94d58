from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.depth_source import DepthSource
from ..models.exchange import Exchange
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.outcome_book_view import OutcomeBookView





T = TypeVar("T", bound="OrderBookView")



@_attrs_define
class OrderBookView:
    """ A market's order book.

        Attributes:
            market_id (UUID): The market's Marketlens id (a UUID).
            exchange (Exchange): An exchange: `POLYMARKET` or `KALSHI`.
            timestamp (datetime.datetime): A time in ISO 8601, in UTC with milliseconds.
            age_ms (int): How old the book was when this answer was made, in milliseconds.
            source (DepthSource): Where an order book or trades came from: `stream` (the exchange's live stream, while a
                stream client of this server follows the market), `rest` (fetched from the exchange's REST API, shared for a
                short while), or `recording` (recorded earlier and served as recorded: the demo).
            stale (bool): The book is older than the server's bound (`--depth-max-age-ms`, 10 s by default);
                a recording always is.
            outcomes (list[OutcomeBookView]): One book per outcome, in the market's outcome order. A binary market's second
                book is
                its first seen from the other side: each bid at `p` of one is an ask at `1 - p` of the
                other.
            recorded_from (None | str | Unset): Recordings only (the demo): the market the recording was made on, as its
                exchange
                names it, when that is another market than this one.
     """

    market_id: UUID
    exchange: Exchange
    timestamp: datetime.datetime
    age_ms: int
    source: DepthSource
    stale: bool
    outcomes: list[OutcomeBookView]
    recorded_from: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.outcome_book_view import OutcomeBookView # noqa: PLC0415
        market_id = str(self.market_id)

        exchange = self.exchange.value

        timestamp = self.timestamp.isoformat()

        age_ms = self.age_ms

        source = self.source.value

        stale = self.stale

        outcomes = []
        for outcomes_item_data in self.outcomes:
            outcomes_item = outcomes_item_data.to_dict()
            outcomes.append(outcomes_item)



        recorded_from: None | str | Unset
        if isinstance(self.recorded_from, Unset):
            recorded_from = UNSET
        else:
            recorded_from = self.recorded_from


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "marketId": market_id,
            "exchange": exchange,
            "timestamp": timestamp,
            "ageMs": age_ms,
            "source": source,
            "stale": stale,
            "outcomes": outcomes,
        })
        if recorded_from is not UNSET:
            field_dict["recordedFrom"] = recorded_from

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.outcome_book_view import OutcomeBookView # noqa: PLC0415
        d = dict(src_dict)
        market_id = UUID(d.pop("marketId"))




        exchange = Exchange(d.pop("exchange"))




        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))




        age_ms = d.pop("ageMs")

        source = DepthSource(d.pop("source"))




        stale = d.pop("stale")

        outcomes = []
        _outcomes = d.pop("outcomes")
        for outcomes_item_data in (_outcomes):
            outcomes_item = OutcomeBookView.from_dict(outcomes_item_data)



            outcomes.append(outcomes_item)


        def _parse_recorded_from(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recorded_from = _parse_recorded_from(d.pop("recordedFrom", UNSET))


        order_book_view = cls(
            market_id=market_id,
            exchange=exchange,
            timestamp=timestamp,
            age_ms=age_ms,
            source=source,
            stale=stale,
            outcomes=outcomes,
            recorded_from=recorded_from,
        )


        order_book_view.additional_properties = d
        return order_book_view

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
