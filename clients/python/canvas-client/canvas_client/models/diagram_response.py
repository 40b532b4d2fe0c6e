from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.diagram_response_nodes import DiagramResponseNodes


T = TypeVar("T", bound="DiagramResponse")


@_attrs_define
class DiagramResponse:
    """The answer of a diagram create.

    Attributes:
        diagram_id (UUID): The diagram's record: read it, update it in place or delete it at `.../diagrams/{diagramId}`.
        item_ids (list[UUID]): Every item created (shapes, labels, connectors, containers), in creation order.
        nodes (DiagramResponseNodes): Mermaid node or participant id → the id of its shape (the ids keep their spelling
            whatever `jsonCasing` says).
    """

    diagram_id: UUID
    item_ids: list[UUID]
    nodes: DiagramResponseNodes
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        diagram_id = str(self.diagram_id)

        item_ids = []
        for item_ids_item_data in self.item_ids:
            item_ids_item = str(item_ids_item_data)
            item_ids.append(item_ids_item)

        nodes = self.nodes.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "DiagramId": diagram_id,
                "ItemIds": item_ids,
                "Nodes": nodes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diagram_response_nodes import DiagramResponseNodes  # noqa: PLC0415

        d = dict(src_dict)
        diagram_id = UUID(d.pop("DiagramId"))

        item_ids = []
        _item_ids = d.pop("ItemIds")
        for item_ids_item_data in _item_ids:
            item_ids_item = UUID(item_ids_item_data)

            item_ids.append(item_ids_item)

        nodes = DiagramResponseNodes.from_dict(d.pop("Nodes"))

        diagram_response = cls(
            diagram_id=diagram_id,
            item_ids=item_ids,
            nodes=nodes,
        )

        diagram_response.additional_properties = d
        return diagram_response

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
