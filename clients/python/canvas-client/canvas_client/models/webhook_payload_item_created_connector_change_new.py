from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.line_type import LineType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_created_connector_change_new_corner_points_item import (
        WebhookPayloadItemCreatedConnectorChangeNewCornerPointsItem,
    )
    from ..models.webhook_payload_item_created_connector_change_new_end_point import (
        WebhookPayloadItemCreatedConnectorChangeNewEndPoint,
    )
    from ..models.webhook_payload_item_created_connector_change_new_start_point import (
        WebhookPayloadItemCreatedConnectorChangeNewStartPoint,
    )


T = TypeVar("T", bound="WebhookPayloadItemCreatedConnectorChangeNew")


@_attrs_define
class WebhookPayloadItemCreatedConnectorChangeNew:
    """
    Attributes:
        corner_points (list[WebhookPayloadItemCreatedConnectorChangeNewCornerPointsItem] | Unset):
        end_point (WebhookPayloadItemCreatedConnectorChangeNewEndPoint | Unset):
        radius (float | Unset):
        start_point (WebhookPayloadItemCreatedConnectorChangeNewStartPoint | Unset):
        stroke_color (str | Unset):
        stroke_thickness (float | Unset):
        tags (list[UUID] | Unset):
        type_ (LineType | Unset):
    """

    corner_points: list[WebhookPayloadItemCreatedConnectorChangeNewCornerPointsItem] | Unset = UNSET
    end_point: WebhookPayloadItemCreatedConnectorChangeNewEndPoint | Unset = UNSET
    radius: float | Unset = UNSET
    start_point: WebhookPayloadItemCreatedConnectorChangeNewStartPoint | Unset = UNSET
    stroke_color: str | Unset = UNSET
    stroke_thickness: float | Unset = UNSET
    tags: list[UUID] | Unset = UNSET
    type_: LineType | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        corner_points: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.corner_points, Unset):
            corner_points = []
            for corner_points_item_data in self.corner_points:
                corner_points_item = corner_points_item_data.to_dict()
                corner_points.append(corner_points_item)

        end_point: dict[str, Any] | Unset = UNSET
        if not isinstance(self.end_point, Unset):
            end_point = self.end_point.to_dict()

        radius = self.radius

        start_point: dict[str, Any] | Unset = UNSET
        if not isinstance(self.start_point, Unset):
            start_point = self.start_point.to_dict()

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
        if corner_points is not UNSET:
            field_dict["cornerPoints"] = corner_points
        if end_point is not UNSET:
            field_dict["endPoint"] = end_point
        if radius is not UNSET:
            field_dict["radius"] = radius
        if start_point is not UNSET:
            field_dict["startPoint"] = start_point
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
        from ..models.webhook_payload_item_created_connector_change_new_corner_points_item import (
            WebhookPayloadItemCreatedConnectorChangeNewCornerPointsItem,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_created_connector_change_new_end_point import (
            WebhookPayloadItemCreatedConnectorChangeNewEndPoint,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_created_connector_change_new_start_point import (
            WebhookPayloadItemCreatedConnectorChangeNewStartPoint,  # noqa: PLC0415
        )

        d = dict(src_dict)
        _corner_points = d.pop("cornerPoints", UNSET)
        corner_points: list[WebhookPayloadItemCreatedConnectorChangeNewCornerPointsItem] | Unset = UNSET
        if _corner_points is not UNSET:
            corner_points = []
            for corner_points_item_data in _corner_points:
                corner_points_item = WebhookPayloadItemCreatedConnectorChangeNewCornerPointsItem.from_dict(
                    corner_points_item_data
                )

                corner_points.append(corner_points_item)

        _end_point = d.pop("endPoint", UNSET)
        end_point: WebhookPayloadItemCreatedConnectorChangeNewEndPoint | Unset
        if isinstance(_end_point, Unset):
            end_point = UNSET
        else:
            end_point = WebhookPayloadItemCreatedConnectorChangeNewEndPoint.from_dict(_end_point)

        radius = d.pop("radius", UNSET)

        _start_point = d.pop("startPoint", UNSET)
        start_point: WebhookPayloadItemCreatedConnectorChangeNewStartPoint | Unset
        if isinstance(_start_point, Unset):
            start_point = UNSET
        else:
            start_point = WebhookPayloadItemCreatedConnectorChangeNewStartPoint.from_dict(_start_point)

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
        type_: LineType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = LineType(_type_)

        webhook_payload_item_created_connector_change_new = cls(
            corner_points=corner_points,
            end_point=end_point,
            radius=radius,
            start_point=start_point,
            stroke_color=stroke_color,
            stroke_thickness=stroke_thickness,
            tags=tags,
            type_=type_,
        )

        return webhook_payload_item_created_connector_change_new
