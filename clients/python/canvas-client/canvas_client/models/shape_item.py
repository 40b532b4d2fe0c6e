from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.shape_item_item_type import ShapeItemItemType
from ..models.shape_type import ShapeType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.shape_item_position import ShapeItemPosition
    from ..models.shape_item_size import ShapeItemSize


T = TypeVar("T", bound="ShapeItem")


@_attrs_define
class ShapeItem:
    """A shape item, as read (default PascalCase).

    Attributes:
        adjustment_values (list[float]):
        angle (float):
        created_at (datetime.datetime):
        fill_color (str):
        item_id (UUID):
        item_type (ShapeItemItemType):
        parent (str): `panel`, `inbox` or a container item's id
        position (ShapeItemPosition):
        project_id (UUID):
        scale (float):
        size (ShapeItemSize):
        stroke_color (str):
        stroke_thickness (float):
        type_ (ShapeType):
        updated_at (datetime.datetime):
        corner_radius (float | None | Unset):
        tags (list[UUID] | None | Unset):
    """

    adjustment_values: list[float]
    angle: float
    created_at: datetime.datetime
    fill_color: str
    item_id: UUID
    item_type: ShapeItemItemType
    parent: str
    position: ShapeItemPosition
    project_id: UUID
    scale: float
    size: ShapeItemSize
    stroke_color: str
    stroke_thickness: float
    type_: ShapeType
    updated_at: datetime.datetime
    corner_radius: float | None | Unset = UNSET
    tags: list[UUID] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        adjustment_values = self.adjustment_values

        angle = self.angle

        created_at = self.created_at.isoformat()

        fill_color = self.fill_color

        item_id = str(self.item_id)

        item_type = self.item_type.value

        parent = self.parent

        position = self.position.to_dict()

        project_id = str(self.project_id)

        scale = self.scale

        size = self.size.to_dict()

        stroke_color = self.stroke_color

        stroke_thickness = self.stroke_thickness

        type_ = self.type_.value

        updated_at = self.updated_at.isoformat()

        corner_radius: float | None | Unset
        if isinstance(self.corner_radius, Unset):
            corner_radius = UNSET
        else:
            corner_radius = self.corner_radius

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
                "AdjustmentValues": adjustment_values,
                "Angle": angle,
                "CreatedAt": created_at,
                "FillColor": fill_color,
                "ItemId": item_id,
                "ItemType": item_type,
                "Parent": parent,
                "Position": position,
                "ProjectId": project_id,
                "Scale": scale,
                "Size": size,
                "StrokeColor": stroke_color,
                "StrokeThickness": stroke_thickness,
                "Type": type_,
                "UpdatedAt": updated_at,
            }
        )
        if corner_radius is not UNSET:
            field_dict["CornerRadius"] = corner_radius
        if tags is not UNSET:
            field_dict["Tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.shape_item_position import ShapeItemPosition  # noqa: PLC0415
        from ..models.shape_item_size import ShapeItemSize  # noqa: PLC0415

        d = dict(src_dict)
        adjustment_values = cast(list[float], d.pop("AdjustmentValues"))

        angle = d.pop("Angle")

        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        fill_color = d.pop("FillColor")

        item_id = UUID(d.pop("ItemId"))

        item_type = ShapeItemItemType(d.pop("ItemType"))

        parent = d.pop("Parent")

        position = ShapeItemPosition.from_dict(d.pop("Position"))

        project_id = UUID(d.pop("ProjectId"))

        scale = d.pop("Scale")

        size = ShapeItemSize.from_dict(d.pop("Size"))

        stroke_color = d.pop("StrokeColor")

        stroke_thickness = d.pop("StrokeThickness")

        type_ = ShapeType(d.pop("Type"))

        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))

        def _parse_corner_radius(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        corner_radius = _parse_corner_radius(d.pop("CornerRadius", UNSET))

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

        shape_item = cls(
            adjustment_values=adjustment_values,
            angle=angle,
            created_at=created_at,
            fill_color=fill_color,
            item_id=item_id,
            item_type=item_type,
            parent=parent,
            position=position,
            project_id=project_id,
            scale=scale,
            size=size,
            stroke_color=stroke_color,
            stroke_thickness=stroke_thickness,
            type_=type_,
            updated_at=updated_at,
            corner_radius=corner_radius,
            tags=tags,
        )

        shape_item.additional_properties = d
        return shape_item

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
