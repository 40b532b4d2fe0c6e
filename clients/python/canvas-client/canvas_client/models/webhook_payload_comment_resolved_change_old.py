from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_comment_resolved_change_old_position_type_0 import (
        WebhookPayloadCommentResolvedChangeOldPositionType0,
    )


T = TypeVar("T", bound="WebhookPayloadCommentResolvedChangeOld")


@_attrs_define
class WebhookPayloadCommentResolvedChangeOld:
    """
    Attributes:
        author_user_id (UUID | Unset):
        created_at (datetime.datetime | Unset):
        edited_at (datetime.datetime | None | Unset):
        former_item_id (None | Unset | UUID):
        item_id (None | Unset | UUID):
        mentions (list[UUID] | Unset):
        position (None | Unset | WebhookPayloadCommentResolvedChangeOldPositionType0):
        resolved (bool | Unset):
        resolved_at (datetime.datetime | None | Unset):
        resolved_by_user_id (None | Unset | UUID):
        text (str | Unset):
    """

    author_user_id: UUID | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    edited_at: datetime.datetime | None | Unset = UNSET
    former_item_id: None | Unset | UUID = UNSET
    item_id: None | Unset | UUID = UNSET
    mentions: list[UUID] | Unset = UNSET
    position: None | Unset | WebhookPayloadCommentResolvedChangeOldPositionType0 = UNSET
    resolved: bool | Unset = UNSET
    resolved_at: datetime.datetime | None | Unset = UNSET
    resolved_by_user_id: None | Unset | UUID = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_payload_comment_resolved_change_old_position_type_0 import (
            WebhookPayloadCommentResolvedChangeOldPositionType0,  # noqa: PLC0415
        )

        author_user_id: str | Unset = UNSET
        if not isinstance(self.author_user_id, Unset):
            author_user_id = str(self.author_user_id)

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        edited_at: None | str | Unset
        if isinstance(self.edited_at, Unset):
            edited_at = UNSET
        elif isinstance(self.edited_at, datetime.datetime):
            edited_at = self.edited_at.isoformat()
        else:
            edited_at = self.edited_at

        former_item_id: None | str | Unset
        if isinstance(self.former_item_id, Unset):
            former_item_id = UNSET
        elif isinstance(self.former_item_id, UUID):
            former_item_id = str(self.former_item_id)
        else:
            former_item_id = self.former_item_id

        item_id: None | str | Unset
        if isinstance(self.item_id, Unset):
            item_id = UNSET
        elif isinstance(self.item_id, UUID):
            item_id = str(self.item_id)
        else:
            item_id = self.item_id

        mentions: list[str] | Unset = UNSET
        if not isinstance(self.mentions, Unset):
            mentions = []
            for mentions_item_data in self.mentions:
                mentions_item = str(mentions_item_data)
                mentions.append(mentions_item)

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, WebhookPayloadCommentResolvedChangeOldPositionType0):
            position = self.position.to_dict()
        else:
            position = self.position

        resolved = self.resolved

        resolved_at: None | str | Unset
        if isinstance(self.resolved_at, Unset):
            resolved_at = UNSET
        elif isinstance(self.resolved_at, datetime.datetime):
            resolved_at = self.resolved_at.isoformat()
        else:
            resolved_at = self.resolved_at

        resolved_by_user_id: None | str | Unset
        if isinstance(self.resolved_by_user_id, Unset):
            resolved_by_user_id = UNSET
        elif isinstance(self.resolved_by_user_id, UUID):
            resolved_by_user_id = str(self.resolved_by_user_id)
        else:
            resolved_by_user_id = self.resolved_by_user_id

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if author_user_id is not UNSET:
            field_dict["authorUserId"] = author_user_id
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if edited_at is not UNSET:
            field_dict["editedAt"] = edited_at
        if former_item_id is not UNSET:
            field_dict["formerItemId"] = former_item_id
        if item_id is not UNSET:
            field_dict["itemId"] = item_id
        if mentions is not UNSET:
            field_dict["mentions"] = mentions
        if position is not UNSET:
            field_dict["position"] = position
        if resolved is not UNSET:
            field_dict["resolved"] = resolved
        if resolved_at is not UNSET:
            field_dict["resolvedAt"] = resolved_at
        if resolved_by_user_id is not UNSET:
            field_dict["resolvedByUserId"] = resolved_by_user_id
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_comment_resolved_change_old_position_type_0 import (
            WebhookPayloadCommentResolvedChangeOldPositionType0,  # noqa: PLC0415
        )

        d = dict(src_dict)
        _author_user_id = d.pop("authorUserId", UNSET)
        author_user_id: UUID | Unset
        if isinstance(_author_user_id, Unset):
            author_user_id = UNSET
        else:
            author_user_id = UUID(_author_user_id)

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        def _parse_edited_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                edited_at_type_0 = datetime.datetime.fromisoformat(data)

                return edited_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        edited_at = _parse_edited_at(d.pop("editedAt", UNSET))

        def _parse_former_item_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                former_item_id_type_0 = UUID(data)

                return former_item_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        former_item_id = _parse_former_item_id(d.pop("formerItemId", UNSET))

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

        _mentions = d.pop("mentions", UNSET)
        mentions: list[UUID] | Unset = UNSET
        if _mentions is not UNSET:
            mentions = []
            for mentions_item_data in _mentions:
                mentions_item = UUID(mentions_item_data)

                mentions.append(mentions_item)

        def _parse_position(data: object) -> None | Unset | WebhookPayloadCommentResolvedChangeOldPositionType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_0 = WebhookPayloadCommentResolvedChangeOldPositionType0.from_dict(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WebhookPayloadCommentResolvedChangeOldPositionType0, data)

        position = _parse_position(d.pop("position", UNSET))

        resolved = d.pop("resolved", UNSET)

        def _parse_resolved_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                resolved_at_type_0 = datetime.datetime.fromisoformat(data)

                return resolved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        resolved_at = _parse_resolved_at(d.pop("resolvedAt", UNSET))

        def _parse_resolved_by_user_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                resolved_by_user_id_type_0 = UUID(data)

                return resolved_by_user_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        resolved_by_user_id = _parse_resolved_by_user_id(d.pop("resolvedByUserId", UNSET))

        text = d.pop("text", UNSET)

        webhook_payload_comment_resolved_change_old = cls(
            author_user_id=author_user_id,
            created_at=created_at,
            edited_at=edited_at,
            former_item_id=former_item_id,
            item_id=item_id,
            mentions=mentions,
            position=position,
            resolved=resolved,
            resolved_at=resolved_at,
            resolved_by_user_id=resolved_by_user_id,
            text=text,
        )

        return webhook_payload_comment_resolved_change_old
