from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_updated_frame_change_new_position_type_0 import (
        WebhookPayloadItemUpdatedFrameChangeNewPositionType0,
    )
    from ..models.webhook_payload_item_updated_frame_change_new_size_type_0 import (
        WebhookPayloadItemUpdatedFrameChangeNewSizeType0,
    )


T = TypeVar("T", bound="WebhookPayloadItemUpdatedFrameChangeNew")


@_attrs_define
class WebhookPayloadItemUpdatedFrameChangeNew:
    """
    Attributes:
        fill_color (None | str | Unset):
        position (None | Unset | WebhookPayloadItemUpdatedFrameChangeNewPositionType0):
        size (None | Unset | WebhookPayloadItemUpdatedFrameChangeNewSizeType0):
        tags (list[UUID] | None | Unset):
        title (None | str | Unset):
    """

    fill_color: None | str | Unset = UNSET
    position: None | Unset | WebhookPayloadItemUpdatedFrameChangeNewPositionType0 = UNSET
    size: None | Unset | WebhookPayloadItemUpdatedFrameChangeNewSizeType0 = UNSET
    tags: list[UUID] | None | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_payload_item_updated_frame_change_new_position_type_0 import (
            WebhookPayloadItemUpdatedFrameChangeNewPositionType0,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_updated_frame_change_new_size_type_0 import (
            WebhookPayloadItemUpdatedFrameChangeNewSizeType0,  # noqa: PLC0415
        )

        fill_color: None | str | Unset
        if isinstance(self.fill_color, Unset):
            fill_color = UNSET
        else:
            fill_color = self.fill_color

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, WebhookPayloadItemUpdatedFrameChangeNewPositionType0):
            position = self.position.to_dict()
        else:
            position = self.position

        size: dict[str, Any] | None | Unset
        if isinstance(self.size, Unset):
            size = UNSET
        elif isinstance(self.size, WebhookPayloadItemUpdatedFrameChangeNewSizeType0):
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

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if fill_color is not UNSET:
            field_dict["fillColor"] = fill_color
        if position is not UNSET:
            field_dict["position"] = position
        if size is not UNSET:
            field_dict["size"] = size
        if tags is not UNSET:
            field_dict["tags"] = tags
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_item_updated_frame_change_new_position_type_0 import (
            WebhookPayloadItemUpdatedFrameChangeNewPositionType0,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_updated_frame_change_new_size_type_0 import (
            WebhookPayloadItemUpdatedFrameChangeNewSizeType0,  # noqa: PLC0415
        )

        d = dict(src_dict)

        def _parse_fill_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        fill_color = _parse_fill_color(d.pop("fillColor", UNSET))

        def _parse_position(data: object) -> None | Unset | WebhookPayloadItemUpdatedFrameChangeNewPositionType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_0 = WebhookPayloadItemUpdatedFrameChangeNewPositionType0.from_dict(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WebhookPayloadItemUpdatedFrameChangeNewPositionType0, data)

        position = _parse_position(d.pop("position", UNSET))

        def _parse_size(data: object) -> None | Unset | WebhookPayloadItemUpdatedFrameChangeNewSizeType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                size_type_0 = WebhookPayloadItemUpdatedFrameChangeNewSizeType0.from_dict(data)

                return size_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WebhookPayloadItemUpdatedFrameChangeNewSizeType0, data)

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

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        webhook_payload_item_updated_frame_change_new = cls(
            fill_color=fill_color,
            position=position,
            size=size,
            tags=tags,
            title=title,
        )

        return webhook_payload_item_updated_frame_change_new
