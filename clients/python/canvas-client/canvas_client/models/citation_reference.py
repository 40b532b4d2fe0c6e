from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CitationReference")


@_attrs_define
class CitationReference:
    """One cited item.

    Attributes:
        id (str): The cited item's id.
        index (int): Rank, from 1.
        relevance (float): Relevance score, descending.
        chunk (None | str | Unset): The matched chunk.
        project_id (None | str | Unset):
    """

    id: str
    index: int
    relevance: float
    chunk: None | str | Unset = UNSET
    project_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        index = self.index

        relevance = self.relevance

        chunk: None | str | Unset
        if isinstance(self.chunk, Unset):
            chunk = UNSET
        else:
            chunk = self.chunk

        project_id: None | str | Unset
        if isinstance(self.project_id, Unset):
            project_id = UNSET
        else:
            project_id = self.project_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Id": id,
                "Index": index,
                "Relevance": relevance,
            }
        )
        if chunk is not UNSET:
            field_dict["Chunk"] = chunk
        if project_id is not UNSET:
            field_dict["ProjectId"] = project_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("Id")

        index = d.pop("Index")

        relevance = d.pop("Relevance")

        def _parse_chunk(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        chunk = _parse_chunk(d.pop("Chunk", UNSET))

        def _parse_project_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        project_id = _parse_project_id(d.pop("ProjectId", UNSET))

        citation_reference = cls(
            id=id,
            index=index,
            relevance=relevance,
            chunk=chunk,
            project_id=project_id,
        )

        citation_reference.additional_properties = d
        return citation_reference

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
