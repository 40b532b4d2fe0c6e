from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CommentsDeleted")


@_attrs_define
class CommentsDeleted:
    """What a delete removed.

    Attributes:
        deleted_comment_ids (list[str]): A thread's replies then the thread's own id; or the one reply.
    """

    deleted_comment_ids: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deleted_comment_ids = self.deleted_comment_ids

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "DeletedCommentIds": deleted_comment_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        deleted_comment_ids = cast(list[str], d.pop("DeletedCommentIds"))

        comments_deleted = cls(
            deleted_comment_ids=deleted_comment_ids,
        )

        comments_deleted.additional_properties = d
        return comments_deleted

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
