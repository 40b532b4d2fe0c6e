from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DiagramElement")


@_attrs_define
class DiagramElement:
    """Which item draws which part of a Mermaid element.

    Attributes:
        element (str): `node:A`, `subgraph:S`, `edge:A->B#0` (the first edge from A to B), `participant:A`, …
        item_id (UUID):
        item_type (str):
        part (str): `shape`, `label`, `title`, `connector` or `note`.
    """

    element: str
    item_id: UUID
    item_type: str
    part: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        element = self.element

        item_id = str(self.item_id)

        item_type = self.item_type

        part = self.part

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Element": element,
                "ItemId": item_id,
                "ItemType": item_type,
                "Part": part,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        element = d.pop("Element")

        item_id = UUID(d.pop("ItemId"))

        item_type = d.pop("ItemType")

        part = d.pop("Part")

        diagram_element = cls(
            element=element,
            item_id=item_id,
            item_type=item_type,
            part=part,
        )

        diagram_element.additional_properties = d
        return diagram_element

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
