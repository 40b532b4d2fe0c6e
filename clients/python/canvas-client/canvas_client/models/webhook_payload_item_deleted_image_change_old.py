from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.image_mime_type import ImageMimeType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_deleted_image_change_old_position import (
        WebhookPayloadItemDeletedImageChangeOldPosition,
    )
    from ..models.webhook_payload_item_deleted_image_change_old_size import WebhookPayloadItemDeletedImageChangeOldSize


T = TypeVar("T", bound="WebhookPayloadItemDeletedImageChangeOld")


@_attrs_define
class WebhookPayloadItemDeletedImageChangeOld:
    """
    Attributes:
        angle (float | Unset):
        file_name (str | Unset):
        file_size (int | Unset):
        mime_type (ImageMimeType | Unset):
        position (WebhookPayloadItemDeletedImageChangeOldPosition | Unset):
        scale (float | Unset):
        size (WebhookPayloadItemDeletedImageChangeOldSize | Unset):
        tags (list[UUID] | Unset):
    """

    angle: float | Unset = UNSET
    file_name: str | Unset = UNSET
    file_size: int | Unset = UNSET
    mime_type: ImageMimeType | Unset = UNSET
    position: WebhookPayloadItemDeletedImageChangeOldPosition | Unset = UNSET
    scale: float | Unset = UNSET
    size: WebhookPayloadItemDeletedImageChangeOldSize | Unset = UNSET
    tags: list[UUID] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        angle = self.angle

        file_name = self.file_name

        file_size = self.file_size

        mime_type: str | Unset = UNSET
        if not isinstance(self.mime_type, Unset):
            mime_type = self.mime_type.value

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
        from ..models.webhook_payload_item_deleted_image_change_old_position import (
            WebhookPayloadItemDeletedImageChangeOldPosition,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_deleted_image_change_old_size import (
            WebhookPayloadItemDeletedImageChangeOldSize,  # noqa: PLC0415
        )

        d = dict(src_dict)
        angle = d.pop("angle", UNSET)

        file_name = d.pop("fileName", UNSET)

        file_size = d.pop("fileSize", UNSET)

        _mime_type = d.pop("mimeType", UNSET)
        mime_type: ImageMimeType | Unset
        if isinstance(_mime_type, Unset):
            mime_type = UNSET
        else:
            mime_type = ImageMimeType(_mime_type)

        _position = d.pop("position", UNSET)
        position: WebhookPayloadItemDeletedImageChangeOldPosition | Unset
        if isinstance(_position, Unset):
            position = UNSET
        else:
            position = WebhookPayloadItemDeletedImageChangeOldPosition.from_dict(_position)

        scale = d.pop("scale", UNSET)

        _size = d.pop("size", UNSET)
        size: WebhookPayloadItemDeletedImageChangeOldSize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = WebhookPayloadItemDeletedImageChangeOldSize.from_dict(_size)

        _tags = d.pop("tags", UNSET)
        tags: list[UUID] | Unset = UNSET
        if _tags is not UNSET:
            tags = []
            for tags_item_data in _tags:
                tags_item = UUID(tags_item_data)

                tags.append(tags_item)

        webhook_payload_item_deleted_image_change_old = cls(
            angle=angle,
            file_name=file_name,
            file_size=file_size,
            mime_type=mime_type,
            position=position,
            scale=scale,
            size=size,
            tags=tags,
        )

        return webhook_payload_item_deleted_image_change_old
