from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.connector_item_item_type import ConnectorItemItemType
from ..models.line_type import LineType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.connector_item_corner_points_item import ConnectorItemCornerPointsItem
    from ..models.connector_item_end_point import ConnectorItemEndPoint
    from ..models.connector_item_position import ConnectorItemPosition
    from ..models.connector_item_size import ConnectorItemSize
    from ..models.connector_item_start_point import ConnectorItemStartPoint


T = TypeVar("T", bound="ConnectorItem")


@_attrs_define
class ConnectorItem:
    """A connector item, as read (default PascalCase).

    Attributes:
        angle (float):
        corner_points (list[ConnectorItemCornerPointsItem]):
        created_at (datetime.datetime):
        end_point (ConnectorItemEndPoint):
        item_id (UUID):
        item_type (ConnectorItemItemType):
        parent (str): `panel`, `inbox` or a container item's id
        position (ConnectorItemPosition):
        project_id (UUID):
        radius (float):
        scale (float):
        size (ConnectorItemSize):
        start_point (ConnectorItemStartPoint):
        stroke_color (str):
        stroke_thickness (float):
        type_ (LineType):
        updated_at (datetime.datetime):
        tags (list[UUID] | None | Unset):
    """

    angle: float
    corner_points: list[ConnectorItemCornerPointsItem]
    created_at: datetime.datetime
    end_point: ConnectorItemEndPoint
    item_id: UUID
    item_type: ConnectorItemItemType
    parent: str
    position: ConnectorItemPosition
    project_id: UUID
    radius: float
    scale: float
    size: ConnectorItemSize
    start_point: ConnectorItemStartPoint
    stroke_color: str
    stroke_thickness: float
    type_: LineType
    updated_at: datetime.datetime
    tags: list[UUID] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        angle = self.angle

        corner_points = []
        for corner_points_item_data in self.corner_points:
            corner_points_item = corner_points_item_data.to_dict()
            corner_points.append(corner_points_item)

        created_at = self.created_at.isoformat()

        end_point = self.end_point.to_dict()

        item_id = str(self.item_id)

        item_type = self.item_type.value

        parent = self.parent

        position = self.position.to_dict()

        project_id = str(self.project_id)

        radius = self.radius

        scale = self.scale

        size = self.size.to_dict()

        start_point = self.start_point.to_dict()

        stroke_color = self.stroke_color

        stroke_thickness = self.stroke_thickness

        type_ = self.type_.value

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
                "CornerPoints": corner_points,
                "CreatedAt": created_at,
                "EndPoint": end_point,
                "ItemId": item_id,
                "ItemType": item_type,
                "Parent": parent,
                "Position": position,
                "ProjectId": project_id,
                "Radius": radius,
                "Scale": scale,
                "Size": size,
                "StartPoint": start_point,
                "StrokeColor": stroke_color,
                "StrokeThickness": stroke_thickness,
                "Type": type_,
                "UpdatedAt": updated_at,
            }
        )
        if tags is not UNSET:
            field_dict["Tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.connector_item_corner_points_item import ConnectorItemCornerPointsItem  # noqa: PLC0415
        from ..models.connector_item_end_point import ConnectorItemEndPoint  # noqa: PLC0415
        from ..models.connector_item_position import ConnectorItemPosition  # noqa: PLC0415
        from ..models.connector_item_size import ConnectorItemSize  # noqa: PLC0415
        from ..models.connector_item_start_point import ConnectorItemStartPoint  # noqa: PLC0415

        d = dict(src_dict)
        angle = d.pop("Angle")

        corner_points = []
        _corner_points = d.pop("CornerPoints")
        for corner_points_item_data in _corner_points:
            corner_points_item = ConnectorItemCornerPointsItem.from_dict(corner_points_item_data)

            corner_points.append(corner_points_item)

        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        end_point = ConnectorItemEndPoint.from_dict(d.pop("EndPoint"))

        item_id = UUID(d.pop("ItemId"))

        item_type = ConnectorItemItemType(d.pop("ItemType"))

        parent = d.pop("Parent")

        position = ConnectorItemPosition.from_dict(d.pop("Position"))

        project_id = UUID(d.pop("ProjectId"))

        radius = d.pop("Radius")

        scale = d.pop("Scale")

        size = ConnectorItemSize.from_dict(d.pop("Size"))

        start_point = ConnectorItemStartPoint.from_dict(d.pop("StartPoint"))

        stroke_color = d.pop("StrokeColor")

        stroke_thickness = d.pop("StrokeThickness")

        type_ = LineType(d.pop("Type"))

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

        connector_item = cls(
            angle=angle,
            corner_points=corner_points,
            created_at=created_at,
            end_point=end_point,
            item_id=item_id,
            item_type=item_type,
            parent=parent,
            position=position,
            project_id=project_id,
            radius=radius,
            scale=scale,
            size=size,
            start_point=start_point,
            stroke_color=stroke_color,
            stroke_thickness=stroke_thickness,
            type_=type_,
            updated_at=updated_at,
            tags=tags,
        )

        connector_item.additional_properties = d
        return connector_item

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
