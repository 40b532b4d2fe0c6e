from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Comment")


@_attrs_define
class Comment:
    """One reply.

    Attributes:
        author_user_id (UUID):
        comment_id (UUID):
        created_at (datetime.datetime):
        mentions (list[str]): The ids of the members its text mentions.
        text (str):
        thread_id (UUID):
        updated_at (datetime.datetime):
        edited_at (datetime.datetime | None | Unset): When its text was last changed; null if never.
    """

    author_user_id: UUID
    comment_id: UUID
    created_at: datetime.datetime
    mentions: list[str]
    text: str
    thread_id: UUID
    updated_at: datetime.datetime
    edited_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        author_user_id = str(self.author_user_id)

        comment_id = str(self.comment_id)

        created_at = self.created_at.isoformat()

        mentions = self.mentions

        text = self.text

        thread_id = str(self.thread_id)

        updated_at = self.updated_at.isoformat()

        edited_at: None | str | Unset
        if isinstance(self.edited_at, Unset):
            edited_at = UNSET
        elif isinstance(self.edited_at, datetime.datetime):
            edited_at = self.edited_at.isoformat()
        else:
            edited_at = self.edited_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "AuthorUserId": author_user_id,
                "CommentId": comment_id,
                "CreatedAt": created_at,
                "Mentions": mentions,
                "Text": text,
                "ThreadId": thread_id,
                "UpdatedAt": updated_at,
            }
        )
        if edited_at is not UNSET:
            field_dict["EditedAt"] = edited_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        author_user_id = UUID(d.pop("AuthorUserId"))

        comment_id = UUID(d.pop("CommentId"))

        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        mentions = cast(list[str], d.pop("Mentions"))

        text = d.pop("Text")

        thread_id = UUID(d.pop("ThreadId"))

        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))

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

        comment = cls(
            author_user_id=author_user_id,
            comment_id=comment_id,
            created_at=created_at,
            mentions=mentions,
            text=text,
            thread_id=thread_id,
            updated_at=updated_at,
            edited_at=edited_at,
        )

        comment.additional_properties = d
        return comment

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
