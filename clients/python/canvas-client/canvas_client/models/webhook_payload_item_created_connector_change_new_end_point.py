from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.decorator import Decorator
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_created_connector_change_new_end_point_absolute_position_type_0 import (
        WebhookPayloadItemCreatedConnectorChangeNewEndPointAbsolutePositionType0,
    )
    from ..models.webhook_payload_item_created_connector_change_new_end_point_position_type_0 import (
        WebhookPayloadItemCreatedConnectorChangeNewEndPointPositionType0,
    )


T = TypeVar("T", bound="WebhookPayloadItemCreatedConnectorChangeNewEndPoint")


@_attrs_define
class WebhookPayloadItemCreatedConnectorChangeNewEndPoint:
    """
    Attributes:
        decorator (Decorator):
        edge (bool):
        absolute_position (None | Unset | WebhookPayloadItemCreatedConnectorChangeNewEndPointAbsolutePositionType0):
        item_id (None | Unset | UUID):
        position (None | Unset | WebhookPayloadItemCreatedConnectorChangeNewEndPointPositionType0):
    """

    decorator: Decorator
    edge: bool
    absolute_position: None | Unset | WebhookPayloadItemCreatedConnectorChangeNewEndPointAbsolutePositionType0 = UNSET
    item_id: None | Unset | UUID = UNSET
    position: None | Unset | WebhookPayloadItemCreatedConnectorChangeNewEndPointPositionType0 = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_payload_item_created_connector_change_new_end_point_absolute_position_type_0 import (
            WebhookPayloadItemCreatedConnectorChangeNewEndPointAbsolutePositionType0,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_created_connector_change_new_end_point_position_type_0 import (
            WebhookPayloadItemCreatedConnectorChangeNewEndPointPositionType0,  # noqa: PLC0415
        )

        decorator = self.decorator.value

        edge = self.edge

        absolute_position: dict[str, Any] | None | Unset
        if isinstance(self.absolute_position, Unset):
            absolute_position = UNSET
        elif isinstance(
            self.absolute_position, WebhookPayloadItemCreatedConnectorChangeNewEndPointAbsolutePositionType0
        ):
            absolute_position = self.absolute_position.to_dict()
        else:
            absolute_position = self.absolute_position

        item_id: None | str | Unset
        if isinstance(self.item_id, Unset):
            item_id = UNSET
        elif isinstance(self.item_id, UUID):
            item_id = str(self.item_id)
        else:
            item_id = self.item_id

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, WebhookPayloadItemCreatedConnectorChangeNewEndPointPositionType0):
            position = self.position.to_dict()
        else:
            position = self.position

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decorator": decorator,
                "edge": edge,
            }
        )
        if absolute_position is not UNSET:
            field_dict["absolutePosition"] = absolute_position
        if item_id is not UNSET:
            field_dict["itemId"] = item_id
        if position is not UNSET:
            field_dict["position"] = position

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_item_created_connector_change_new_end_point_absolute_position_type_0 import (
            WebhookPayloadItemCreatedConnectorChangeNewEndPointAbsolutePositionType0,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_created_connector_change_new_end_point_position_type_0 import (
            WebhookPayloadItemCreatedConnectorChangeNewEndPointPositionType0,  # noqa: PLC0415
        )

        d = dict(src_dict)
        decorator = Decorator(d.pop("decorator"))

        edge = d.pop("edge")

        def _parse_absolute_position(
            data: object,
        ) -> None | Unset | WebhookPayloadItemCreatedConnectorChangeNewEndPointAbsolutePositionType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                absolute_position_type_0 = (
                    WebhookPayloadItemCreatedConnectorChangeNewEndPointAbsolutePositionType0.from_dict(data)
                )

                return absolute_position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WebhookPayloadItemCreatedConnectorChangeNewEndPointAbsolutePositionType0, data)

        absolute_position = _parse_absolute_position(d.pop("absolutePosition", UNSET))

        def _parse_item_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                item_id_type_0 = UUID(data)

                return item_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        item_id = _parse_item_id(d.pop("itemId", UNSET))

        def _parse_position(
            data: object,
        ) -> None | Unset | WebhookPayloadItemCreatedConnectorChangeNewEndPointPositionType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_0 = WebhookPayloadItemCreatedConnectorChangeNewEndPointPositionType0.from_dict(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WebhookPayloadItemCreatedConnectorChangeNewEndPointPositionType0, data)

        position = _parse_position(d.pop("position", UNSET))

        webhook_payload_item_created_connector_change_new_end_point = cls(
            decorator=decorator,
            edge=edge,
            absolute_position=absolute_position,
            item_id=item_id,
            position=position,
        )

        webhook_payload_item_created_connector_change_new_end_point.additional_properties = d
        return webhook_payload_item_created_connector_change_new_end_point

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
