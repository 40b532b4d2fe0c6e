from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.diagram_element import DiagramElement
    from ..models.diagram_point import DiagramPoint


T = TypeVar("T", bound="DiagramRecord")


@_attrs_define
class DiagramRecord:
    """A diagram record.

    Attributes:
        created_at (datetime.datetime):
        diagram_id (UUID):
        elements (list[DiagramElement]): The items the diagram still has, in creation order (those people deleted are
            left out).
        format_ (str): `mermaid`.
        kind (str): `flowchart`, `mindmap`, `sequence`, …
        position (DiagramPoint): A point of the map.
        project_id (UUID):
        source (str): The source as last written.
        updated_at (datetime.datetime):
        version (int): Bumped by every update; also the `ETag`.
        mermaid (None | str | Unset): With `?format=mermaid`: the diagram as Mermaid. While the map shows exactly what
            the source
            last drew, the source itself (so sending it back changes nothing); once people changed its
            items, the diagram written from the map in its own kind (people's text changes, deleted
            items gone, connectors people drew between its items).
    """

    created_at: datetime.datetime
    diagram_id: UUID
    elements: list[DiagramElement]
    format_: str
    kind: str
    position: DiagramPoint
    project_id: UUID
    source: str
    updated_at: datetime.datetime
    version: int
    mermaid: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        diagram_id = str(self.diagram_id)

        elements = []
        for elements_item_data in self.elements:
            elements_item = elements_item_data.to_dict()
            elements.append(elements_item)

        format_ = self.format_

        kind = self.kind

        position = self.position.to_dict()

        project_id = str(self.project_id)

        source = self.source

        updated_at = self.updated_at.isoformat()

        version = self.version

        mermaid: None | str | Unset
        if isinstance(self.mermaid, Unset):
            mermaid = UNSET
        else:
            mermaid = self.mermaid

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "CreatedAt": created_at,
                "DiagramId": diagram_id,
                "Elements": elements,
                "Format": format_,
                "Kind": kind,
                "Position": position,
                "ProjectId": project_id,
                "Source": source,
                "UpdatedAt": updated_at,
                "Version": version,
            }
        )
        if mermaid is not UNSET:
            field_dict["Mermaid"] = mermaid

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diagram_element import DiagramElement  # noqa: PLC0415
        from ..models.diagram_point import DiagramPoint  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        diagram_id = UUID(d.pop("DiagramId"))

        elements = []
        _elements = d.pop("Elements")
        for elements_item_data in _elements:
            elements_item = DiagramElement.from_dict(elements_item_data)

            elements.append(elements_item)

        format_ = d.pop("Format")

        kind = d.pop("Kind")

        position = DiagramPoint.from_dict(d.pop("Position"))

        project_id = UUID(d.pop("ProjectId"))

        source = d.pop("Source")

        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))

        version = d.pop("Version")

        def _parse_mermaid(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mermaid = _parse_mermaid(d.pop("Mermaid", UNSET))

        diagram_record = cls(
            created_at=created_at,
            diagram_id=diagram_id,
            elements=elements,
            format_=format_,
            kind=kind,
            position=position,
            project_id=project_id,
            source=source,
            updated_at=updated_at,
            version=version,
            mermaid=mermaid,
        )

        diagram_record.additional_properties = d
        return diagram_record

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
