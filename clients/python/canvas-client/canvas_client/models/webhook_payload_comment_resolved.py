from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_comment_resolved_change import WebhookPayloadCommentResolvedChange


T = TypeVar("T", bound="WebhookPayloadCommentResolved")


@_attrs_define
class WebhookPayloadCommentResolved:
    """`comment.resolved`: A thread was resolved. `new` holds `resolved`, `resolvedAt` and `resolvedByUserId`.

    Attributes:
        changes (list[WebhookPayloadCommentResolvedChange]):
        delivery_id (UUID): The `Webhook-Id` header: the same on every retry of this delivery.
        project_id (UUID):
        webhook_id (UUID): The webhook called; a receiver checks it is the one it registered.
        custom_data (Any | Unset): The definition's `customData`, byte for byte as registered; absent when it has none.
    """

    changes: list[WebhookPayloadCommentResolvedChange]
    delivery_id: UUID
    project_id: UUID
    webhook_id: UUID
    custom_data: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)

        delivery_id = str(self.delivery_id)

        project_id = str(self.project_id)

        webhook_id = str(self.webhook_id)

        custom_data = self.custom_data

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "changes": changes,
                "deliveryId": delivery_id,
                "projectId": project_id,
                "webhookId": webhook_id,
            }
        )
        if custom_data is not UNSET:
            field_dict["customData"] = custom_data

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_comment_resolved_change import WebhookPayloadCommentResolvedChange  # noqa: PLC0415

        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:
            changes_item = WebhookPayloadCommentResolvedChange.from_dict(changes_item_data)

            changes.append(changes_item)

        delivery_id = UUID(d.pop("deliveryId"))

        project_id = UUID(d.pop("projectId"))

        webhook_id = UUID(d.pop("webhookId"))

        custom_data = d.pop("customData", UNSET)

        webhook_payload_comment_resolved = cls(
            changes=changes,
            delivery_id=delivery_id,
            project_id=project_id,
            webhook_id=webhook_id,
            custom_data=custom_data,
        )

        return webhook_payload_comment_resolved
