from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

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
    """

    file_name: str
    file_size: int
    mime_type: ImageMimeType
    size: CreateImageBodySize
    angle: float | Unset = 0.0
    position: CreateImageBodyPosition | Unset = UNSET
    scale: float | Unset = 1.0

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

        create_image_body = cls(
            file_name=file_name,
            file_size=file_size,
            mime_type=mime_type,
            size=size,
            angle=angle,
            position=position,
            scale=scale,
        )

        return create_image_body
