from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_updated_connector_change import WebhookPayloadItemUpdatedConnectorChange
    from ..models.webhook_payload_item_updated_document_change import WebhookPayloadItemUpdatedDocumentChange
    from ..models.webhook_payload_item_updated_frame_change import WebhookPayloadItemUpdatedFrameChange
    from ..models.webhook_payload_item_updated_image_change import WebhookPayloadItemUpdatedImageChange
    from ..models.webhook_payload_item_updated_label_change import WebhookPayloadItemUpdatedLabelChange
    from ..models.webhook_payload_item_updated_shape_change import WebhookPayloadItemUpdatedShapeChange
    from ..models.webhook_payload_item_updated_sticky_note_change import WebhookPayloadItemUpdatedStickyNoteChange
    from ..models.webhook_payload_item_updated_svg_change import WebhookPayloadItemUpdatedSvgChange
    from ..models.webhook_payload_item_updated_web_change import WebhookPayloadItemUpdatedWebChange


T = TypeVar("T", bound="WebhookPayloadItemUpdated")


@_attrs_define
class WebhookPayloadItemUpdated:
    """`item.updated`: An item changed. `new` holds only the changed properties (null: removed, back to its default), `old`
    their previous values; `parent` is the item's parent after the change (a move changes only it).

        Attributes:
            changes (list[WebhookPayloadItemUpdatedConnectorChange | WebhookPayloadItemUpdatedDocumentChange |
                WebhookPayloadItemUpdatedFrameChange | WebhookPayloadItemUpdatedImageChange |
                WebhookPayloadItemUpdatedLabelChange | WebhookPayloadItemUpdatedShapeChange |
                WebhookPayloadItemUpdatedStickyNoteChange | WebhookPayloadItemUpdatedSvgChange |
                WebhookPayloadItemUpdatedWebChange]):
            delivery_id (UUID): The `Webhook-Id` header: the same on every retry of this delivery.
            project_id (UUID):
            webhook_id (UUID): The webhook called; a receiver checks it is the one it registered.
            custom_data (Any | Unset): The definition's `customData`, byte for byte as registered; absent when it has none.
    """

    changes: list[
        WebhookPayloadItemUpdatedConnectorChange
        | WebhookPayloadItemUpdatedDocumentChange
        | WebhookPayloadItemUpdatedFrameChange
        | WebhookPayloadItemUpdatedImageChange
        | WebhookPayloadItemUpdatedLabelChange
        | WebhookPayloadItemUpdatedShapeChange
        | WebhookPayloadItemUpdatedStickyNoteChange
        | WebhookPayloadItemUpdatedSvgChange
        | WebhookPayloadItemUpdatedWebChange
    ]
    delivery_id: UUID
    project_id: UUID
    webhook_id: UUID
    custom_data: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_payload_item_updated_connector_change import WebhookPayloadItemUpdatedConnectorChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_document_change import WebhookPayloadItemUpdatedDocumentChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_image_change import WebhookPayloadItemUpdatedImageChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_label_change import WebhookPayloadItemUpdatedLabelChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_shape_change import WebhookPayloadItemUpdatedShapeChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_sticky_note_change import WebhookPayloadItemUpdatedStickyNoteChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_svg_change import WebhookPayloadItemUpdatedSvgChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_web_change import WebhookPayloadItemUpdatedWebChange  # noqa: PLC0415

        changes = []
        for changes_item_data in self.changes:
            changes_item: dict[str, Any]
            if isinstance(changes_item_data, WebhookPayloadItemUpdatedLabelChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemUpdatedStickyNoteChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemUpdatedShapeChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemUpdatedConnectorChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemUpdatedWebChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemUpdatedImageChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemUpdatedDocumentChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemUpdatedSvgChange):
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
        from ..models.webhook_payload_item_updated_connector_change import WebhookPayloadItemUpdatedConnectorChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_document_change import WebhookPayloadItemUpdatedDocumentChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_frame_change import WebhookPayloadItemUpdatedFrameChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_image_change import WebhookPayloadItemUpdatedImageChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_label_change import WebhookPayloadItemUpdatedLabelChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_shape_change import WebhookPayloadItemUpdatedShapeChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_sticky_note_change import WebhookPayloadItemUpdatedStickyNoteChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_svg_change import WebhookPayloadItemUpdatedSvgChange  # noqa: PLC0415
        from ..models.webhook_payload_item_updated_web_change import WebhookPayloadItemUpdatedWebChange  # noqa: PLC0415

        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:

            def _parse_changes_item(
                data: object,
            ) -> (
                WebhookPayloadItemUpdatedConnectorChange
                | WebhookPayloadItemUpdatedDocumentChange
                | WebhookPayloadItemUpdatedFrameChange
                | WebhookPayloadItemUpdatedImageChange
                | WebhookPayloadItemUpdatedLabelChange
                | WebhookPayloadItemUpdatedShapeChange
                | WebhookPayloadItemUpdatedStickyNoteChange
                | WebhookPayloadItemUpdatedSvgChange
                | WebhookPayloadItemUpdatedWebChange
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_label_change = WebhookPayloadItemUpdatedLabelChange.from_dict(data)

                    return changes_item_label_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_sticky_note_change = WebhookPayloadItemUpdatedStickyNoteChange.from_dict(data)

                    return changes_item_sticky_note_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_shape_change = WebhookPayloadItemUpdatedShapeChange.from_dict(data)

                    return changes_item_shape_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_connector_change = WebhookPayloadItemUpdatedConnectorChange.from_dict(data)

                    return changes_item_connector_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_web_change = WebhookPayloadItemUpdatedWebChange.from_dict(data)

                    return changes_item_web_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_image_change = WebhookPayloadItemUpdatedImageChange.from_dict(data)

                    return changes_item_image_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_document_change = WebhookPayloadItemUpdatedDocumentChange.from_dict(data)

                    return changes_item_document_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_svg_change = WebhookPayloadItemUpdatedSvgChange.from_dict(data)

                    return changes_item_svg_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                changes_item_frame_change = WebhookPayloadItemUpdatedFrameChange.from_dict(data)

                return changes_item_frame_change

            changes_item = _parse_changes_item(changes_item_data)

            changes.append(changes_item)

        delivery_id = UUID(d.pop("deliveryId"))

        project_id = UUID(d.pop("projectId"))

        webhook_id = UUID(d.pop("webhookId"))

        custom_data = d.pop("customData", UNSET)

        webhook_payload_item_updated = cls(
            changes=changes,
            delivery_id=delivery_id,
            project_id=project_id,
            webhook_id=webhook_id,
            custom_data=custom_data,
        )

        return webhook_payload_item_updated
