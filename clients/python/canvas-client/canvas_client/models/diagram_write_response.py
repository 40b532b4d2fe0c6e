from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.diagram_write_response_nodes import DiagramWriteResponseNodes


T = TypeVar("T", bound="DiagramWriteResponse")


@_attrs_define
class DiagramWriteResponse:
    """What an update or delete of a diagram did.

    Attributes:
        created (list[str]): Items created.
        deleted (list[str]): Items deleted.
        diagram_id (UUID):
        item_ids (list[str]): Every item of the diagram after the write, in creation order.
        nodes (DiagramWriteResponseNodes): Mermaid node or participant id → its shape (ids keep their spelling whatever
            `jsonCasing`
            says).
        updated (list[str]): Items changed.
        version (int): The record's version after the write (a delete: the version deleted).
    """

    created: list[str]
    deleted: list[str]
    diagram_id: UUID
    item_ids: list[str]
    nodes: DiagramWriteResponseNodes
    updated: list[str]
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created = self.created

        deleted = self.deleted

        diagram_id = str(self.diagram_id)

        item_ids = self.item_ids

        nodes = self.nodes.to_dict()

        updated = self.updated

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Created": created,
                "Deleted": deleted,
                "DiagramId": diagram_id,
                "ItemIds": item_ids,
                "Nodes": nodes,
                "Updated": updated,
                "Version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diagram_write_response_nodes import DiagramWriteResponseNodes  # noqa: PLC0415

        d = dict(src_dict)
        created = cast(list[str], d.pop("Created"))

        deleted = cast(list[str], d.pop("Deleted"))

        diagram_id = UUID(d.pop("DiagramId"))

        item_ids = cast(list[str], d.pop("ItemIds"))

        nodes = DiagramWriteResponseNodes.from_dict(d.pop("Nodes"))

        updated = cast(list[str], d.pop("Updated"))

        version = d.pop("Version")

        diagram_write_response = cls(
            created=created,
            deleted=deleted,
            diagram_id=diagram_id,
            item_ids=item_ids,
            nodes=nodes,
            updated=updated,
            version=version,
        )

        diagram_write_response.additional_properties = d
        return diagram_write_response

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
