from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.image_mime_type import ImageMimeType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.image_patch_position_type_0 import ImagePatchPositionType0
    from ..models.image_patch_size import ImagePatchSize


T = TypeVar("T", bound="ImagePatch")


@_attrs_define
class ImagePatch:
    """
    Attributes:
        angle (float | None | Unset):
        file_name (str | Unset):
        file_size (int | Unset):
        mime_type (ImageMimeType | Unset):
        parent (str | Unset): Moves the item (beyond the spec): `panel`, `inbox`, or the id of a frame, shape or
            connector that may hold it (canvas_vocabulary::items::containers). Omitted: where it is.
        position (ImagePatchPositionType0 | None | Unset):
        scale (float | None | Unset):
        size (ImagePatchSize | Unset):
        tags (list[UUID] | None | Unset): ids of the project's tags (GET .../tags); each at most once
    """

    angle: float | None | Unset = UNSET
    file_name: str | Unset = UNSET
    file_size: int | Unset = UNSET
    mime_type: ImageMimeType | Unset = UNSET
    parent: str | Unset = UNSET
    position: ImagePatchPositionType0 | None | Unset = UNSET
    scale: float | None | Unset = UNSET
    size: ImagePatchSize | Unset = UNSET
    tags: list[UUID] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.image_patch_position_type_0 import ImagePatchPositionType0  # noqa: PLC0415

        angle: float | None | Unset
        if isinstance(self.angle, Unset):
            angle = UNSET
        else:
            angle = self.angle

        file_name = self.file_name

        file_size = self.file_size

        mime_type: str | Unset = UNSET
        if not isinstance(self.mime_type, Unset):
            mime_type = self.mime_type.value

        parent = self.parent

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, ImagePatchPositionType0):
            position = self.position.to_dict()
        else:
            position = self.position

        scale: float | None | Unset
        if isinstance(self.scale, Unset):
            scale = UNSET
        else:
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

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.image_patch_position_type_0 import ImagePatchPositionType0  # noqa: PLC0415
        from ..models.image_patch_size import ImagePatchSize  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_angle(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        angle = _parse_angle(d.pop("angle", UNSET))

        file_name = d.pop("fileName", UNSET)

        file_size = d.pop("fileSize", UNSET)

        _mime_type = d.pop("mimeType", UNSET)
        mime_type: ImageMimeType | Unset
        if isinstance(_mime_type, Unset):
            mime_type = UNSET
        else:
            mime_type = ImageMimeType(_mime_type)

        parent = d.pop("parent", UNSET)

        def _parse_position(data: object) -> ImagePatchPositionType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_0 = ImagePatchPositionType0.from_dict(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImagePatchPositionType0 | None | Unset, data)

        position = _parse_position(d.pop("position", UNSET))

        def _parse_scale(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        scale = _parse_scale(d.pop("scale", UNSET))

        _size = d.pop("size", UNSET)
        size: ImagePatchSize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = ImagePatchSize.from_dict(_size)

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

        image_patch = cls(
            angle=angle,
            file_name=file_name,
            file_size=file_size,
            mime_type=mime_type,
            parent=parent,
            position=position,
            scale=scale,
            size=size,
            tags=tags,
        )

        return image_patch
