from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.project_role import ProjectRole

T = TypeVar("T", bound="ProjectView")


@_attrs_define
class ProjectView:
    """`GET /api/v2/projects/{projectId}`: the project and the caller's role in it.

    Attributes:
        created_at (datetime.datetime): RFC 3339, UTC.
        name (str):
        project_id (UUID):
        role (ProjectRole):
    """

    created_at: datetime.datetime
    name: str
    project_id: UUID
    role: ProjectRole
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        name = self.name

        project_id = str(self.project_id)

        role = self.role.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "CreatedAt": created_at,
                "Name": name,
                "ProjectId": project_id,
                "Role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        name = d.pop("Name")

        project_id = UUID(d.pop("ProjectId"))

        role = ProjectRole(d.pop("Role"))

        project_view = cls(
            created_at=created_at,
            name=name,
            project_id=project_id,
            role=role,
        )

        project_view.additional_properties = d
        return project_view

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
