from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Tag")


@_attrs_define
class Tag:
    """A tag.

    Attributes:
        color (str):
        created_at (datetime.datetime):
        name (str):
        project_id (UUID):
        tag_id (UUID):
        updated_at (datetime.datetime):
        version (int): Bumped by every change.
    """

    color: str
    created_at: datetime.datetime
    name: str
    project_id: UUID
    tag_id: UUID
    updated_at: datetime.datetime
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        color = self.color

        created_at = self.created_at.isoformat()

        name = self.name

        project_id = str(self.project_id)

        tag_id = str(self.tag_id)

        updated_at = self.updated_at.isoformat()

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Color": color,
                "CreatedAt": created_at,
                "Name": name,
                "ProjectId": project_id,
                "TagId": tag_id,
                "UpdatedAt": updated_at,
                "Version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        color = d.pop("Color")

        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        name = d.pop("Name")

        project_id = UUID(d.pop("ProjectId"))

        tag_id = UUID(d.pop("TagId"))

        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))

        version = d.pop("Version")

        tag = cls(
            color=color,
            created_at=created_at,
            name=name,
            project_id=project_id,
            tag_id=tag_id,
            updated_at=updated_at,
            version=version,
        )

        tag.additional_properties = d
        return tag

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
