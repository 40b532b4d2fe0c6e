from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.shape_type import ShapeType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_deleted_shape_change_old_position import (
        WebhookPayloadItemDeletedShapeChangeOldPosition,
    )
    from ..models.webhook_payload_item_deleted_shape_change_old_size import WebhookPayloadItemDeletedShapeChangeOldSize


T = TypeVar("T", bound="WebhookPayloadItemDeletedShapeChangeOld")


@_attrs_define
class WebhookPayloadItemDeletedShapeChangeOld:
    """
    Attributes:
        adjustment_values (list[float] | Unset):
        angle (float | Unset):
        corner_radius (float | Unset):
        fill_color (str | Unset):
        position (WebhookPayloadItemDeletedShapeChangeOldPosition | Unset):
        scale (float | Unset):
        size (WebhookPayloadItemDeletedShapeChangeOldSize | Unset):
        stroke_color (str | Unset):
        stroke_thickness (float | Unset):
        tags (list[UUID] | Unset):
        type_ (ShapeType | Unset):
    """

    adjustment_values: list[float] | Unset = UNSET
    angle: float | Unset = UNSET
    corner_radius: float | Unset = UNSET
    fill_color: str | Unset = UNSET
    position: WebhookPayloadItemDeletedShapeChangeOldPosition | Unset = UNSET
    scale: float | Unset = UNSET
    size: WebhookPayloadItemDeletedShapeChangeOldSize | Unset = UNSET
    stroke_color: str | Unset = UNSET
    stroke_thickness: float | Unset = UNSET
    tags: list[UUID] | Unset = UNSET
    type_: ShapeType | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        adjustment_values: list[float] | Unset = UNSET
        if not isinstance(self.adjustment_values, Unset):
            adjustment_values = self.adjustment_values

        angle = self.angle

        corner_radius = self.corner_radius

        fill_color = self.fill_color

        position: dict[str, Any] | Unset = UNSET
        if not isinstance(self.position, Unset):
            position = self.position.to_dict()

        scale = self.scale

        size: dict[str, Any] | Unset = UNSET
        if not isinstance(self.size, Unset):
            size = self.size.to_dict()

        stroke_color = self.stroke_color

        stroke_thickness = self.stroke_thickness

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = []
            for tags_item_data in self.tags:
                tags_item = str(tags_item_data)
                tags.append(tags_item)

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

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
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_item_deleted_shape_change_old_position import (
            WebhookPayloadItemDeletedShapeChangeOldPosition,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_deleted_shape_change_old_size import (
            WebhookPayloadItemDeletedShapeChangeOldSize,  # noqa: PLC0415
        )

        d = dict(src_dict)
        adjustment_values = cast(list[float], d.pop("adjustmentValues", UNSET))

        angle = d.pop("angle", UNSET)

        corner_radius = d.pop("cornerRadius", UNSET)

        fill_color = d.pop("fillColor", UNSET)

        _position = d.pop("position", UNSET)
        position: WebhookPayloadItemDeletedShapeChangeOldPosition | Unset
        if isinstance(_position, Unset):
            position = UNSET
        else:
            position = WebhookPayloadItemDeletedShapeChangeOldPosition.from_dict(_position)

        scale = d.pop("scale", UNSET)

        _size = d.pop("size", UNSET)
        size: WebhookPayloadItemDeletedShapeChangeOldSize | Unset
        if isinstance(_size, Unset):
            size = UNSET
        else:
            size = WebhookPayloadItemDeletedShapeChangeOldSize.from_dict(_size)

        stroke_color = d.pop("strokeColor", UNSET)

        stroke_thickness = d.pop("strokeThickness", UNSET)

        _tags = d.pop("tags", UNSET)
        tags: list[UUID] | Unset = UNSET
        if _tags is not UNSET:
            tags = []
            for tags_item_data in _tags:
                tags_item = UUID(tags_item_data)

                tags.append(tags_item)

        _type_ = d.pop("type", UNSET)
        type_: ShapeType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = ShapeType(_type_)

        webhook_payload_item_deleted_shape_change_old = cls(
            adjustment_values=adjustment_values,
            angle=angle,
            corner_radius=corner_radius,
            fill_color=fill_color,
            position=position,
            scale=scale,
            size=size,
            stroke_color=stroke_color,
            stroke_thickness=stroke_thickness,
            tags=tags,
            type_=type_,
        )

        return webhook_payload_item_deleted_shape_change_old
