from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.shape_type import ShapeType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_shape_body_position import CreateShapeBodyPosition
    from ..models.create_shape_body_size import CreateShapeBodySize


T = TypeVar("T", bound="CreateShapeBody")


@_attrs_define
class CreateShapeBody:
    """
    Attributes:
        size (CreateShapeBodySize):
        adjustment_values (list[float] | Unset): shape-specific; the first is the corner radius of round-corner types,
            as a fraction of the shorter side
        angle (float | Unset):  Default: 0.0.
        corner_radius (float | None | Unset): world units, round-corner shape types only; read back as the drawn radius,
            null for other types
        fill_color (str | Unset): hex color only: #RRGGBB, #AARRGGBB (alpha first) or #RGB Default: '#00000000'.
        position (CreateShapeBodyPosition | Unset):
        scale (float | Unset):  Default: 1.0.
        stroke_color (str | Unset): hex color only: #RRGGBB, #AARRGGBB (alpha first) or #RGB Default: '#FFFFFF'.
        stroke_thickness (float | Unset):  Default: 2.0.
        tags (list[UUID] | None | Unset): ids of the project's tags (GET .../tags); each at most once
        type_ (ShapeType | Unset):
    """

    size: CreateShapeBodySize
    adjustment_values: list[float] | Unset = UNSET
    angle: float | Unset = 0.0
    corner_radius: float | None | Unset = UNSET
    fill_color: str | Unset = "#00000000"
    position: CreateShapeBodyPosition | Unset = UNSET
    scale: float | Unset = 1.0
    stroke_color: str | Unset = "#FFFFFF"
    stroke_thickness: float | Unset = 2.0
    tags: list[UUID] | None | Unset = UNSET
    type_: ShapeType | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        size = self.size.to_dict()

        adjustment_values: list[float] | Unset = UNSET
        if not isinstance(self.adjustment_values, Unset):
            adjustment_values = self.adjustment_values

        angle = self.angle

        corner_radius: float | None | Unset
        if isinstance(self.corner_radius, Unset):
            corner_radius = UNSET
        else:
            corner_radius = self.corner_radius

        fill_color = self.fill_color

        position: dict[str, Any] | Unset = UNSET
        if not isinstance(self.position, Unset):
            position = self.position.to_dict()

        scale = self.scale

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
                "size": size,
            }
        )
        if adjustment_values is not UNSET:
            field_dict["adjustmentValues"] = adjustment_values
        if angle is not UNSET:
            field_dict["angle"] = angle
        if corner_radius is not UNSET:
            field_dict["cornerRadius"] = corner_radius
        if fill_color is not UNSET:
            field_dict["fillColor"] = fill_color
        if position is not UNSET:
            field_dict["position"] = position
        if scale is not UNSET:
            field_dict["scale"] = scale
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
        from ..models.create_shape_body_position import CreateShapeBodyPosition  # noqa: PLC0415
        from ..models.create_shape_body_size import CreateShapeBodySize  # noqa: PLC0415

        d = dict(src_dict)
        size = CreateShapeBodySize.from_dict(d.pop("size"))

        adjustment_values = cast(list[float], d.pop("adjustmentValues", UNSET))

        angle = d.pop("angle", UNSET)

        def _parse_corner_radius(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        corner_radius = _parse_corner_radius(d.pop("cornerRadius", UNSET))

        fill_color = d.pop("fillColor", UNSET)

        _position = d.pop("position", UNSET)
        position: CreateShapeBodyPosition | Unset
        if isinstance(_position, Unset):
            position = UNSET
        else:
            position = CreateShapeBodyPosition.from_dict(_position)

        scale = d.pop("scale", UNSET)

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
        type_: ShapeType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = ShapeType(_type_)

        create_shape_body = cls(
            size=size,
            adjustment_values=adjustment_values,
            angle=angle,
            corner_radius=corner_radius,
            fill_color=fill_color,
            position=position,
            scale=scale,
            stroke_color=stroke_color,
            stroke_thickness=stroke_thickness,
            tags=tags,
            type_=type_,
        )

        return create_shape_body
