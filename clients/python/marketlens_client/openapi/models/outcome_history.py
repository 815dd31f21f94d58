from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.candle_view import CandleView





T = TypeVar("T", bound="OutcomeHistory")



@_attrs_define
class OutcomeHistory:
    """ One outcome's candles.

        Attributes:
            id (UUID): The outcome's id (a UUID), as in a market's get.
            name (str): The outcome's name.
            candles (list[CandleView]): Oldest first; a bucket without an observation has no candle.
     """

    id: UUID
    name: str
    candles: list[CandleView]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.candle_view import CandleView # noqa: PLC0415
        id = str(self.id)

        name = self.name

        candles = []
        for candles_item_data in self.candles:
            candles_item = candles_item_data.to_dict()
            candles.append(candles_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "candles": candles,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.candle_view import CandleView # noqa: PLC0415
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        name = d.pop("name")

        candles = []
        _candles = d.pop("candles")
        for candles_item_data in (_candles):
            candles_item = CandleView.from_dict(candles_item_data)



            candles.append(candles_item)


        outcome_history = cls(
            id=id,
            name=name,
            candles=candles,
        )


        outcome_history.additional_properties = d
        return outcome_history

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
