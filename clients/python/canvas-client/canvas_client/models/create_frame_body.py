from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_frame_body_position import CreateFrameBodyPosition
    from ..models.create_frame_body_size import CreateFrameBodySize


T = TypeVar("T", bound="CreateFrameBody")


@_attrs_define
class CreateFrameBody:
    """
    Attributes:
        fill_color (str | Unset): hex color only: #RRGGBB, #AARRGGBB (alpha first) or #RGB Default: '#1E293B'.
        position (CreateFrameBodyPosition | Unset):
        size (CreateFrameBodySize | Unset):
        tags (list[UUID] | None | Unset): ids of the project's tags (GET .../tags); each at most once
        title (str | Unset): plain text, drawn above the frame's top-left corner Default: 'Frame'.
    """

    fill_color: str | Unset = "#1E293B"
    position: CreateFrameBodyPosition | Unset = UNSET
    size: CreateFrameBodySize | Unset = UNSET
    tags: list[UUID] | None | Unset = UNSET
    title: str | Unset = "Frame"

    def to_dict(self) -> dict[str, Any]:
        fill_color = self.fill_color

        position: dict[str, Any] | Unset = UNSET
        if not isinstance(self.position, Unset):
            position = self.position.to_dict()

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
        from ..models.create_frame_body_position import CreateFrameBodyPosition  # noqa: PLC0415
        from ..models.create_frame_body_size import CreateFrameBodySize  # noqa: PLC0415

        d = dict(src_dict)
        fill_color = d.pop("fillColor", UNSET)

        _position = d.pop("position", UNSET)
        position: CreateFrameBodyPosition | Unset
        if isinstance(_position, Unset):
            position = UNSET
        else:
            position = CreateFrameBodyPosition.from_dict(_position)

        _size = d.pop("size", UNSET)
        size: CreateFrameBodySize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = CreateFrameBodySize.from_dict(_size)

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

        title = d.pop("title", UNSET)

        create_frame_body = cls(
            fill_color=fill_color,
            position=position,
            size=size,
            tags=tags,
            title=title,
        )

        return create_frame_body
