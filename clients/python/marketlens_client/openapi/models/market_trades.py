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

if TYPE_CHECKING:
  from ..models.trade_view import TradeView





T = TypeVar("T", bound="MarketTrades")



@_attrs_define
class MarketTrades:
    """ A page of a market's trades.

        Attributes:
            market_id (UUID): The market's Marketlens id (a UUID).
            exchange (Exchange): An exchange: `POLYMARKET` or `KALSHI`.
            source (DepthSource): Where an order book or trades came from: `stream` (the exchange's live stream, while a
                stream client of this server follows the market), `rest` (fetched from the exchange's REST API, shared for a
                short while), or `recording` (recorded earlier and served as recorded: the demo).
            trades (list[TradeView]): Newest first.
            recorded_from (None | str | Unset): As in an order book: the market a recording was made on.
     """

    market_id: UUID
    exchange: Exchange
    source: DepthSource
    trades: list[TradeView]
    recorded_from: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.trade_view import TradeView # noqa: PLC0415
        market_id = str(self.market_id)

        exchange = self.exchange.value

        source = self.source.value

        trades = []
        for trades_item_data in self.trades:
            trades_item = trades_item_data.to_dict()
            trades.append(trades_item)



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
            "source": source,
            "trades": trades,
        })
        if recorded_from is not UNSET:
            field_dict["recordedFrom"] = recorded_from

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trade_view import TradeView # noqa: PLC0415
        d = dict(src_dict)
        market_id = UUID(d.pop("marketId"))




        exchange = Exchange(d.pop("exchange"))




        source = DepthSource(d.pop("source"))




        trades = []
        _trades = d.pop("trades")
        for trades_item_data in (_trades):
            trades_item = TradeView.from_dict(trades_item_data)



            trades.append(trades_item)


        def _parse_recorded_from(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recorded_from = _parse_recorded_from(d.pop("recordedFrom", UNSET))


        market_trades = cls(
            market_id=market_id,
            exchange=exchange,
            source=source,
            trades=trades,
            recorded_from=recorded_from,
        )


        market_trades.additional_properties = d
        return market_trades

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
