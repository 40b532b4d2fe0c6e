from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_deleted_web_change_old_position import (
        WebhookPayloadItemDeletedWebChangeOldPosition,
    )
    from ..models.webhook_payload_item_deleted_web_change_old_size import WebhookPayloadItemDeletedWebChangeOldSize


T = TypeVar("T", bound="WebhookPayloadItemDeletedWebChangeOld")


@_attrs_define
class WebhookPayloadItemDeletedWebChangeOld:
    """
    Attributes:
        angle (float | Unset):
        position (WebhookPayloadItemDeletedWebChangeOldPosition | Unset):
        scale (float | Unset):
        size (WebhookPayloadItemDeletedWebChangeOldSize | Unset):
        tags (list[UUID] | Unset):
        url (str | Unset):
    """

    angle: float | Unset = UNSET
    position: WebhookPayloadItemDeletedWebChangeOldPosition | Unset = UNSET
    scale: float | Unset = UNSET
    size: WebhookPayloadItemDeletedWebChangeOldSize | Unset = UNSET
    tags: list[UUID] | Unset = UNSET
    url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        angle = self.angle

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

        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if angle is not UNSET:
            field_dict["angle"] = angle
        if position is not UNSET:
            field_dict["position"] = position
        if scale is not UNSET:
            field_dict["scale"] = scale
        if size is not UNSET:
            field_dict["size"] = size
        if tags is not UNSET:
            field_dict["tags"] = tags
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_item_deleted_web_change_old_position import (
            WebhookPayloadItemDeletedWebChangeOldPosition,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_deleted_web_change_old_size import WebhookPayloadItemDeletedWebChangeOldSize  # noqa: PLC0415

        d = dict(src_dict)
        angle = d.pop("angle", UNSET)

        _position = d.pop("position", UNSET)
        position: WebhookPayloadItemDeletedWebChangeOldPosition | Unset
        if isinstance(_position, Unset):
            position = UNSET
        else:
            position = WebhookPayloadItemDeletedWebChangeOldPosition.from_dict(_position)

        scale = d.pop("scale", UNSET)

        _size = d.pop("size", UNSET)
        size: WebhookPayloadItemDeletedWebChangeOldSize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = WebhookPayloadItemDeletedWebChangeOldSize.from_dict(_size)

        _tags = d.pop("tags", UNSET)
        tags: list[UUID] | Unset = UNSET
        if _tags is not UNSET:
            tags = []
            for tags_item_data in _tags:
                tags_item = UUID(tags_item_data)

                tags.append(tags_item)

        url = d.pop("url", UNSET)

        webhook_payload_item_deleted_web_change_old = cls(
            angle=angle,
            position=position,
            scale=scale,
            size=size,
            tags=tags,
            url=url,
        )

        return webhook_payload_item_deleted_web_change_old
