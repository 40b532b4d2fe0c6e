from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.horizontal_text_alignment import HorizontalTextAlignment
from ..models.vertical_text_alignment import VerticalTextAlignment
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_label_body_position import CreateLabelBodyPosition
    from ..models.create_label_body_size import CreateLabelBodySize


T = TypeVar("T", bound="CreateLabelBody")


@_attrs_define
class CreateLabelBody:
    """
    Attributes:
        text (str): plain text or valid HTML without active content (scripts, event handlers)
        angle (float | Unset):  Default: 0.0.
        background_color (str | Unset): any CSS color, for example #1E90FF, rgb(30, 144, 255) or dodgerblue Default:
            '#1E293B'.
        font_family (str | Unset):  Default: 'Arial'.
        font_size (float | Unset):  Default: 14.0.
        horizontal_text_alignment (HorizontalTextAlignment | Unset):
        is_auto_size_height (bool | Unset):  Default: True.
        is_auto_size_width (bool | Unset):  Default: True.
        position (CreateLabelBodyPosition | Unset):
        scale (float | Unset):  Default: 1.0.
        size (CreateLabelBodySize | Unset): an auto-sized dimension must be 0 or omitted; the others at least 5
        tags (list[UUID] | None | Unset): ids of the project's tags (GET .../tags); each at most once
        text_color (str | Unset): any CSS color, for example #1E90FF, rgb(30, 144, 255) or dodgerblue Default:
            '#FFFFFF'.
        vertical_text_alignment (VerticalTextAlignment | Unset):
    """

    text: str
    angle: float | Unset = 0.0
    background_color: str | Unset = "#1E293B"
    font_family: str | Unset = "Arial"
    font_size: float | Unset = 14.0
    horizontal_text_alignment: HorizontalTextAlignment | Unset = UNSET
    is_auto_size_height: bool | Unset = True
    is_auto_size_width: bool | Unset = True
    position: CreateLabelBodyPosition | Unset = UNSET
    scale: float | Unset = 1.0
    size: CreateLabelBodySize | Unset = UNSET
    tags: list[UUID] | None | Unset = UNSET
    text_color: str | Unset = "#FFFFFF"
    vertical_text_alignment: VerticalTextAlignment | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        text = self.text

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

        tags: list[str] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, list):
            tags = []
            for tags_type_0_item_data in self.tags:
                tags_type_0_item = str(tags_type_0_item_data)
                tags.append(tags_type_0_item)

        else:
            tags = self.tags

        text_color = self.text_color

        vertical_text_alignment: str | Unset = UNSET
        if not isinstance(self.vertical_text_alignment, Unset):
            vertical_text_alignment = self.vertical_text_alignment.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "text": text,
            }
        )
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
        if text_color is not UNSET:
            field_dict["textColor"] = text_color
        if vertical_text_alignment is not UNSET:
            field_dict["verticalTextAlignment"] = vertical_text_alignment

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_label_body_position import CreateLabelBodyPosition  # noqa: PLC0415
        from ..models.create_label_body_size import CreateLabelBodySize  # noqa: PLC0415

        d = dict(src_dict)
        text = d.pop("text")

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
        position: CreateLabelBodyPosition | Unset
        if isinstance(_position, Unset):
            position = UNSET
        else:
            position = CreateLabelBodyPosition.from_dict(_position)

        scale = d.pop("scale", UNSET)

        _size = d.pop("size", UNSET)
        size: CreateLabelBodySize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = CreateLabelBodySize.from_dict(_size)

        def _parse_tags(data: object) -> list[UUID] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tags_type_0 = []
                _tags_type_0 = data
                for tags_type_0_item_data in _tags_type_0:
                    tags_type_0_item = UUID(tags_type_0_item_data)

                    tags_type_0.append(tags_type_0_item)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UUID] | None | Unset, data)

        tags = _parse_tags(d.pop("tags", UNSET))

        text_color = d.pop("textColor", UNSET)

        _vertical_text_alignment = d.pop("verticalTextAlignment", UNSET)
        vertical_text_alignment: VerticalTextAlignment | Unset
        if isinstance(_vertical_text_alignment, Unset):
            vertical_text_alignment = UNSET
        else:
            vertical_text_alignment = VerticalTextAlignment(_vertical_text_alignment)

        create_label_body = cls(
            text=text,
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
            text_color=text_color,
            vertical_text_alignment=vertical_text_alignment,
        )

        return create_label_body
