from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.explain_market import ExplainMarket
  from ..models.explain_meta import ExplainMeta
  from ..models.explain_source_type_0 import ExplainSourceType0
  from ..models.explain_source_type_1 import ExplainSourceType1





T = TypeVar("T", bound="ExplainData")



@_attrs_define
class ExplainData:
    """ What explain found: the market, a summary and key factors from recent news.

        Attributes:
            meta (ExplainMeta): The query and the market it was matched to.
            market (ExplainMarket): The market explained, in explain's shape.
            summary (str): A short text with the market's current price and volume, and how many recent articles bear
                on it.
            key_factors (list[str]): Factors taken from recent news articles about the market's subject, most relevant
                first;
                empty when no recent article bears on it.
            sources (list[ExplainSourceType0 | ExplainSourceType1]): Where the summary and key factors come from: the market
                data, then each article a key factor
                is taken from.
     """

    meta: ExplainMeta
    market: ExplainMarket
    summary: str
    key_factors: list[str]
    sources: list[ExplainSourceType0 | ExplainSourceType1]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.explain_market import ExplainMarket # noqa: PLC0415
        from ..models.explain_meta import ExplainMeta # noqa: PLC0415
        from ..models.explain_source_type_0 import ExplainSourceType0 # noqa: PLC0415
        from ..models.explain_source_type_1 import ExplainSourceType1 # noqa: PLC0415
        meta = self.meta.to_dict()

        market = self.market.to_dict()

        summary = self.summary

        key_factors = self.key_factors



        sources = []
        for sources_item_data in self.sources:
            sources_item: dict[str, Any]
            if isinstance(sources_item_data, ExplainSourceType0):
                sources_item = sources_item_data.to_dict()
            else:
                sources_item = sources_item_data.to_dict()

            sources.append(sources_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "meta": meta,
            "market": market,
            "summary": summary,
            "keyFactors": key_factors,
            "sources": sources,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.explain_market import ExplainMarket # noqa: PLC0415
        from ..models.explain_meta import ExplainMeta # noqa: PLC0415
        from ..models.explain_source_type_0 import ExplainSourceType0 # noqa: PLC0415
        from ..models.explain_source_type_1 import ExplainSourceType1 # noqa: PLC0415
        d = dict(src_dict)
        meta = ExplainMeta.from_dict(d.pop("meta"))




        market = ExplainMarket.from_dict(d.pop("market"))




        summary = d.pop("summary")

        key_factors = cast(list[str], d.pop("keyFactors"))


        sources = []
        _sources = d.pop("sources")
        for sources_item_data in (_sources):
            def _parse_sources_item(data: object) -> ExplainSourceType0 | ExplainSourceType1:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_explain_source_type_0 = ExplainSourceType0.from_dict(data)



                    return componentsschemas_explain_source_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_explain_source_type_1 = ExplainSourceType1.from_dict(data)



                return componentsschemas_explain_source_type_1

            sources_item = _parse_sources_item(sources_item_data)

            sources.append(sources_item)


        explain_data = cls(
            meta=meta,
            market=market,
            summary=summary,
            key_factors=key_factors,
            sources=sources,
        )


        explain_data.additional_properties = d
        return explain_data

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
