from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_payload_comment_deleted_change_old import WebhookPayloadCommentDeletedChangeOld
    from ..models.webhook_payload_comment_deleted_change_subject import WebhookPayloadCommentDeletedChangeSubject


T = TypeVar("T", bound="WebhookPayloadCommentDeletedChange")


@_attrs_define
class WebhookPayloadCommentDeletedChange:
    """
    Attributes:
        actor_user_id (UUID):
        event_id (UUID): The same on every delivery of the event: drop repeats by it.
        item_id (None | UUID):
        kind (Literal['comment.deleted']):
        occurred_at (datetime.datetime):
        old (WebhookPayloadCommentDeletedChangeOld):
        seq (int): The event's place in the project's change log, as `GET .../changes` gives it; one item's changes have
            rising seqs.
        subject (WebhookPayloadCommentDeletedChangeSubject):
        thread_id (UUID): The thread: the id of its first comment.
    """

    actor_user_id: UUID
    event_id: UUID
    item_id: None | UUID
    kind: Literal["comment.deleted"]
    occurred_at: datetime.datetime
    old: WebhookPayloadCommentDeletedChangeOld
    seq: int
    subject: WebhookPayloadCommentDeletedChangeSubject
    thread_id: UUID

    def to_dict(self) -> dict[str, Any]:
        actor_user_id = str(self.actor_user_id)

        event_id = str(self.event_id)

        item_id: None | str
        if isinstance(self.item_id, UUID):
            item_id = str(self.item_id)
        else:
            item_id = self.item_id

        kind = self.kind

        occurred_at = self.occurred_at.isoformat()

        old = self.old.to_dict()

        seq = self.seq

        subject = self.subject.to_dict()

        thread_id = str(self.thread_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "actorUserId": actor_user_id,
                "eventId": event_id,
                "itemId": item_id,
                "kind": kind,
                "occurredAt": occurred_at,
                "old": old,
                "seq": seq,
                "subject": subject,
                "threadId": thread_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_comment_deleted_change_old import WebhookPayloadCommentDeletedChangeOld  # noqa: PLC0415
        from ..models.webhook_payload_comment_deleted_change_subject import WebhookPayloadCommentDeletedChangeSubject  # noqa: PLC0415

        d = dict(src_dict)
        actor_user_id = UUID(d.pop("actorUserId"))

        event_id = UUID(d.pop("eventId"))

        def _parse_item_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                item_id_type_0 = UUID(data)

                return item_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        item_id = _parse_item_id(d.pop("itemId"))

        kind = cast(Literal["comment.deleted"], d.pop("kind"))
        if kind != "comment.deleted":
            raise ValueError(f"kind must match const 'comment.deleted', got '{kind}'")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))

        old = WebhookPayloadCommentDeletedChangeOld.from_dict(d.pop("old"))

        seq = d.pop("seq")

        subject = WebhookPayloadCommentDeletedChangeSubject.from_dict(d.pop("subject"))

        thread_id = UUID(d.pop("threadId"))

        webhook_payload_comment_deleted_change = cls(
            actor_user_id=actor_user_id,
            event_id=event_id,
            item_id=item_id,
            kind=kind,
            occurred_at=occurred_at,
            old=old,
            seq=seq,
            subject=subject,
            thread_id=thread_id,
        )

        return webhook_payload_comment_deleted_change
