from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.horizontal_text_alignment import HorizontalTextAlignment
from ..models.vertical_text_alignment import VerticalTextAlignment
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_created_sticky_note_change_new_position import (
        WebhookPayloadItemCreatedStickyNoteChangeNewPosition,
    )
    from ..models.webhook_payload_item_created_sticky_note_change_new_size import (
        WebhookPayloadItemCreatedStickyNoteChangeNewSize,
    )


T = TypeVar("T", bound="WebhookPayloadItemCreatedStickyNoteChangeNew")


@_attrs_define
class WebhookPayloadItemCreatedStickyNoteChangeNew:
    """
    Attributes:
        angle (float | Unset):
        background_color (str | Unset):
        font_family (str | Unset):
        font_size (float | Unset):
        horizontal_text_alignment (HorizontalTextAlignment | Unset):
        is_auto_size_height (bool | Unset):
        is_auto_size_width (bool | Unset):
        position (WebhookPayloadItemCreatedStickyNoteChangeNewPosition | Unset):
        scale (float | Unset):
        size (WebhookPayloadItemCreatedStickyNoteChangeNewSize | Unset):
        tags (list[UUID] | Unset):
        text (str | Unset):
        text_color (str | Unset):
        vertical_text_alignment (VerticalTextAlignment | Unset):
    """

    angle: float | Unset = UNSET
    background_color: str | Unset = UNSET
    font_family: str | Unset = UNSET
    font_size: float | Unset = UNSET
    horizontal_text_alignment: HorizontalTextAlignment | Unset = UNSET
    is_auto_size_height: bool | Unset = UNSET
    is_auto_size_width: bool | Unset = UNSET
    position: WebhookPayloadItemCreatedStickyNoteChangeNewPosition | Unset = UNSET
    scale: float | Unset = UNSET
    size: WebhookPayloadItemCreatedStickyNoteChangeNewSize | Unset = UNSET
    tags: list[UUID] | Unset = UNSET
    text: str | Unset = UNSET
    text_color: str | Unset = UNSET
    vertical_text_alignment: VerticalTextAlignment | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        angle = self.angle

        background_color = self.background_color

        font_family = self.font_family

        font_size = self.font_size

        horizontal_text_alignment: str | Unset = UNSET
        if not isinstance(self.horizontal_text_alignment, Unset):
            horizontal_text_alignment = self.horizontal_text_alignment.value

        is_auto_size_height = self.is_auto_size_height

        is_auto_size_width = self.is_auto_size_width

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

        text = self.text

        text_color = self.text_color

        vertical_text_alignment: str | Unset = UNSET
        if not isinstance(self.vertical_text_alignment, Unset):
            vertical_text_alignment = self.vertical_text_alignment.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if angle is not UNSET:
            field_dict["angle"] = angle
        if background_color is not UNSET:
            field_dict["backgroundColor"] = background_color
        if font_family is not UNSET:
            field_dict["fontFamily"] = font_family
        if font_size is not UNSET:
            field_dict["fontSize"] = font_size
        if horizontal_text_alignment is not UNSET:
            field_dict["horizontalTextAlignment"] = horizontal_text_alignment
        if is_auto_size_height is not UNSET:
            field_dict["isAutoSizeHeight"] = is_auto_size_height
        if is_auto_size_width is not UNSET:
            field_dict["isAutoSizeWidth"] = is_auto_size_width
        if position is not UNSET:
            field_dict["position"] = position
        if scale is not UNSET:
            field_dict["scale"] = scale
        if size is not UNSET:
            field_dict["size"] = size
        if tags is not UNSET:
            field_dict["tags"] = tags
        if text is not UNSET:
            field_dict["text"] = text
        if text_color is not UNSET:
            field_dict["textColor"] = text_color
        if vertical_text_alignment is not UNSET:
            field_dict["verticalTextAlignment"] = vertical_text_alignment

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_item_created_sticky_note_change_new_position import (
            WebhookPayloadItemCreatedStickyNoteChangeNewPosition,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_created_sticky_note_change_new_size import (
            WebhookPayloadItemCreatedStickyNoteChangeNewSize,  # noqa: PLC0415
        )

        d = dict(src_dict)
        angle = d.pop("angle", UNSET)

        background_color = d.pop("backgroundColor", UNSET)

        font_family = d.pop("fontFamily", UNSET)

        font_size = d.pop("fontSize", UNSET)

        _horizontal_text_alignment = d.pop("horizontalTextAlignment", UNSET)
        horizontal_text_alignment: HorizontalTextAlignment | Unset
        if isinstance(_horizontal_text_alignment, Unset):
            horizontal_text_alignment = UNSET
        else:
            horizontal_text_alignment = HorizontalTextAlignment(_horizontal_text_alignment)

        is_auto_size_height = d.pop("isAutoSizeHeight", UNSET)

        is_auto_size_width = d.pop("isAutoSizeWidth", UNSET)

        _position = d.pop("position", UNSET)
        position: WebhookPayloadItemCreatedStickyNoteChangeNewPosition | Unset
        if isinstance(_position, Unset):
            position = UNSET
        else:
            position = WebhookPayloadItemCreatedStickyNoteChangeNewPosition.from_dict(_position)

        scale = d.pop("scale", UNSET)

        _size = d.pop("size", UNSET)
        size: WebhookPayloadItemCreatedStickyNoteChangeNewSize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = WebhookPayloadItemCreatedStickyNoteChangeNewSize.from_dict(_size)

        _tags = d.pop("tags", UNSET)
        tags: list[UUID] | Unset = UNSET
        if _tags is not UNSET:
            tags = []
            for tags_item_data in _tags:
                tags_item = UUID(tags_item_data)

                tags.append(tags_item)

        text = d.pop("text", UNSET)

        text_color = d.pop("textColor", UNSET)

        _vertical_text_alignment = d.pop("verticalTextAlignment", UNSET)
        vertical_text_alignment: VerticalTextAlignment | Unset
        if isinstance(_vertical_text_alignment, Unset):
            vertical_text_alignment = UNSET
        else:
            vertical_text_alignment = VerticalTextAlignment(_vertical_text_alignment)

        webhook_payload_item_created_sticky_note_change_new = cls(
            angle=angle,
            background_color=background_color,
            font_family=font_family,
            font_size=font_size,
            horizontal_text_alignment=horizontal_text_alignment,
            is_auto_size_height=is_auto_size_height,
            is_auto_size_width=is_auto_size_width,
            position=position,
            scale=scale,
            size=size,
            tags=tags,
            text=text,
            text_color=text_color,
            vertical_text_alignment=vertical_text_alignment,
        )

        return webhook_payload_item_created_sticky_note_change_new
