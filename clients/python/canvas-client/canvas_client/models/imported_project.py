from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ImportedProject")


@_attrs_define
class ImportedProject:
    """The new project an archive made.

    Attributes:
        diagrams (int): Diagram records created.
        files (int): Distinct files stored.
        items (int): Items created, each with a new id.
        members_added (list[str]): Logins of the archive's members who are members of the new project (with their role).
        members_skipped (list[str]): The archive's members no user here has the login of (their login, or their name
            when
            they had none): not added.
        name (str):
        project_id (UUID):
        webhooks (int): Webhook definitions created, each inactive (`copiedFromOtherProject`) until saved again.
    """

    diagrams: int
    files: int
    items: int
    members_added: list[str]
    members_skipped: list[str]
    name: str
    project_id: UUID
    webhooks: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        diagrams = self.diagrams

        files = self.files

        items = self.items

        members_added = self.members_added

        members_skipped = self.members_skipped

        name = self.name

        project_id = str(self.project_id)

        webhooks = self.webhooks

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Diagrams": diagrams,
                "Files": files,
                "Items": items,
                "MembersAdded": members_added,
                "MembersSkipped": members_skipped,
                "Name": name,
                "ProjectId": project_id,
                "Webhooks": webhooks,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        diagrams = d.pop("Diagrams")

        files = d.pop("Files")

        items = d.pop("Items")

        members_added = cast(list[str], d.pop("MembersAdded"))

        members_skipped = cast(list[str], d.pop("MembersSkipped"))

        name = d.pop("Name")

        project_id = UUID(d.pop("ProjectId"))

        webhooks = d.pop("Webhooks")

        imported_project = cls(
            diagrams=diagrams,
            files=files,
            items=items,
            members_added=members_added,
            members_skipped=members_skipped,
            name=name,
            project_id=project_id,
            webhooks=webhooks,
        )

        imported_project.additional_properties = d
        return imported_project

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
