from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.diagram_point import DiagramPoint


T = TypeVar("T", bound="DiagramListed")


@_attrs_define
class DiagramListed:
    """A diagram record as a listing shows it: without its element map and its Mermaid.

    Attributes:
        created_at (datetime.datetime):
        diagram_id (UUID):
        format_ (str): `mermaid`.
        kind (str): `flowchart`, `mindmap`, `sequence`, `class`, `er` or `state`.
        position (DiagramPoint): A point of the map.
        project_id (UUID):
        source (str): The source as last written.
        updated_at (datetime.datetime):
        version (int): Bumped by every update; also the record's `ETag`.
    """

    created_at: datetime.datetime
    diagram_id: UUID
    format_: str
    kind: str
    position: DiagramPoint
    project_id: UUID
    source: str
    updated_at: datetime.datetime
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        diagram_id = str(self.diagram_id)

        format_ = self.format_

        kind = self.kind

        position = self.position.to_dict()

        project_id = str(self.project_id)

        source = self.source

        updated_at = self.updated_at.isoformat()

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "CreatedAt": created_at,
                "DiagramId": diagram_id,
                "Format": format_,
                "Kind": kind,
                "Position": position,
                "ProjectId": project_id,
                "Source": source,
                "UpdatedAt": updated_at,
                "Version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diagram_point import DiagramPoint  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        diagram_id = UUID(d.pop("DiagramId"))

        format_ = d.pop("Format")

        kind = d.pop("Kind")

        position = DiagramPoint.from_dict(d.pop("Position"))

        project_id = UUID(d.pop("ProjectId"))

        source = d.pop("Source")

        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))

        version = d.pop("Version")

        diagram_listed = cls(
            created_at=created_at,
            diagram_id=diagram_id,
            format_=format_,
            kind=kind,
            position=position,
            project_id=project_id,
            source=source,
            updated_at=updated_at,
            version=version,
        )

        diagram_listed.additional_properties = d
        return diagram_listed

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
