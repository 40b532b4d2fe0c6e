from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

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
        thread_id (None | Unset | UUID): Present when the cited content is an open comment thread (beyond the spec): the
            thread's
            id; `Id` is then the item it is on (the thread's own id for a thread on a point).
    """

    id: str
    index: int
    relevance: float
    chunk: None | str | Unset = UNSET
    project_id: None | str | Unset = UNSET
    thread_id: None | Unset | UUID = UNSET
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

        thread_id: None | str | Unset
        if isinstance(self.thread_id, Unset):
            thread_id = UNSET
        elif isinstance(self.thread_id, UUID):
            thread_id = str(self.thread_id)
        else:
            thread_id = self.thread_id

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
        if thread_id is not UNSET:
            field_dict["ThreadId"] = thread_id

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

        def _parse_thread_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                thread_id_type_0 = UUID(data)

                return thread_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        thread_id = _parse_thread_id(d.pop("ThreadId", UNSET))

        citation_reference = cls(
            id=id,
            index=index,
            relevance=relevance,
            chunk=chunk,
            project_id=project_id,
            thread_id=thread_id,
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
