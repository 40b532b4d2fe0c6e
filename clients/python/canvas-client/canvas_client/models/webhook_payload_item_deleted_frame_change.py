from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_payload_item_deleted_frame_change_old import WebhookPayloadItemDeletedFrameChangeOld
    from ..models.webhook_payload_item_deleted_frame_change_subject import WebhookPayloadItemDeletedFrameChangeSubject


T = TypeVar("T", bound="WebhookPayloadItemDeletedFrameChange")


@_attrs_define
class WebhookPayloadItemDeletedFrameChange:
    """`item.deleted` of a frame

    Attributes:
        actor_user_id (UUID):
        event_id (UUID): The same on every delivery of the event: drop repeats by it.
        kind (Literal['item.deleted']):
        occurred_at (datetime.datetime):
        old (WebhookPayloadItemDeletedFrameChangeOld):
        parent (str): `panel`, `inbox` or the id of the container item that holds it
        seq (int): The event's place in the project's change log, as `GET .../changes` gives it; one item's changes have
            rising seqs.
        subject (WebhookPayloadItemDeletedFrameChangeSubject):
    """

    actor_user_id: UUID
    event_id: UUID
    kind: Literal["item.deleted"]
    occurred_at: datetime.datetime
    old: WebhookPayloadItemDeletedFrameChangeOld
    parent: str
    seq: int
    subject: WebhookPayloadItemDeletedFrameChangeSubject

    def to_dict(self) -> dict[str, Any]:
        actor_user_id = str(self.actor_user_id)

        event_id = str(self.event_id)

        kind = self.kind

        occurred_at = self.occurred_at.isoformat()

        old = self.old.to_dict()

        parent = self.parent

        seq = self.seq

        subject = self.subject.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "actorUserId": actor_user_id,
                "eventId": event_id,
                "kind": kind,
                "occurredAt": occurred_at,
                "old": old,
                "parent": parent,
                "seq": seq,
                "subject": subject,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_item_deleted_frame_change_old import WebhookPayloadItemDeletedFrameChangeOld  # noqa: PLC0415
        from ..models.webhook_payload_item_deleted_frame_change_subject import (
            WebhookPayloadItemDeletedFrameChangeSubject,  # noqa: PLC0415
        )

        d = dict(src_dict)
        actor_user_id = UUID(d.pop("actorUserId"))

        event_id = UUID(d.pop("eventId"))

        kind = cast(Literal["item.deleted"], d.pop("kind"))
        if kind != "item.deleted":
            raise ValueError(f"kind must match const 'item.deleted', got '{kind}'")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))

        old = WebhookPayloadItemDeletedFrameChangeOld.from_dict(d.pop("old"))

        parent = d.pop("parent")

        seq = d.pop("seq")

        subject = WebhookPayloadItemDeletedFrameChangeSubject.from_dict(d.pop("subject"))

        webhook_payload_item_deleted_frame_change = cls(
            actor_user_id=actor_user_id,
            event_id=event_id,
            kind=kind,
            occurred_at=occurred_at,
            old=old,
            parent=parent,
            seq=seq,
            subject=subject,
        )

        return webhook_payload_item_deleted_frame_change
