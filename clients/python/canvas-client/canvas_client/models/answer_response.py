from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.citation_reference import CitationReference


T = TypeVar("T", bound="AnswerResponse")


@_attrs_define
class AnswerResponse:
    """The answer and what it cites.

    Attributes:
        answer (str): With `postProcess` the model's answer; otherwise the cited chunks joined by a blank line.
        citations (list[CitationReference]):
    """

    answer: str
    citations: list[CitationReference]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        answer = self.answer

        citations = []
        for citations_item_data in self.citations:
            citations_item = citations_item_data.to_dict()
            citations.append(citations_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Answer": answer,
                "Citations": citations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.citation_reference import CitationReference  # noqa: PLC0415

        d = dict(src_dict)
        answer = d.pop("Answer")

        citations = []
        _citations = d.pop("Citations")
        for citations_item_data in _citations:
            citations_item = CitationReference.from_dict(citations_item_data)

            citations.append(citations_item)

        answer_response = cls(
            answer=answer,
            citations=citations,
        )

        answer_response.additional_properties = d
        return answer_response

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
