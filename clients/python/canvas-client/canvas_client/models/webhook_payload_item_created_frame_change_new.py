from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_created_frame_change_new_position import (
        WebhookPayloadItemCreatedFrameChangeNewPosition,
    )
    from ..models.webhook_payload_item_created_frame_change_new_size import WebhookPayloadItemCreatedFrameChangeNewSize


T = TypeVar("T", bound="WebhookPayloadItemCreatedFrameChangeNew")


@_attrs_define
class WebhookPayloadItemCreatedFrameChangeNew:
    """
    Attributes:
        fill_color (str | Unset):
        position (WebhookPayloadItemCreatedFrameChangeNewPosition | Unset):
        size (WebhookPayloadItemCreatedFrameChangeNewSize | Unset):
        tags (list[UUID] | Unset):
        title (str | Unset):
    """

    fill_color: str | Unset = UNSET
    position: WebhookPayloadItemCreatedFrameChangeNewPosition | Unset = UNSET
    size: WebhookPayloadItemCreatedFrameChangeNewSize | Unset = UNSET
    tags: list[UUID] | Unset = UNSET
    title: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        fill_color = self.fill_color

        position: dict[str, Any] | Unset = UNSET
        if not isinstance(self.position, Unset):
            position = self.position.to_dict()

        size: dict[str, Any] | Unset = UNSET
        if not isinstance(self.size, Unset):
            size = self.size.to_dict()

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = []
            for tags_item_data in self.tags:
                tags_item = str(tags_item_data)
                tags.append(tags_item)

        title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if fill_color is not UNSET:
            field_dict["fillColor"] = fill_color
        if position is not UNSET:
            field_dict["position"] = position
        if size is not UNSET:
            field_dict["size"] = size
        if tags is not UNSET:
            field_dict["tags"] = tags
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_item_created_frame_change_new_position import (
            WebhookPayloadItemCreatedFrameChangeNewPosition,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_created_frame_change_new_size import (
            WebhookPayloadItemCreatedFrameChangeNewSize,  # noqa: PLC0415
        )

        d = dict(src_dict)
        fill_color = d.pop("fillColor", UNSET)

        _position = d.pop("position", UNSET)
        position: WebhookPayloadItemCreatedFrameChangeNewPosition | Unset
        if isinstance(_position, Unset):
            position = UNSET
        else:
            position = WebhookPayloadItemCreatedFrameChangeNewPosition.from_dict(_position)

        _size = d.pop("size", UNSET)
        size: WebhookPayloadItemCreatedFrameChangeNewSize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = WebhookPayloadItemCreatedFrameChangeNewSize.from_dict(_size)

        _tags = d.pop("tags", UNSET)
        tags: list[UUID] | Unset = UNSET
        if _tags is not UNSET:
            tags = []
            for tags_item_data in _tags:
                tags_item = UUID(tags_item_data)

                tags.append(tags_item)

        title = d.pop("title", UNSET)

        webhook_payload_item_created_frame_change_new = cls(
            fill_color=fill_color,
            position=position,
            size=size,
            tags=tags,
            title=title,
        )

        return webhook_payload_item_created_frame_change_new
