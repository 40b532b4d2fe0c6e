from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.frame_patch_position_type_0 import FramePatchPositionType0
    from ..models.frame_patch_size_type_0 import FramePatchSizeType0


T = TypeVar("T", bound="FramePatch")


@_attrs_define
class FramePatch:
    """
    Attributes:
        fill_color (None | str | Unset): hex color only: #RRGGBB, #AARRGGBB (alpha first) or #RGB
        parent (str | Unset): Moves the item (beyond the spec): `panel`, `inbox`, or the id of a frame, shape or
            connector that may hold it (canvas_vocabulary::items::containers). Omitted: where it is.
        position (FramePatchPositionType0 | None | Unset):
        size (FramePatchSizeType0 | None | Unset):
        tags (list[UUID] | None | Unset): ids of the project's tags (GET .../tags); each at most once
        title (None | str | Unset): plain text, drawn above the frame's top-left corner
    """

    fill_color: None | str | Unset = UNSET
    parent: str | Unset = UNSET
    position: FramePatchPositionType0 | None | Unset = UNSET
    size: FramePatchSizeType0 | None | Unset = UNSET
    tags: list[UUID] | None | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.frame_patch_position_type_0 import FramePatchPositionType0  # noqa: PLC0415
        from ..models.frame_patch_size_type_0 import FramePatchSizeType0  # noqa: PLC0415

        fill_color: None | str | Unset
        if isinstance(self.fill_color, Unset):
            fill_color = UNSET
        else:
            fill_color = self.fill_color

        parent = self.parent

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, FramePatchPositionType0):
            position = self.position.to_dict()
        else:
            position = self.position

        size: dict[str, Any] | None | Unset
        if isinstance(self.size, Unset):
            size = UNSET
        elif isinstance(self.size, FramePatchSizeType0):
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

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if fill_color is not UNSET:
            field_dict["fillColor"] = fill_color
        if parent is not UNSET:
            field_dict["parent"] = parent
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
        from ..models.frame_patch_position_type_0 import FramePatchPositionType0  # noqa: PLC0415
        from ..models.frame_patch_size_type_0 import FramePatchSizeType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_fill_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        fill_color = _parse_fill_color(d.pop("fillColor", UNSET))

        parent = d.pop("parent", UNSET)

        def _parse_position(data: object) -> FramePatchPositionType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_0 = FramePatchPositionType0.from_dict(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FramePatchPositionType0 | None | Unset, data)

        position = _parse_position(d.pop("position", UNSET))

        def _parse_size(data: object) -> FramePatchSizeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                size_type_0 = FramePatchSizeType0.from_dict(data)

                return size_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FramePatchSizeType0 | None | Unset, data)

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

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        frame_patch = cls(
            fill_color=fill_color,
            parent=parent,
            position=position,
            size=size,
            tags=tags,
            title=title,
        )

        return frame_patch
