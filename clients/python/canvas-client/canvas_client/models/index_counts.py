from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="IndexCounts")


@_attrs_define
class IndexCounts:
    """How many of the selected items (the project, or `itemIds`; every page, not only this one) are
    in each state: the progress of a bulk import. `Queued + Indexed + Failed = Total`.

        Attributes:
            failed (int):
            indexed (int): Indexed at the item's current version.
            indexing (int): The part of `Queued` a worker holds now.
            queued (int): Waiting or being indexed (`pending` and `indexing`).
            total (int):
    """

    failed: int
    indexed: int
    indexing: int
    queued: int
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        failed = self.failed

        indexed = self.indexed

        indexing = self.indexing

        queued = self.queued

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Failed": failed,
                "Indexed": indexed,
                "Indexing": indexing,
                "Queued": queued,
                "Total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        failed = d.pop("Failed")

        indexed = d.pop("Indexed")

        indexing = d.pop("Indexing")

        queued = d.pop("Queued")

        total = d.pop("Total")

        index_counts = cls(
            failed=failed,
            indexed=indexed,
            indexing=indexing,
            queued=queued,
            total=total,
        )

        index_counts.additional_properties = d
        return index_counts

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
