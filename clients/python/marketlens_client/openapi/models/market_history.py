from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.outcome_history import OutcomeHistory





T = TypeVar("T", bound="MarketHistory")



@_attrs_define
class MarketHistory:
    """ A market's price history: one series of candles per outcome.

        Attributes:
            market_id (UUID): The market's Marketlens id (a UUID).
            interval (str): `5m`, `1h`, `4h` or `1d`.
            outcomes (list[OutcomeHistory]): One series of candles per outcome, in the market's outcome order.
     """

    market_id: UUID
    interval: str
    outcomes: list[OutcomeHistory]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.outcome_history import OutcomeHistory # noqa: PLC0415
        market_id = str(self.market_id)

        interval = self.interval

        outcomes = []
        for outcomes_item_data in self.outcomes:
            outcomes_item = outcomes_item_data.to_dict()
            outcomes.append(outcomes_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "marketId": market_id,
            "interval": interval,
            "outcomes": outcomes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.outcome_history import OutcomeHistory # noqa: PLC0415
        d = dict(src_dict)
        market_id = UUID(d.pop("marketId"))




        interval = d.pop("interval")

        outcomes = []
        _outcomes = d.pop("outcomes")
        for outcomes_item_data in (_outcomes):
            outcomes_item = OutcomeHistory.from_dict(outcomes_item_data)



            outcomes.append(outcomes_item)


        market_history = cls(
            market_id=market_id,
            interval=interval,
            outcomes=outcomes,
        )


        market_history.additional_properties = d
        return market_history

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
