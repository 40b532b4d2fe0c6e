from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.horizontal_text_alignment import HorizontalTextAlignment
from ..models.vertical_text_alignment import VerticalTextAlignment
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sticky_note_patch_position_type_0 import StickyNotePatchPositionType0
    from ..models.sticky_note_patch_size_type_0 import StickyNotePatchSizeType0


T = TypeVar("T", bound="StickyNotePatch")


@_attrs_define
class StickyNotePatch:
    """
    Attributes:
        angle (float | None | Unset):
        background_color (None | str | Unset): any CSS color, for example #1E90FF, rgb(30, 144, 255) or dodgerblue
        font_family (None | str | Unset):
        font_size (float | None | Unset):
        horizontal_text_alignment (HorizontalTextAlignment | None | Unset):
        is_auto_size_height (bool | None | Unset):
        is_auto_size_width (bool | None | Unset):
        parent (str | Unset): Moves the item (beyond the spec): `panel`, `inbox`, or the id of a frame, shape or
            connector that may hold it (canvas_vocabulary::items::containers). Omitted: where it is.
        position (None | StickyNotePatchPositionType0 | Unset):
        scale (float | None | Unset):
        size (None | StickyNotePatchSizeType0 | Unset): an auto-sized dimension must be 0 or omitted; the others at
            least 5
        tags (list[UUID] | None | Unset): ids of the project's tags (GET .../tags); each at most once
        text (str | Unset): plain text or valid HTML without active content (scripts, event handlers)
        text_color (None | str | Unset): any CSS color, for example #1E90FF, rgb(30, 144, 255) or dodgerblue
        vertical_text_alignment (None | Unset | VerticalTextAlignment):
    """

    angle: float | None | Unset = UNSET
    background_color: None | str | Unset = UNSET
    font_family: None | str | Unset = UNSET
    font_size: float | None | Unset = UNSET
    horizontal_text_alignment: HorizontalTextAlignment | None | Unset = UNSET
    is_auto_size_height: bool | None | Unset = UNSET
    is_auto_size_width: bool | None | Unset = UNSET
    parent: str | Unset = UNSET
    position: None | StickyNotePatchPositionType0 | Unset = UNSET
    scale: float | None | Unset = UNSET
    size: None | StickyNotePatchSizeType0 | Unset = UNSET
    tags: list[UUID] | None | Unset = UNSET
    text: str | Unset = UNSET
    text_color: None | str | Unset = UNSET
    vertical_text_alignment: None | Unset | VerticalTextAlignment = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.sticky_note_patch_position_type_0 import StickyNotePatchPositionType0  # noqa: PLC0415
        from ..models.sticky_note_patch_size_type_0 import StickyNotePatchSizeType0  # noqa: PLC0415

        angle: float | None | Unset
        if isinstance(self.angle, Unset):
            angle = UNSET
        else:
            angle = self.angle

        background_color: None | str | Unset
        if isinstance(self.background_color, Unset):
            background_color = UNSET
        else:
            background_color = self.background_color

        font_family: None | str | Unset
        if isinstance(self.font_family, Unset):
            font_family = UNSET
        else:
            font_family = self.font_family

        font_size: float | None | Unset
        if isinstance(self.font_size, Unset):
            font_size = UNSET
        else:
            font_size = self.font_size

        horizontal_text_alignment: None | str | Unset
        if isinstance(self.horizontal_text_alignment, Unset):
            horizontal_text_alignment = UNSET
        elif isinstance(self.horizontal_text_alignment, HorizontalTextAlignment):
            horizontal_text_alignment = self.horizontal_text_alignment.value
        else:
            horizontal_text_alignment = self.horizontal_text_alignment

        is_auto_size_height: bool | None | Unset
        if isinstance(self.is_auto_size_height, Unset):
            is_auto_size_height = UNSET
        else:
            is_auto_size_height = self.is_auto_size_height

        is_auto_size_width: bool | None | Unset
        if isinstance(self.is_auto_size_width, Unset):
            is_auto_size_width = UNSET
        else:
            is_auto_size_width = self.is_auto_size_width

        parent = self.parent

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, StickyNotePatchPositionType0):
            position = self.position.to_dict()
        else:
            position = self.position

        scale: float | None | Unset
        if isinstance(self.scale, Unset):
            scale = UNSET
        else:
            scale = self.scale

        size: dict[str, Any] | None | Unset
        if isinstance(self.size, Unset):
            size = UNSET
        elif isinstance(self.size, StickyNotePatchSizeType0):
            size = self.size.to_dict()
        else:
            size = self.size

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

        text = self.text

        text_color: None | str | Unset
        if isinstance(self.text_color, Unset):
            text_color = UNSET
        else:
            text_color = self.text_color

        vertical_text_alignment: None | str | Unset
        if isinstance(self.vertical_text_alignment, Unset):
            vertical_text_alignment = UNSET
        elif isinstance(self.vertical_text_alignment, VerticalTextAlignment):
            vertical_text_alignment = self.vertical_text_alignment.value
        else:
            vertical_text_alignment = self.vertical_text_alignment

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
        if parent is not UNSET:
            field_dict["parent"] = parent
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
        from ..models.sticky_note_patch_position_type_0 import StickyNotePatchPositionType0  # noqa: PLC0415
        from ..models.sticky_note_patch_size_type_0 import StickyNotePatchSizeType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_angle(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        angle = _parse_angle(d.pop("angle", UNSET))

        def _parse_background_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        background_color = _parse_background_color(d.pop("backgroundColor", UNSET))

        def _parse_font_family(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        font_family = _parse_font_family(d.pop("fontFamily", UNSET))

        def _parse_font_size(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        font_size = _parse_font_size(d.pop("fontSize", UNSET))

        def _parse_horizontal_text_alignment(data: object) -> HorizontalTextAlignment | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                horizontal_text_alignment_type_0 = HorizontalTextAlignment(data)

                return horizontal_text_alignment_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HorizontalTextAlignment | None | Unset, data)

        horizontal_text_alignment = _parse_horizontal_text_alignment(d.pop("horizontalTextAlignment", UNSET))

        def _parse_is_auto_size_height(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_auto_size_height = _parse_is_auto_size_height(d.pop("isAutoSizeHeight", UNSET))

        def _parse_is_auto_size_width(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_auto_size_width = _parse_is_auto_size_width(d.pop("isAutoSizeWidth", UNSET))

        parent = d.pop("parent", UNSET)

        def _parse_position(data: object) -> None | StickyNotePatchPositionType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_0 = StickyNotePatchPositionType0.from_dict(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StickyNotePatchPositionType0 | Unset, data)

        position = _parse_position(d.pop("position", UNSET))

        def _parse_scale(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        scale = _parse_scale(d.pop("scale", UNSET))

        def _parse_size(data: object) -> None | StickyNotePatchSizeType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                size_type_0 = StickyNotePatchSizeType0.from_dict(data)

                return size_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StickyNotePatchSizeType0 | Unset, data)

        size = _parse_size(d.pop("size", UNSET))

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

        text = d.pop("text", UNSET)

        def _parse_text_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        text_color = _parse_text_color(d.pop("textColor", UNSET))

        def _parse_vertical_text_alignment(data: object) -> None | Unset | VerticalTextAlignment:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                vertical_text_alignment_type_0 = VerticalTextAlignment(data)

                return vertical_text_alignment_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | VerticalTextAlignment, data)

        vertical_text_alignment = _parse_vertical_text_alignment(d.pop("verticalTextAlignment", UNSET))

        sticky_note_patch = cls(
            angle=angle,
            background_color=background_color,
            font_family=font_family,
            font_size=font_size,
            horizontal_text_alignment=horizontal_text_alignment,
            is_auto_size_height=is_auto_size_height,
            is_auto_size_width=is_auto_size_width,
            parent=parent,
            position=position,
            scale=scale,
            size=size,
            tags=tags,
            text=text,
            text_color=text_color,
            vertical_text_alignment=vertical_text_alignment,
        )

        return sticky_note_patch
