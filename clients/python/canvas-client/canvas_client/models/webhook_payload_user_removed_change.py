from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_payload_user_removed_change_subject import WebhookPayloadUserRemovedChangeSubject


T = TypeVar("T", bound="WebhookPayloadUserRemovedChange")


@_attrs_define
class WebhookPayloadUserRemovedChange:
    """
    Attributes:
        actor_user_id (UUID):
        event_id (UUID): The same on every delivery of the event: drop repeats by it.
        kind (Literal['user.removed']):
        occurred_at (datetime.datetime):
        seq (int): The event's place in the project's change log, as `GET .../changes` gives it; one item's changes have
            rising seqs.
        subject (WebhookPayloadUserRemovedChangeSubject):
    """

    actor_user_id: UUID
    event_id: UUID
    kind: Literal["user.removed"]
    occurred_at: datetime.datetime
    seq: int
    subject: WebhookPayloadUserRemovedChangeSubject

    def to_dict(self) -> dict[str, Any]:
        actor_user_id = str(self.actor_user_id)

        event_id = str(self.event_id)

        kind = self.kind

        occurred_at = self.occurred_at.isoformat()

        seq = self.seq

        subject = self.subject.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "actorUserId": actor_user_id,
                "eventId": event_id,
                "kind": kind,
                "occurredAt": occurred_at,
                "seq": seq,
                "subject": subject,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_user_removed_change_subject import WebhookPayloadUserRemovedChangeSubject  # noqa: PLC0415

        d = dict(src_dict)
        actor_user_id = UUID(d.pop("actorUserId"))

        event_id = UUID(d.pop("eventId"))

        kind = cast(Literal["user.removed"], d.pop("kind"))
        if kind != "user.removed":
            raise ValueError(f"kind must match const 'user.removed', got '{kind}'")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))

        seq = d.pop("seq")

        subject = WebhookPayloadUserRemovedChangeSubject.from_dict(d.pop("subject"))

        webhook_payload_user_removed_change = cls(
            actor_user_id=actor_user_id,
            event_id=event_id,
            kind=kind,
            occurred_at=occurred_at,
            seq=seq,
            subject=subject,
        )

        return webhook_payload_user_removed_change
