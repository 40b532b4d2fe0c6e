from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_deleted_connector_change import WebhookPayloadItemDeletedConnectorChange
    from ..models.webhook_payload_item_deleted_document_change import WebhookPayloadItemDeletedDocumentChange
    from ..models.webhook_payload_item_deleted_frame_change import WebhookPayloadItemDeletedFrameChange
    from ..models.webhook_payload_item_deleted_image_change import WebhookPayloadItemDeletedImageChange
    from ..models.webhook_payload_item_deleted_label_change import WebhookPayloadItemDeletedLabelChange
    from ..models.webhook_payload_item_deleted_shape_change import WebhookPayloadItemDeletedShapeChange
    from ..models.webhook_payload_item_deleted_sticky_note_change import WebhookPayloadItemDeletedStickyNoteChange
    from ..models.webhook_payload_item_deleted_svg_change import WebhookPayloadItemDeletedSvgChange
    from ..models.webhook_payload_item_deleted_web_change import WebhookPayloadItemDeletedWebChange


T = TypeVar("T", bound="WebhookPayloadItemDeleted")


@_attrs_define
class WebhookPayloadItemDeleted:
    """`item.deleted`: An item was deleted; `old` holds its properties. Deleting a container sends one per item it held,
    deepest first.

        Attributes:
            changes (list[WebhookPayloadItemDeletedConnectorChange | WebhookPayloadItemDeletedDocumentChange |
                WebhookPayloadItemDeletedFrameChange | WebhookPayloadItemDeletedImageChange |
                WebhookPayloadItemDeletedLabelChange | WebhookPayloadItemDeletedShapeChange |
                WebhookPayloadItemDeletedStickyNoteChange | WebhookPayloadItemDeletedSvgChange |
                WebhookPayloadItemDeletedWebChange]):
            delivery_id (UUID): The `Webhook-Id` header: the same on every retry of this delivery.
            project_id (UUID):
            webhook_id (UUID): The webhook called; a receiver checks it is the one it registered.
            custom_data (Any | Unset): The definition's `customData`, byte for byte as registered; absent when it has none.
    """

    changes: list[
        WebhookPayloadItemDeletedConnectorChange
        | WebhookPayloadItemDeletedDocumentChange
        | WebhookPayloadItemDeletedFrameChange
        | WebhookPayloadItemDeletedImageChange
        | WebhookPayloadItemDeletedLabelChange
        | WebhookPayloadItemDeletedShapeChange
        | WebhookPayloadItemDeletedStickyNoteChange
        | WebhookPayloadItemDeletedSvgChange
        | WebhookPayloadItemDeletedWebChange
    ]
    delivery_id: UUID
    project_id: UUID
    webhook_id: UUID
    custom_data: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_payload_item_deleted_connector_change import WebhookPayloadItemDeletedConnectorChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_document_change import WebhookPayloadItemDeletedDocumentChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_image_change import WebhookPayloadItemDeletedImageChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_label_change import WebhookPayloadItemDeletedLabelChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_shape_change import WebhookPayloadItemDeletedShapeChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_sticky_note_change import WebhookPayloadItemDeletedStickyNoteChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_svg_change import WebhookPayloadItemDeletedSvgChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_web_change import WebhookPayloadItemDeletedWebChange  # noqa: PLC0415

        changes = []
        for changes_item_data in self.changes:
            changes_item: dict[str, Any]
            if isinstance(changes_item_data, WebhookPayloadItemDeletedLabelChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemDeletedStickyNoteChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemDeletedShapeChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemDeletedConnectorChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemDeletedWebChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemDeletedImageChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemDeletedDocumentChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemDeletedSvgChange):
                changes_item = changes_item_data.to_dict()
            else:
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
        from ..models.webhook_payload_item_deleted_connector_change import WebhookPayloadItemDeletedConnectorChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_document_change import WebhookPayloadItemDeletedDocumentChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_frame_change import WebhookPayloadItemDeletedFrameChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_image_change import WebhookPayloadItemDeletedImageChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_label_change import WebhookPayloadItemDeletedLabelChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_shape_change import WebhookPayloadItemDeletedShapeChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_sticky_note_change import WebhookPayloadItemDeletedStickyNoteChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_svg_change import WebhookPayloadItemDeletedSvgChange  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_web_change import WebhookPayloadItemDeletedWebChange  # noqa: PLC0415

        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:

            def _parse_changes_item(
                data: object,
            ) -> (
                WebhookPayloadItemDeletedConnectorChange
                | WebhookPayloadItemDeletedDocumentChange
                | WebhookPayloadItemDeletedFrameChange
                | WebhookPayloadItemDeletedImageChange
                | WebhookPayloadItemDeletedLabelChange
                | WebhookPayloadItemDeletedShapeChange
                | WebhookPayloadItemDeletedStickyNoteChange
                | WebhookPayloadItemDeletedSvgChange
                | WebhookPayloadItemDeletedWebChange
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_label_change = WebhookPayloadItemDeletedLabelChange.from_dict(data)

                    return changes_item_label_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_sticky_note_change = WebhookPayloadItemDeletedStickyNoteChange.from_dict(data)

                    return changes_item_sticky_note_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_shape_change = WebhookPayloadItemDeletedShapeChange.from_dict(data)

                    return changes_item_shape_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_connector_change = WebhookPayloadItemDeletedConnectorChange.from_dict(data)

                    return changes_item_connector_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_web_change = WebhookPayloadItemDeletedWebChange.from_dict(data)

                    return changes_item_web_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_image_change = WebhookPayloadItemDeletedImageChange.from_dict(data)

                    return changes_item_image_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_document_change = WebhookPayloadItemDeletedDocumentChange.from_dict(data)

                    return changes_item_document_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_svg_change = WebhookPayloadItemDeletedSvgChange.from_dict(data)

                    return changes_item_svg_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                changes_item_frame_change = WebhookPayloadItemDeletedFrameChange.from_dict(data)

                return changes_item_frame_change

            changes_item = _parse_changes_item(changes_item_data)

            changes.append(changes_item)

        delivery_id = UUID(d.pop("deliveryId"))

        project_id = UUID(d.pop("projectId"))

        webhook_id = UUID(d.pop("webhookId"))

        custom_data = d.pop("customData", UNSET)

        webhook_payload_item_deleted = cls(
            changes=changes,
            delivery_id=delivery_id,
            project_id=project_id,
            webhook_id=webhook_id,
            custom_data=custom_data,
        )

        return webhook_payload_item_deleted
