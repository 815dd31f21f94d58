from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.explain_data import ExplainData





T = TypeVar("T", bound="ExplainEnvelope")



@_attrs_define
class ExplainEnvelope:
    """ The explain envelope (`docs/contract/interface.md#i2-3`).

        Attributes:
            success (bool): Always `true` in a 200 answer.
            data (ExplainData): What explain found: the market, a summary and key factors from recent news.
            credits_used (int): Credits this call charged: always 5.
            processing_time_ms (float): How long the server took, in milliseconds.
     """

    success: bool
    data: ExplainData
    credits_used: int
    processing_time_ms: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.explain_data import ExplainData # noqa: PLC0415
        success = self.success

        data = self.data.to_dict()

        credits_used = self.credits_used

        processing_time_ms = self.processing_time_ms


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "success": success,
            "data": data,
            "creditsUsed": credits_used,
            "processingTimeMs": processing_time_ms,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.explain_data import ExplainData # noqa: PLC0415
        d = dict(src_dict)
        success = d.pop("success")

        data = ExplainData.from_dict(d.pop("data"))




        credits_used = d.pop("creditsUsed")

        processing_time_ms = d.pop("processingTimeMs")

        explain_envelope = cls(
            success=success,
            data=data,
            credits_used=credits_used,
            processing_time_ms=processing_time_ms,
        )


        explain_envelope.additional_properties = d
        return explain_envelope

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
