from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.image_mime_type import ImageMimeType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_image_body_position import CreateImageBodyPosition
    from ..models.create_image_body_size import CreateImageBodySize


T = TypeVar("T", bound="CreateImageBody")


@_attrs_define
class CreateImageBody:
    """
    Attributes:
        file_name (str):
        file_size (int):
        mime_type (ImageMimeType):
        size (CreateImageBodySize):
        angle (float | Unset):  Default: 0.0.
        position (CreateImageBodyPosition | Unset):
        scale (float | Unset):  Default: 1.0.
        tags (list[UUID] | None | Unset): ids of the project's tags (GET .../tags); each at most once
    """

    file_name: str
    file_size: int
    mime_type: ImageMimeType
    size: CreateImageBodySize
    angle: float | Unset = 0.0
    position: CreateImageBodyPosition | Unset = UNSET
    scale: float | Unset = 1.0
    tags: list[UUID] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        file_name = self.file_name

        file_size = self.file_size

        mime_type = self.mime_type.value

        size = self.size.to_dict()

        angle = self.angle

        position: dict[str, Any] | Unset = UNSET
        if not isinstance(self.position, Unset):
            position = self.position.to_dict()

        scale = self.scale

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

        field_dict.update(
            {
                "fileName": file_name,
                "fileSize": file_size,
                "mimeType": mime_type,
                "size": size,
            }
        )
        if angle is not UNSET:
            field_dict["angle"] = angle
        if position is not UNSET:
            field_dict["position"] = position
        if scale is not UNSET:
            field_dict["scale"] = scale
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_image_body_position import CreateImageBodyPosition  # noqa: PLC0415
        from ..models.create_image_body_size import CreateImageBodySize  # noqa: PLC0415

        d = dict(src_dict)
        file_name = d.pop("fileName")

        file_size = d.pop("fileSize")

        mime_type = ImageMimeType(d.pop("mimeType"))

        size = CreateImageBodySize.from_dict(d.pop("size"))

        angle = d.pop("angle", UNSET)

        _position = d.pop("position", UNSET)
        position: CreateImageBodyPosition | Unset
        if isinstance(_position, Unset):
            position = UNSET
        else:
            position = CreateImageBodyPosition.from_dict(_position)

        scale = d.pop("scale", UNSET)

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

        create_image_body = cls(
            file_name=file_name,
            file_size=file_size,
            mime_type=mime_type,
            size=size,
            angle=angle,
            position=position,
            scale=scale,
            tags=tags,
        )

        return create_image_body
