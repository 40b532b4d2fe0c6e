from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_created_connector_change import WebhookPayloadItemCreatedConnectorChange
    from ..models.webhook_payload_item_created_document_change import WebhookPayloadItemCreatedDocumentChange
    from ..models.webhook_payload_item_created_frame_change import WebhookPayloadItemCreatedFrameChange
    from ..models.webhook_payload_item_created_image_change import WebhookPayloadItemCreatedImageChange
    from ..models.webhook_payload_item_created_label_change import WebhookPayloadItemCreatedLabelChange
    from ..models.webhook_payload_item_created_shape_change import WebhookPayloadItemCreatedShapeChange
    from ..models.webhook_payload_item_created_sticky_note_change import WebhookPayloadItemCreatedStickyNoteChange
    from ..models.webhook_payload_item_created_svg_change import WebhookPayloadItemCreatedSvgChange
    from ..models.webhook_payload_item_created_web_change import WebhookPayloadItemCreatedWebChange


T = TypeVar("T", bound="WebhookPayloadItemCreated")


@_attrs_define
class WebhookPayloadItemCreated:
    """`item.created`: An item was created (by any route: one create, a bulk create, a diagram, an archive import). `new`
    holds every stored property; `parent` is where it was put.

        Attributes:
            changes (list[WebhookPayloadItemCreatedConnectorChange | WebhookPayloadItemCreatedDocumentChange |
                WebhookPayloadItemCreatedFrameChange | WebhookPayloadItemCreatedImageChange |
                WebhookPayloadItemCreatedLabelChange | WebhookPayloadItemCreatedShapeChange |
                WebhookPayloadItemCreatedStickyNoteChange | WebhookPayloadItemCreatedSvgChange |
                WebhookPayloadItemCreatedWebChange]):
            delivery_id (UUID): The `Webhook-Id` header: the same on every retry of this delivery.
            project_id (UUID):
            webhook_id (UUID): The webhook called; a receiver checks it is the one it registered.
            custom_data (Any | Unset): The definition's `customData`, byte for byte as registered; absent when it has none.
    """

    changes: list[
        WebhookPayloadItemCreatedConnectorChange
        | WebhookPayloadItemCreatedDocumentChange
        | WebhookPayloadItemCreatedFrameChange
        | WebhookPayloadItemCreatedImageChange
        | WebhookPayloadItemCreatedLabelChange
        | WebhookPayloadItemCreatedShapeChange
        | WebhookPayloadItemCreatedStickyNoteChange
        | WebhookPayloadItemCreatedSvgChange
        | WebhookPayloadItemCreatedWebChange
    ]
    delivery_id: UUID
    project_id: UUID
    webhook_id: UUID
    custom_data: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_payload_item_created_connector_change import WebhookPayloadItemCreatedConnectorChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_document_change import WebhookPayloadItemCreatedDocumentChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_image_change import WebhookPayloadItemCreatedImageChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_label_change import WebhookPayloadItemCreatedLabelChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_shape_change import WebhookPayloadItemCreatedShapeChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_sticky_note_change import WebhookPayloadItemCreatedStickyNoteChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_svg_change import WebhookPayloadItemCreatedSvgChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_web_change import WebhookPayloadItemCreatedWebChange  # noqa: PLC0415

        changes = []
        for changes_item_data in self.changes:
            changes_item: dict[str, Any]
            if isinstance(changes_item_data, WebhookPayloadItemCreatedLabelChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemCreatedStickyNoteChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemCreatedShapeChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemCreatedConnectorChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemCreatedWebChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemCreatedImageChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemCreatedDocumentChange):
                changes_item = changes_item_data.to_dict()
            elif isinstance(changes_item_data, WebhookPayloadItemCreatedSvgChange):
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
        from ..models.webhook_payload_item_created_connector_change import WebhookPayloadItemCreatedConnectorChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_document_change import WebhookPayloadItemCreatedDocumentChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_frame_change import WebhookPayloadItemCreatedFrameChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_image_change import WebhookPayloadItemCreatedImageChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_label_change import WebhookPayloadItemCreatedLabelChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_shape_change import WebhookPayloadItemCreatedShapeChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_sticky_note_change import WebhookPayloadItemCreatedStickyNoteChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_svg_change import WebhookPayloadItemCreatedSvgChange  # noqa: PLC0415
        from ..models.webhook_payload_item_created_web_change import WebhookPayloadItemCreatedWebChange  # noqa: PLC0415

        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:

            def _parse_changes_item(
                data: object,
            ) -> (
                WebhookPayloadItemCreatedConnectorChange
                | WebhookPayloadItemCreatedDocumentChange
                | WebhookPayloadItemCreatedFrameChange
                | WebhookPayloadItemCreatedImageChange
                | WebhookPayloadItemCreatedLabelChange
                | WebhookPayloadItemCreatedShapeChange
                | WebhookPayloadItemCreatedStickyNoteChange
                | WebhookPayloadItemCreatedSvgChange
                | WebhookPayloadItemCreatedWebChange
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_label_change = WebhookPayloadItemCreatedLabelChange.from_dict(data)

                    return changes_item_label_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_sticky_note_change = WebhookPayloadItemCreatedStickyNoteChange.from_dict(data)

                    return changes_item_sticky_note_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_shape_change = WebhookPayloadItemCreatedShapeChange.from_dict(data)

                    return changes_item_shape_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_connector_change = WebhookPayloadItemCreatedConnectorChange.from_dict(data)

                    return changes_item_connector_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_web_change = WebhookPayloadItemCreatedWebChange.from_dict(data)

                    return changes_item_web_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_image_change = WebhookPayloadItemCreatedImageChange.from_dict(data)

                    return changes_item_image_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_document_change = WebhookPayloadItemCreatedDocumentChange.from_dict(data)

                    return changes_item_document_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    changes_item_svg_change = WebhookPayloadItemCreatedSvgChange.from_dict(data)

                    return changes_item_svg_change
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                changes_item_frame_change = WebhookPayloadItemCreatedFrameChange.from_dict(data)

                return changes_item_frame_change

            changes_item = _parse_changes_item(changes_item_data)

            changes.append(changes_item)

        delivery_id = UUID(d.pop("deliveryId"))

        project_id = UUID(d.pop("projectId"))

        webhook_id = UUID(d.pop("webhookId"))

        custom_data = d.pop("customData", UNSET)

        webhook_payload_item_created = cls(
            changes=changes,
            delivery_id=delivery_id,
            project_id=project_id,
            webhook_id=webhook_id,
            custom_data=custom_data,
        )

        return webhook_payload_item_created
