from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.line_type import LineType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_updated_connector_change_new_corner_points_type_0_item import (
        WebhookPayloadItemUpdatedConnectorChangeNewCornerPointsType0Item,
    )
    from ..models.webhook_payload_item_updated_connector_change_new_end_point_type_0 import (
        WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0,
    )
    from ..models.webhook_payload_item_updated_connector_change_new_start_point_type_0 import (
        WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0,
    )


T = TypeVar("T", bound="WebhookPayloadItemUpdatedConnectorChangeNew")


@_attrs_define
class WebhookPayloadItemUpdatedConnectorChangeNew:
    """
    Attributes:
        corner_points (list[WebhookPayloadItemUpdatedConnectorChangeNewCornerPointsType0Item] | None | Unset):
        end_point (None | Unset | WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0):
        radius (float | None | Unset):
        start_point (None | Unset | WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0):
        stroke_color (None | str | Unset):
        stroke_thickness (float | None | Unset):
        tags (list[UUID] | None | Unset):
        type_ (LineType | None | Unset):
    """

    corner_points: list[WebhookPayloadItemUpdatedConnectorChangeNewCornerPointsType0Item] | None | Unset = UNSET
    end_point: None | Unset | WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0 = UNSET
    radius: float | None | Unset = UNSET
    start_point: None | Unset | WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0 = UNSET
    stroke_color: None | str | Unset = UNSET
    stroke_thickness: float | None | Unset = UNSET
    tags: list[UUID] | None | Unset = UNSET
    type_: LineType | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_payload_item_updated_connector_change_new_end_point_type_0 import (
            WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_updated_connector_change_new_start_point_type_0 import (
            WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0,  # noqa: PLC0415
        )

        corner_points: list[dict[str, Any]] | None | Unset
        if isinstance(self.corner_points, Unset):
            corner_points = UNSET
        elif isinstance(self.corner_points, list):
            corner_points = []
            for corner_points_type_0_item_data in self.corner_points:
                corner_points_type_0_item = corner_points_type_0_item_data.to_dict()
                corner_points.append(corner_points_type_0_item)

        else:
            corner_points = self.corner_points

        end_point: dict[str, Any] | None | Unset
        if isinstance(self.end_point, Unset):
            end_point = UNSET
        elif isinstance(self.end_point, WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0):
            end_point = self.end_point.to_dict()
        else:
            end_point = self.end_point

        radius: float | None | Unset
        if isinstance(self.radius, Unset):
            radius = UNSET
        else:
            radius = self.radius

        start_point: dict[str, Any] | None | Unset
        if isinstance(self.start_point, Unset):
            start_point = UNSET
        elif isinstance(self.start_point, WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0):
            start_point = self.start_point.to_dict()
        else:
            start_point = self.start_point

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

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        elif isinstance(self.type_, LineType):
            type_ = self.type_.value
        else:
            type_ = self.type_

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
        from ..models.webhook_payload_item_updated_connector_change_new_corner_points_type_0_item import (
            WebhookPayloadItemUpdatedConnectorChangeNewCornerPointsType0Item,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_updated_connector_change_new_end_point_type_0 import (
            WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_updated_connector_change_new_start_point_type_0 import (
            WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0,  # noqa: PLC0415
        )

        d = dict(src_dict)

        def _parse_corner_points(
            data: object,
        ) -> list[WebhookPayloadItemUpdatedConnectorChangeNewCornerPointsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                corner_points_type_0 = []
                _corner_points_type_0 = data
                for corner_points_type_0_item_data in _corner_points_type_0:
                    corner_points_type_0_item = (
                        WebhookPayloadItemUpdatedConnectorChangeNewCornerPointsType0Item.from_dict(
                            corner_points_type_0_item_data
                        )
                    )

                    corner_points_type_0.append(corner_points_type_0_item)

                return corner_points_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[WebhookPayloadItemUpdatedConnectorChangeNewCornerPointsType0Item] | None | Unset, data)

        corner_points = _parse_corner_points(d.pop("cornerPoints", UNSET))

        def _parse_end_point(data: object) -> None | Unset | WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                end_point_type_0 = WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0.from_dict(data)

                return end_point_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0, data)

        end_point = _parse_end_point(d.pop("endPoint", UNSET))

        def _parse_radius(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        radius = _parse_radius(d.pop("radius", UNSET))

        def _parse_start_point(
            data: object,
        ) -> None | Unset | WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                start_point_type_0 = WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0.from_dict(data)

                return start_point_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0, data)

        start_point = _parse_start_point(d.pop("startPoint", UNSET))

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

        def _parse_type_(data: object) -> LineType | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_0 = LineType(data)

                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LineType | None | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        webhook_payload_item_updated_connector_change_new = cls(
            corner_points=corner_points,
            end_point=end_point,
            radius=radius,
            start_point=start_point,
            stroke_color=stroke_color,
            stroke_thickness=stroke_thickness,
            tags=tags,
            type_=type_,
        )

        return webhook_payload_item_updated_connector_change_new
