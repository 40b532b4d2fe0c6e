from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_updated_web_change_old_position_type_0 import (
        WebhookPayloadItemUpdatedWebChangeOldPositionType0,
    )
    from ..models.webhook_payload_item_updated_web_change_old_size_type_0 import (
        WebhookPayloadItemUpdatedWebChangeOldSizeType0,
    )


T = TypeVar("T", bound="WebhookPayloadItemUpdatedWebChangeOld")


@_attrs_define
class WebhookPayloadItemUpdatedWebChangeOld:
    """
    Attributes:
        angle (float | None | Unset):
        position (None | Unset | WebhookPayloadItemUpdatedWebChangeOldPositionType0):
        scale (float | None | Unset):
        size (None | Unset | WebhookPayloadItemUpdatedWebChangeOldSizeType0):
        tags (list[UUID] | None | Unset):
        url (None | str | Unset):
    """

    angle: float | None | Unset = UNSET
    position: None | Unset | WebhookPayloadItemUpdatedWebChangeOldPositionType0 = UNSET
    scale: float | None | Unset = UNSET
    size: None | Unset | WebhookPayloadItemUpdatedWebChangeOldSizeType0 = UNSET
    tags: list[UUID] | None | Unset = UNSET
    url: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_payload_item_updated_web_change_old_position_type_0 import (
            WebhookPayloadItemUpdatedWebChangeOldPositionType0,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_updated_web_change_old_size_type_0 import (
            WebhookPayloadItemUpdatedWebChangeOldSizeType0,  # noqa: PLC0415
        )

        angle: float | None | Unset
        if isinstance(self.angle, Unset):
            angle = UNSET
        else:
            angle = self.angle

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, WebhookPayloadItemUpdatedWebChangeOldPositionType0):
            position = self.position.to_dict()
        else:
            position = self.position

        scale: float | None | Unset
        if isinstance(self.scale, Unset):
            scale = UNSET
        else:
            scale = self.scale

        size: dict[str, Any] | None | Unset
        if isinstance(self.size, Unset):
            size = UNSET
        elif isinstance(self.size, WebhookPayloadItemUpdatedWebChangeOldSizeType0):
            size = self.size.to_dict()
        else:
            size = self.size

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

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if angle is not UNSET:
            field_dict["angle"] = angle
        if position is not UNSET:
            field_dict["position"] = position
        if scale is not UNSET:
            field_dict["scale"] = scale
        if size is not UNSET:
            field_dict["size"] = size
        if tags is not UNSET:
            field_dict["tags"] = tags
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_item_updated_web_change_old_position_type_0 import (
            WebhookPayloadItemUpdatedWebChangeOldPositionType0,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_updated_web_change_old_size_type_0 import (
            WebhookPayloadItemUpdatedWebChangeOldSizeType0,  # noqa: PLC0415
        )

        d = dict(src_dict)

        def _parse_angle(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        angle = _parse_angle(d.pop("angle", UNSET))

        def _parse_position(data: object) -> None | Unset | WebhookPayloadItemUpdatedWebChangeOldPositionType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_0 = WebhookPayloadItemUpdatedWebChangeOldPositionType0.from_dict(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WebhookPayloadItemUpdatedWebChangeOldPositionType0, data)

        position = _parse_position(d.pop("position", UNSET))

        def _parse_scale(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        scale = _parse_scale(d.pop("scale", UNSET))

        def _parse_size(data: object) -> None | Unset | WebhookPayloadItemUpdatedWebChangeOldSizeType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                size_type_0 = WebhookPayloadItemUpdatedWebChangeOldSizeType0.from_dict(data)

                return size_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WebhookPayloadItemUpdatedWebChangeOldSizeType0, data)

        size = _parse_size(d.pop("size", UNSET))

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

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        webhook_payload_item_updated_web_change_old = cls(
            angle=angle,
            position=position,
            scale=scale,
            size=size,
            tags=tags,
            url=url,
        )

        return webhook_payload_item_updated_web_change_old
