from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.exchange import Exchange
from uuid import UUID






T = TypeVar("T", bound="MatchedMarketView")



@_attrs_define
class MatchedMarketView:
    """ A market on the other exchange that asks the same question and resolves alike
    (`docs/contract/decisions.md#d6-matching`).

        Attributes:
            id (UUID): The matched market's Marketlens id (a UUID): get it for its figures.
            exchange_id (Exchange): An exchange: `POLYMARKET` or `KALSHI`.
            question (str): The matched market's question, as its exchange words it.
            similarity (float): How sure the matcher is that both markets resolve alike: a fraction from 0 to 1, 3 decimals;
                only matches above the serving threshold are listed.
            reason (str): What the two markets agree on (subject, contest, form, threshold or range, date or
                period) and what could not be checked or differs only at a boundary, in one line, so
                that a trader can check a match before acting on it. Beyond the interface.
     """

    id: UUID
    exchange_id: Exchange
    question: str
    similarity: float
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        exchange_id = self.exchange_id.value

        question = self.question

        similarity = self.similarity

        reason = self.reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "exchangeId": exchange_id,
            "question": question,
            "similarity": similarity,
            "reason": reason,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        exchange_id = Exchange(d.pop("exchangeId"))




        question = d.pop("question")

        similarity = d.pop("similarity")

        reason = d.pop("reason")

        matched_market_view = cls(
            id=id,
            exchange_id=exchange_id,
            question=question,
            similarity=similarity,
            reason=reason,
        )


        matched_market_view.additional_properties = d
        return matched_market_view

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
