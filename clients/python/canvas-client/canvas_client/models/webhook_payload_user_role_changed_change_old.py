from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.project_role import ProjectRole

T = TypeVar("T", bound="WebhookPayloadUserRoleChangedChangeOld")


@_attrs_define
class WebhookPayloadUserRoleChangedChangeOld:
    """
    Attributes:
        role (ProjectRole):
    """

    role: ProjectRole

    def to_dict(self) -> dict[str, Any]:
        role = self.role.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        role = ProjectRole(d.pop("role"))

        webhook_payload_user_role_changed_change_old = cls(
            role=role,
        )

        return webhook_payload_user_role_changed_change_old
