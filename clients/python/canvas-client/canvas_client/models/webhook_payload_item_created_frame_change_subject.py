from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookPayloadItemCreatedFrameChangeSubject")


@_attrs_define
class WebhookPayloadItemCreatedFrameChangeSubject:
    """
    Attributes:
        id (UUID):
        type_ (Literal['frame']):
    """

    id: UUID
    type_: Literal["frame"]

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

        type_ = cast(Literal["frame"], d.pop("type"))
        if type_ != "frame":
            raise ValueError(f"type must match const 'frame', got '{type_}'")

        webhook_payload_item_created_frame_change_subject = cls(
            id=id,
            type_=type_,
        )

        return webhook_payload_item_created_frame_change_subject
