from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_web_body_position import CreateWebBodyPosition
    from ..models.create_web_body_size import CreateWebBodySize


T = TypeVar("T", bound="CreateWebBody")


@_attrs_define
class CreateWebBody:
    """
    Attributes:
        url (str): absolute http or https URL
        angle (float | Unset):  Default: 0.0.
        position (CreateWebBodyPosition | Unset):
        scale (float | Unset):  Default: 1.0.
        size (CreateWebBodySize | Unset):
        tags (list[UUID] | None | Unset): ids of the project's tags (GET .../tags); each at most once
    """

    url: str
    angle: float | Unset = 0.0
    position: CreateWebBodyPosition | Unset = UNSET
    scale: float | Unset = 1.0
    size: CreateWebBodySize | Unset = UNSET
    tags: list[UUID] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        angle = self.angle

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

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
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

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_web_body_position import CreateWebBodyPosition  # noqa: PLC0415
        from ..models.create_web_body_size import CreateWebBodySize  # noqa: PLC0415

        d = dict(src_dict)
        url = d.pop("url")

        angle = d.pop("angle", UNSET)

        _position = d.pop("position", UNSET)
        position: CreateWebBodyPosition | Unset
        if isinstance(_position, Unset):
            position = UNSET
        else:
            position = CreateWebBodyPosition.from_dict(_position)

        scale = d.pop("scale", UNSET)

        _size = d.pop("size", UNSET)
        size: CreateWebBodySize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = CreateWebBodySize.from_dict(_size)

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

        create_web_body = cls(
            url=url,
            angle=angle,
            position=position,
            scale=scale,
            size=size,
            tags=tags,
        )

        return create_web_body
