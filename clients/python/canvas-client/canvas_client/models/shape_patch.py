from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.shape_patch_position_type_0 import ShapePatchPositionType0
    from ..models.shape_patch_size import ShapePatchSize


T = TypeVar("T", bound="ShapePatch")


@_attrs_define
class ShapePatch:
    """
    Attributes:
        adjustment_values (list[float] | None | Unset): shape-specific; the first is the corner radius of round-corner
            types, as a fraction of the shorter side
        angle (float | None | Unset):
        corner_radius (float | None | Unset): world units, round-corner shape types only; read back as the drawn radius,
            null for other types
        fill_color (None | str | Unset): hex color only: #RRGGBB, #AARRGGBB (alpha first) or #RGB
        parent (str | Unset): Moves the item (beyond the spec): `panel`, `inbox`, or the id of a frame, shape or
            connector that may hold it (canvas_vocabulary::items::containers). Omitted: where it is.
        position (None | ShapePatchPositionType0 | Unset):
        scale (float | None | Unset):
        size (ShapePatchSize | Unset):
        stroke_color (None | str | Unset): hex color only: #RRGGBB, #AARRGGBB (alpha first) or #RGB
        stroke_thickness (float | None | Unset):
        tags (list[UUID] | None | Unset): ids of the project's tags (GET .../tags); each at most once
    """

    adjustment_values: list[float] | None | Unset = UNSET
    angle: float | None | Unset = UNSET
    corner_radius: float | None | Unset = UNSET
    fill_color: None | str | Unset = UNSET
    parent: str | Unset = UNSET
    position: None | ShapePatchPositionType0 | Unset = UNSET
    scale: float | None | Unset = UNSET
    size: ShapePatchSize | Unset = UNSET
    stroke_color: None | str | Unset = UNSET
    stroke_thickness: float | None | Unset = UNSET
    tags: list[UUID] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.shape_patch_position_type_0 import ShapePatchPositionType0  # noqa: PLC0415

        adjustment_values: list[float] | None | Unset
        if isinstance(self.adjustment_values, Unset):
            adjustment_values = UNSET
        elif isinstance(self.adjustment_values, list):
            adjustment_values = self.adjustment_values

        else:
            adjustment_values = self.adjustment_values

        angle: float | None | Unset
        if isinstance(self.angle, Unset):
            angle = UNSET
        else:
            angle = self.angle

        corner_radius: float | None | Unset
        if isinstance(self.corner_radius, Unset):
            corner_radius = UNSET
        else:
            corner_radius = self.corner_radius

        fill_color: None | str | Unset
        if isinstance(self.fill_color, Unset):
            fill_color = UNSET
        else:
            fill_color = self.fill_color

        parent = self.parent

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, ShapePatchPositionType0):
            position = self.position.to_dict()
        else:
            position = self.position

        scale: float | None | Unset
        if isinstance(self.scale, Unset):
            scale = UNSET
        else:
            scale = self.scale

        size: dict[str, Any] | Unset = UNSET
        if not isinstance(self.size, Unset):
            size = self.size.to_dict()

        stroke_color: None | str | Unset
        if isinstance(self.stroke_color, Unset):
            stroke_color = UNSET
        else:
            stroke_color = self.stroke_color

        stroke_thickness: float | None | Unset
        if isinstance(self.stroke_thickness, Unset):
            stroke_thickness = UNSET
        else:
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

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if adjustment_values is not UNSET:
            field_dict["adjustmentValues"] = adjustment_values
        if angle is not UNSET:
            field_dict["angle"] = angle
        if corner_radius is not UNSET:
            field_dict["cornerRadius"] = corner_radius
        if fill_color is not UNSET:
            field_dict["fillColor"] = fill_color
        if parent is not UNSET:
            field_dict["parent"] = parent
        if position is not UNSET:
            field_dict["position"] = position
        if scale is not UNSET:
            field_dict["scale"] = scale
        if size is not UNSET:
            field_dict["size"] = size
        if stroke_color is not UNSET:
            field_dict["strokeColor"] = stroke_color
        if stroke_thickness is not UNSET:
            field_dict["strokeThickness"] = stroke_thickness
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.shape_patch_position_type_0 import ShapePatchPositionType0  # noqa: PLC0415
        from ..models.shape_patch_size import ShapePatchSize  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_adjustment_values(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                adjustment_values_type_0 = cast(list[float], data)

                return adjustment_values_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        adjustment_values = _parse_adjustment_values(d.pop("adjustmentValues", UNSET))

        def _parse_angle(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        angle = _parse_angle(d.pop("angle", UNSET))

        def _parse_corner_radius(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        corner_radius = _parse_corner_radius(d.pop("cornerRadius", UNSET))

        def _parse_fill_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        fill_color = _parse_fill_color(d.pop("fillColor", UNSET))

        parent = d.pop("parent", UNSET)

        def _parse_position(data: object) -> None | ShapePatchPositionType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_0 = ShapePatchPositionType0.from_dict(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ShapePatchPositionType0 | Unset, data)

        position = _parse_position(d.pop("position", UNSET))

        def _parse_scale(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        scale = _parse_scale(d.pop("scale", UNSET))

        _size = d.pop("size", UNSET)
        size: ShapePatchSize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = ShapePatchSize.from_dict(_size)

        def _parse_stroke_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stroke_color = _parse_stroke_color(d.pop("strokeColor", UNSET))

        def _parse_stroke_thickness(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        stroke_thickness = _parse_stroke_thickness(d.pop("strokeThickness", UNSET))

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

        shape_patch = cls(
            adjustment_values=adjustment_values,
            angle=angle,
            corner_radius=corner_radius,
            fill_color=fill_color,
            parent=parent,
            position=position,
            scale=scale,
            size=size,
            stroke_color=stroke_color,
            stroke_thickness=stroke_thickness,
            tags=tags,
        )

        return shape_patch
