from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_deleted_svg_change_old_position import (
        WebhookPayloadItemDeletedSvgChangeOldPosition,
    )
    from ..models.webhook_payload_item_deleted_svg_change_old_size import WebhookPayloadItemDeletedSvgChangeOldSize


T = TypeVar("T", bound="WebhookPayloadItemDeletedSvgChangeOld")


@_attrs_define
class WebhookPayloadItemDeletedSvgChangeOld:
    """
    Attributes:
        angle (float | Unset):
        file_name (str | Unset):
        file_size (int | Unset):
        mime_type (str | Unset):
        position (WebhookPayloadItemDeletedSvgChangeOldPosition | Unset):
        scale (float | Unset):
        size (WebhookPayloadItemDeletedSvgChangeOldSize | Unset):
        tags (list[UUID] | Unset):
    """

    angle: float | Unset = UNSET
    file_name: str | Unset = UNSET
    file_size: int | Unset = UNSET
    mime_type: str | Unset = UNSET
    position: WebhookPayloadItemDeletedSvgChangeOldPosition | Unset = UNSET
    scale: float | Unset = UNSET
    size: WebhookPayloadItemDeletedSvgChangeOldSize | Unset = UNSET
    tags: list[UUID] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        angle = self.angle

        file_name = self.file_name

        file_size = self.file_size

        mime_type = self.mime_type

        position: dict[str, Any] | Unset = UNSET
        if not isinstance(self.position, Unset):
            position = self.position.to_dict()

        scale = self.scale

        size: dict[str, Any] | Unset = UNSET
        if not isinstance(self.size, Unset):
            size = self.size.to_dict()

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = []
            for tags_item_data in self.tags:
                tags_item = str(tags_item_data)
                tags.append(tags_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if angle is not UNSET:
            field_dict["angle"] = angle
        if file_name is not UNSET:
            field_dict["fileName"] = file_name
        if file_size is not UNSET:
            field_dict["fileSize"] = file_size
        if mime_type is not UNSET:
            field_dict["mimeType"] = mime_type
        if position is not UNSET:
            field_dict["position"] = position
        if scale is not UNSET:
            field_dict["scale"] = scale
        if size is not UNSET:
            field_dict["size"] = size
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_item_deleted_svg_change_old_position import (
            WebhookPayloadItemDeletedSvgChangeOldPosition,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_deleted_svg_change_old_size import WebhookPayloadItemDeletedSvgChangeOldSize  # noqa: PLC0415

        d = dict(src_dict)
        angle = d.pop("angle", UNSET)

        file_name = d.pop("fileName", UNSET)

        file_size = d.pop("fileSize", UNSET)

        mime_type = d.pop("mimeType", UNSET)

        _position = d.pop("position", UNSET)
        position: WebhookPayloadItemDeletedSvgChangeOldPosition | Unset
        if isinstance(_position, Unset):
            position = UNSET
        else:
            position = WebhookPayloadItemDeletedSvgChangeOldPosition.from_dict(_position)

        scale = d.pop("scale", UNSET)

        _size = d.pop("size", UNSET)
        size: WebhookPayloadItemDeletedSvgChangeOldSize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = WebhookPayloadItemDeletedSvgChangeOldSize.from_dict(_size)

        _tags = d.pop("tags", UNSET)
        tags: list[UUID] | Unset = UNSET
        if _tags is not UNSET:
            tags = []
            for tags_item_data in _tags:
                tags_item = UUID(tags_item_data)

                tags.append(tags_item)

        webhook_payload_item_deleted_svg_change_old = cls(
            angle=angle,
            file_name=file_name,
            file_size=file_size,
            mime_type=mime_type,
            position=position,
            scale=scale,
            size=size,
            tags=tags,
        )

        return webhook_payload_item_deleted_svg_change_old
