from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookPayloadCommentResolvedChangeSubject")


@_attrs_define
class WebhookPayloadCommentResolvedChangeSubject:
    """
    Attributes:
        id (UUID):
        type_ (Literal['comment']):
    """

    id: UUID
    type_: Literal["comment"]

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        type_ = cast(Literal["comment"], d.pop("type"))
        if type_ != "comment":
            raise ValueError(f"type must match const 'comment', got '{type_}'")

        webhook_payload_comment_resolved_change_subject = cls(
            id=id,
            type_=type_,
        )

        return webhook_payload_comment_resolved_change_subject
