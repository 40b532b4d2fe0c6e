from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.image_item_item_type import ImageItemItemType
from ..models.image_mime_type import ImageMimeType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.image_item_position import ImageItemPosition
    from ..models.image_item_size import ImageItemSize


T = TypeVar("T", bound="ImageItem")


@_attrs_define
class ImageItem:
    """A image item, as read (default PascalCase).

    Attributes:
        angle (float):
        created_at (datetime.datetime):
        file_name (str):
        file_size (int):
        item_id (UUID):
        item_type (ImageItemItemType):
        mime_type (ImageMimeType):
        parent (str): `panel`, `inbox` or a container item's id
        position (ImageItemPosition):
        project_id (UUID):
        scale (float):
        size (ImageItemSize):
        updated_at (datetime.datetime):
        tags (list[UUID] | None | Unset):
    """

    angle: float
    created_at: datetime.datetime
    file_name: str
    file_size: int
    item_id: UUID
    item_type: ImageItemItemType
    mime_type: ImageMimeType
    parent: str
    position: ImageItemPosition
    project_id: UUID
    scale: float
    size: ImageItemSize
    updated_at: datetime.datetime
    tags: list[UUID] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        angle = self.angle

        created_at = self.created_at.isoformat()

        file_name = self.file_name

        file_size = self.file_size

        item_id = str(self.item_id)

        item_type = self.item_type.value

        mime_type = self.mime_type.value

        parent = self.parent

        position = self.position.to_dict()

        project_id = str(self.project_id)

        scale = self.scale

        size = self.size.to_dict()

        updated_at = self.updated_at.isoformat()

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
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Angle": angle,
                "CreatedAt": created_at,
                "FileName": file_name,
                "FileSize": file_size,
                "ItemId": item_id,
                "ItemType": item_type,
                "MimeType": mime_type,
                "Parent": parent,
                "Position": position,
                "ProjectId": project_id,
                "Scale": scale,
                "Size": size,
                "UpdatedAt": updated_at,
            }
        )
        if tags is not UNSET:
            field_dict["Tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.image_item_position import ImageItemPosition  # noqa: PLC0415
        from ..models.image_item_size import ImageItemSize  # noqa: PLC0415

        d = dict(src_dict)
        angle = d.pop("Angle")

        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        file_name = d.pop("FileName")

        file_size = d.pop("FileSize")

        item_id = UUID(d.pop("ItemId"))

        item_type = ImageItemItemType(d.pop("ItemType"))

        mime_type = ImageMimeType(d.pop("MimeType"))

        parent = d.pop("Parent")

        position = ImageItemPosition.from_dict(d.pop("Position"))

        project_id = UUID(d.pop("ProjectId"))

        scale = d.pop("Scale")

        size = ImageItemSize.from_dict(d.pop("Size"))

        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))

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

        tags = _parse_tags(d.pop("Tags", UNSET))

        image_item = cls(
            angle=angle,
            created_at=created_at,
            file_name=file_name,
            file_size=file_size,
            item_id=item_id,
            item_type=item_type,
            mime_type=mime_type,
            parent=parent,
            position=position,
            project_id=project_id,
            scale=scale,
            size=size,
            updated_at=updated_at,
            tags=tags,
        )

        image_item.additional_properties = d
        return image_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
