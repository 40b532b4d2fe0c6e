from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.index_status_state import IndexStatusState
from ..types import UNSET, Unset

T = TypeVar("T", bound="IndexStatus")


@_attrs_define
class IndexStatus:
    """How far one item is indexed.

    Attributes:
        attempts (int):
        chunks (int):
        indexed_version (int):
        item_id (str):
        item_type (str):
        item_version (int):
        state (IndexStatusState):
        truncated (bool): The text was cut at the 8 MiB extraction limit.
        error (None | str | Unset):
        updated_at (None | str | Unset):
    """

    attempts: int
    chunks: int
    indexed_version: int
    item_id: str
    item_type: str
    item_version: int
    state: IndexStatusState
    truncated: bool
    error: None | str | Unset = UNSET
    updated_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        chunks = self.chunks

        indexed_version = self.indexed_version

        item_id = self.item_id

        item_type = self.item_type

        item_version = self.item_version

        state = self.state.value

        truncated = self.truncated

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        updated_at: None | str | Unset
        if isinstance(self.updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Attempts": attempts,
                "Chunks": chunks,
                "IndexedVersion": indexed_version,
                "ItemId": item_id,
                "ItemType": item_type,
                "ItemVersion": item_version,
                "State": state,
                "Truncated": truncated,
            }
        )
        if error is not UNSET:
            field_dict["Error"] = error
        if updated_at is not UNSET:
            field_dict["UpdatedAt"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempts = d.pop("Attempts")

        chunks = d.pop("Chunks")

        indexed_version = d.pop("IndexedVersion")

        item_id = d.pop("ItemId")

        item_type = d.pop("ItemType")

        item_version = d.pop("ItemVersion")

        state = IndexStatusState(d.pop("State"))

        truncated = d.pop("Truncated")

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("Error", UNSET))

        def _parse_updated_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        updated_at = _parse_updated_at(d.pop("UpdatedAt", UNSET))

        index_status = cls(
            attempts=attempts,
            chunks=chunks,
            indexed_version=indexed_version,
            item_id=item_id,
            item_type=item_type,
            item_version=item_version,
            state=state,
            truncated=truncated,
            error=error,
            updated_at=updated_at,
        )

        index_status.additional_properties = d
        return index_status

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
