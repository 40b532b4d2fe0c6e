from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.comment import Comment
    from ..models.comment_point import CommentPoint


T = TypeVar("T", bound="CommentThread")


@_attrs_define
class CommentThread:
    """A thread: its first comment's fields, where it is, its state and its replies.

    Attributes:
        author_user_id (UUID):
        created_at (datetime.datetime):
        mentions (list[str]):
        project_id (UUID):
        replies (list[Comment]): Oldest first.
        reply_count (int):
        resolved (bool):
        text (str):
        thread_id (UUID):
        updated_at (datetime.datetime):
        version (int): Bumped by every change of the thread or its replies.
        edited_at (datetime.datetime | None | Unset):
        former_item_id (None | Unset | UUID): The item it was on, once that item was deleted.
        item_id (None | Unset | UUID): The item it is on; null for a thread on a point.
        position (CommentPoint | None | Unset):
        resolved_at (datetime.datetime | None | Unset):
        resolved_by_user_id (None | Unset | UUID):
    """

    author_user_id: UUID
    created_at: datetime.datetime
    mentions: list[str]
    project_id: UUID
    replies: list[Comment]
    reply_count: int
    resolved: bool
    text: str
    thread_id: UUID
    updated_at: datetime.datetime
    version: int
    edited_at: datetime.datetime | None | Unset = UNSET
    former_item_id: None | Unset | UUID = UNSET
    item_id: None | Unset | UUID = UNSET
    position: CommentPoint | None | Unset = UNSET
    resolved_at: datetime.datetime | None | Unset = UNSET
    resolved_by_user_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.comment_point import CommentPoint  # noqa: PLC0415

        author_user_id = str(self.author_user_id)

        created_at = self.created_at.isoformat()

        mentions = self.mentions

        project_id = str(self.project_id)

        replies = []
        for replies_item_data in self.replies:
            replies_item = replies_item_data.to_dict()
            replies.append(replies_item)

        reply_count = self.reply_count

        resolved = self.resolved

        text = self.text

        thread_id = str(self.thread_id)

        updated_at = self.updated_at.isoformat()

        version = self.version

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

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, CommentPoint):
            position = self.position.to_dict()
        else:
            position = self.position

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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "AuthorUserId": author_user_id,
                "CreatedAt": created_at,
                "Mentions": mentions,
                "ProjectId": project_id,
                "Replies": replies,
                "ReplyCount": reply_count,
                "Resolved": resolved,
                "Text": text,
                "ThreadId": thread_id,
                "UpdatedAt": updated_at,
                "Version": version,
            }
        )
        if edited_at is not UNSET:
            field_dict["EditedAt"] = edited_at
        if former_item_id is not UNSET:
            field_dict["FormerItemId"] = former_item_id
        if item_id is not UNSET:
            field_dict["ItemId"] = item_id
        if position is not UNSET:
            field_dict["Position"] = position
        if resolved_at is not UNSET:
            field_dict["ResolvedAt"] = resolved_at
        if resolved_by_user_id is not UNSET:
            field_dict["ResolvedByUserId"] = resolved_by_user_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.comment import Comment  # noqa: PLC0415
        from ..models.comment_point import CommentPoint  # noqa: PLC0415

        d = dict(src_dict)
        author_user_id = UUID(d.pop("AuthorUserId"))

        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        mentions = cast(list[str], d.pop("Mentions"))

        project_id = UUID(d.pop("ProjectId"))

        replies = []
        _replies = d.pop("Replies")
        for replies_item_data in _replies:
            replies_item = Comment.from_dict(replies_item_data)

            replies.append(replies_item)

        reply_count = d.pop("ReplyCount")

        resolved = d.pop("Resolved")

        text = d.pop("Text")

        thread_id = UUID(d.pop("ThreadId"))

        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))

        version = d.pop("Version")

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

        edited_at = _parse_edited_at(d.pop("EditedAt", UNSET))

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

        former_item_id = _parse_former_item_id(d.pop("FormerItemId", UNSET))

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

        item_id = _parse_item_id(d.pop("ItemId", UNSET))

        def _parse_position(data: object) -> CommentPoint | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_1 = CommentPoint.from_dict(data)

                return position_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CommentPoint | None | Unset, data)

        position = _parse_position(d.pop("Position", UNSET))

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

        resolved_at = _parse_resolved_at(d.pop("ResolvedAt", UNSET))

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

        resolved_by_user_id = _parse_resolved_by_user_id(d.pop("ResolvedByUserId", UNSET))

        comment_thread = cls(
            author_user_id=author_user_id,
            created_at=created_at,
            mentions=mentions,
            project_id=project_id,
            replies=replies,
            reply_count=reply_count,
            resolved=resolved,
            text=text,
            thread_id=thread_id,
            updated_at=updated_at,
            version=version,
            edited_at=edited_at,
            former_item_id=former_item_id,
            item_id=item_id,
            position=position,
            resolved_at=resolved_at,
            resolved_by_user_id=resolved_by_user_id,
        )

        comment_thread.additional_properties = d
        return comment_thread

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
