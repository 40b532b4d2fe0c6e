from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.line_type import LineType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_connector_body_corner_points_item import CreateConnectorBodyCornerPointsItem
    from ..models.create_connector_body_end_point import CreateConnectorBodyEndPoint
    from ..models.create_connector_body_start_point import CreateConnectorBodyStartPoint


T = TypeVar("T", bound="CreateConnectorBody")


@_attrs_define
class CreateConnectorBody:
    """
    Attributes:
        end_point (CreateConnectorBodyEndPoint):
        start_point (CreateConnectorBodyStartPoint):
        corner_points (list[CreateConnectorBodyCornerPointsItem] | Unset):
        radius (float | Unset):  Default: 0.5.
        stroke_color (str | Unset): any CSS color, for example #1E90FF, rgb(30, 144, 255) or dodgerblue Default:
            '#F59E0B'.
        stroke_thickness (float | Unset):  Default: 3.0.
        tags (list[UUID] | None | Unset): ids of the project's tags (GET .../tags); each at most once
        type_ (LineType | Unset):
    """

    end_point: CreateConnectorBodyEndPoint
    start_point: CreateConnectorBodyStartPoint
    corner_points: list[CreateConnectorBodyCornerPointsItem] | Unset = UNSET
    radius: float | Unset = 0.5
    stroke_color: str | Unset = "#F59E0B"
    stroke_thickness: float | Unset = 3.0
    tags: list[UUID] | None | Unset = UNSET
    type_: LineType | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        end_point = self.end_point.to_dict()

        start_point = self.start_point.to_dict()

        corner_points: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.corner_points, Unset):
            corner_points = []
            for corner_points_item_data in self.corner_points:
                corner_points_item = corner_points_item_data.to_dict()
                corner_points.append(corner_points_item)

        radius = self.radius

        stroke_color = self.stroke_color

        stroke_thickness = self.stroke_thickness

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

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endPoint": end_point,
                "startPoint": start_point,
            }
        )
        if corner_points is not UNSET:
            field_dict["cornerPoints"] = corner_points
        if radius is not UNSET:
            field_dict["radius"] = radius
        if stroke_color is not UNSET:
            field_dict["strokeColor"] = stroke_color
        if stroke_thickness is not UNSET:
            field_dict["strokeThickness"] = stroke_thickness
        if tags is not UNSET:
            field_dict["tags"] = tags
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_connector_body_corner_points_item import CreateConnectorBodyCornerPointsItem  # noqa: PLC0415
        from ..models.create_connector_body_end_point import CreateConnectorBodyEndPoint  # noqa: PLC0415
        from ..models.create_connector_body_start_point import CreateConnectorBodyStartPoint  # noqa: PLC0415

        d = dict(src_dict)
        end_point = CreateConnectorBodyEndPoint.from_dict(d.pop("endPoint"))

        start_point = CreateConnectorBodyStartPoint.from_dict(d.pop("startPoint"))

        _corner_points = d.pop("cornerPoints", UNSET)
        corner_points: list[CreateConnectorBodyCornerPointsItem] | Unset = UNSET
        if _corner_points is not UNSET:
            corner_points = []
            for corner_points_item_data in _corner_points:
                corner_points_item = CreateConnectorBodyCornerPointsItem.from_dict(corner_points_item_data)

                corner_points.append(corner_points_item)

        radius = d.pop("radius", UNSET)

        stroke_color = d.pop("strokeColor", UNSET)

        stroke_thickness = d.pop("strokeThickness", UNSET)

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

        _type_ = d.pop("type", UNSET)
        type_: LineType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = LineType(_type_)

        create_connector_body = cls(
            end_point=end_point,
            start_point=start_point,
            corner_points=corner_points,
            radius=radius,
            stroke_color=stroke_color,
            stroke_thickness=stroke_thickness,
            tags=tags,
            type_=type_,
        )

        return create_connector_body
