from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.frame_item_item_type import FrameItemItemType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.frame_item_position import FrameItemPosition
    from ..models.frame_item_size import FrameItemSize


T = TypeVar("T", bound="FrameItem")


@_attrs_define
class FrameItem:
    """A frame item, as read (default PascalCase).

    Attributes:
        created_at (datetime.datetime):
        fill_color (str):
        item_id (UUID):
        item_type (FrameItemItemType):
        parent (str): `panel`, `inbox` or a container item's id
        position (FrameItemPosition):
        project_id (UUID):
        size (FrameItemSize):
        title (str):
        updated_at (datetime.datetime):
        tags (list[UUID] | None | Unset):
    """

    created_at: datetime.datetime
    fill_color: str
    item_id: UUID
    item_type: FrameItemItemType
    parent: str
    position: FrameItemPosition
    project_id: UUID
    size: FrameItemSize
    title: str
    updated_at: datetime.datetime
    tags: list[UUID] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        fill_color = self.fill_color

        item_id = str(self.item_id)

        item_type = self.item_type.value

        parent = self.parent

        position = self.position.to_dict()

        project_id = str(self.project_id)

        size = self.size.to_dict()

        title = self.title

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
                "CreatedAt": created_at,
                "FillColor": fill_color,
                "ItemId": item_id,
                "ItemType": item_type,
                "Parent": parent,
                "Position": position,
                "ProjectId": project_id,
                "Size": size,
                "Title": title,
                "UpdatedAt": updated_at,
            }
        )
        if tags is not UNSET:
            field_dict["Tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.frame_item_position import FrameItemPosition  # noqa: PLC0415
        from ..models.frame_item_size import FrameItemSize  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        fill_color = d.pop("FillColor")

        item_id = UUID(d.pop("ItemId"))

        item_type = FrameItemItemType(d.pop("ItemType"))

        parent = d.pop("Parent")

        position = FrameItemPosition.from_dict(d.pop("Position"))

        project_id = UUID(d.pop("ProjectId"))

        size = FrameItemSize.from_dict(d.pop("Size"))

        title = d.pop("Title")

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

        frame_item = cls(
            created_at=created_at,
            fill_color=fill_color,
            item_id=item_id,
            item_type=item_type,
            parent=parent,
            position=position,
            project_id=project_id,
            size=size,
            title=title,
            updated_at=updated_at,
            tags=tags,
        )

        frame_item.additional_properties = d
        return frame_item

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
