from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.horizontal_text_alignment import HorizontalTextAlignment
from ..models.label_item_item_type import LabelItemItemType
from ..models.vertical_text_alignment import VerticalTextAlignment
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.label_item_position import LabelItemPosition
    from ..models.label_item_size import LabelItemSize


T = TypeVar("T", bound="LabelItem")


@_attrs_define
class LabelItem:
    """A label item, as read (default PascalCase).

    Attributes:
        angle (float):
        background_color (str):
        created_at (datetime.datetime):
        font_family (str):
        font_size (float):
        horizontal_text_alignment (HorizontalTextAlignment):
        is_auto_size_height (bool):
        is_auto_size_width (bool):
        item_id (UUID):
        item_type (LabelItemItemType):
        parent (str): `panel`, `inbox` or a container item's id
        position (LabelItemPosition):
        project_id (UUID):
        scale (float):
        size (LabelItemSize):
        text (str):
        text_color (str):
        updated_at (datetime.datetime):
        vertical_text_alignment (VerticalTextAlignment):
        tags (list[UUID] | None | Unset):
    """

    angle: float
    background_color: str
    created_at: datetime.datetime
    font_family: str
    font_size: float
    horizontal_text_alignment: HorizontalTextAlignment
    is_auto_size_height: bool
    is_auto_size_width: bool
    item_id: UUID
    item_type: LabelItemItemType
    parent: str
    position: LabelItemPosition
    project_id: UUID
    scale: float
    size: LabelItemSize
    text: str
    text_color: str
    updated_at: datetime.datetime
    vertical_text_alignment: VerticalTextAlignment
    tags: list[UUID] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        angle = self.angle

        background_color = self.background_color

        created_at = self.created_at.isoformat()

        font_family = self.font_family

        font_size = self.font_size

        horizontal_text_alignment = self.horizontal_text_alignment.value

        is_auto_size_height = self.is_auto_size_height

        is_auto_size_width = self.is_auto_size_width

        item_id = str(self.item_id)

        item_type = self.item_type.value

        parent = self.parent

        position = self.position.to_dict()

        project_id = str(self.project_id)

        scale = self.scale

        size = self.size.to_dict()

        text = self.text

        text_color = self.text_color

        updated_at = self.updated_at.isoformat()

        vertical_text_alignment = self.vertical_text_alignment.value

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
                "BackgroundColor": background_color,
                "CreatedAt": created_at,
                "FontFamily": font_family,
                "FontSize": font_size,
                "HorizontalTextAlignment": horizontal_text_alignment,
                "IsAutoSizeHeight": is_auto_size_height,
                "IsAutoSizeWidth": is_auto_size_width,
                "ItemId": item_id,
                "ItemType": item_type,
                "Parent": parent,
                "Position": position,
                "ProjectId": project_id,
                "Scale": scale,
                "Size": size,
                "Text": text,
                "TextColor": text_color,
                "UpdatedAt": updated_at,
                "VerticalTextAlignment": vertical_text_alignment,
            }
        )
        if tags is not UNSET:
            field_dict["Tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.label_item_position import LabelItemPosition  # noqa: PLC0415
        from ..models.label_item_size import LabelItemSize  # noqa: PLC0415

        d = dict(src_dict)
        angle = d.pop("Angle")

        background_color = d.pop("BackgroundColor")

        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        font_family = d.pop("FontFamily")

        font_size = d.pop("FontSize")

        horizontal_text_alignment = HorizontalTextAlignment(d.pop("HorizontalTextAlignment"))

        is_auto_size_height = d.pop("IsAutoSizeHeight")

        is_auto_size_width = d.pop("IsAutoSizeWidth")

        item_id = UUID(d.pop("ItemId"))

        item_type = LabelItemItemType(d.pop("ItemType"))

        parent = d.pop("Parent")

        position = LabelItemPosition.from_dict(d.pop("Position"))

        project_id = UUID(d.pop("ProjectId"))

        scale = d.pop("Scale")

        size = LabelItemSize.from_dict(d.pop("Size"))

        text = d.pop("Text")

        text_color = d.pop("TextColor")

        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))

        vertical_text_alignment = VerticalTextAlignment(d.pop("VerticalTextAlignment"))

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

        label_item = cls(
            angle=angle,
            background_color=background_color,
            created_at=created_at,
            font_family=font_family,
            font_size=font_size,
            horizontal_text_alignment=horizontal_text_alignment,
            is_auto_size_height=is_auto_size_height,
            is_auto_size_width=is_auto_size_width,
            item_id=item_id,
            item_type=item_type,
            parent=parent,
            position=position,
            project_id=project_id,
            scale=scale,
            size=size,
            text=text,
            text_color=text_color,
            updated_at=updated_at,
            vertical_text_alignment=vertical_text_alignment,
            tags=tags,
        )

        label_item.additional_properties = d
        return label_item

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
