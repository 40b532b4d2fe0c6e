from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_payload_item_updated_sticky_note_change_new import (
        WebhookPayloadItemUpdatedStickyNoteChangeNew,
    )
    from ..models.webhook_payload_item_updated_sticky_note_change_old import (
        WebhookPayloadItemUpdatedStickyNoteChangeOld,
    )
    from ..models.webhook_payload_item_updated_sticky_note_change_subject import (
        WebhookPayloadItemUpdatedStickyNoteChangeSubject,
    )


T = TypeVar("T", bound="WebhookPayloadItemUpdatedStickyNoteChange")


@_attrs_define
class WebhookPayloadItemUpdatedStickyNoteChange:
    """`item.updated` of a sticky-note

    Attributes:
        actor_user_id (UUID):
        event_id (UUID): The same on every delivery of the event: drop repeats by it.
        kind (Literal['item.updated']):
        new (WebhookPayloadItemUpdatedStickyNoteChangeNew):
        occurred_at (datetime.datetime):
        old (WebhookPayloadItemUpdatedStickyNoteChangeOld):
        parent (str): `panel`, `inbox` or the id of the container item that holds it
        seq (int): The event's place in the project's change log, as `GET .../changes` gives it; one item's changes have
            rising seqs.
        subject (WebhookPayloadItemUpdatedStickyNoteChangeSubject):
        old_parent (str | Unset): Where the item was before this update moved it into or out of a container (beyond the
            spec); absent when it did not move
    """

    actor_user_id: UUID
    event_id: UUID
    kind: Literal["item.updated"]
    new: WebhookPayloadItemUpdatedStickyNoteChangeNew
    occurred_at: datetime.datetime
    old: WebhookPayloadItemUpdatedStickyNoteChangeOld
    parent: str
    seq: int
    subject: WebhookPayloadItemUpdatedStickyNoteChangeSubject
    old_parent: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        actor_user_id = str(self.actor_user_id)

        event_id = str(self.event_id)

        kind = self.kind

        new = self.new.to_dict()

        occurred_at = self.occurred_at.isoformat()

        old = self.old.to_dict()

        parent = self.parent

        seq = self.seq

        subject = self.subject.to_dict()

        old_parent = self.old_parent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "actorUserId": actor_user_id,
                "eventId": event_id,
                "kind": kind,
                "new": new,
                "occurredAt": occurred_at,
                "old": old,
                "parent": parent,
                "seq": seq,
                "subject": subject,
            }
        )
        if old_parent is not UNSET:
            field_dict["oldParent"] = old_parent

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_item_updated_sticky_note_change_new import (
            WebhookPayloadItemUpdatedStickyNoteChangeNew,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_updated_sticky_note_change_old import (
            WebhookPayloadItemUpdatedStickyNoteChangeOld,  # noqa: PLC0415
        )
        from ..models.webhook_payload_item_updated_sticky_note_change_subject import (
            WebhookPayloadItemUpdatedStickyNoteChangeSubject,  # noqa: PLC0415
        )

        d = dict(src_dict)
        actor_user_id = UUID(d.pop("actorUserId"))

        event_id = UUID(d.pop("eventId"))

        kind = cast(Literal["item.updated"], d.pop("kind"))
        if kind != "item.updated":
            raise ValueError(f"kind must match const 'item.updated', got '{kind}'")

        new = WebhookPayloadItemUpdatedStickyNoteChangeNew.from_dict(d.pop("new"))

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))

        old = WebhookPayloadItemUpdatedStickyNoteChangeOld.from_dict(d.pop("old"))

        parent = d.pop("parent")

        seq = d.pop("seq")

        subject = WebhookPayloadItemUpdatedStickyNoteChangeSubject.from_dict(d.pop("subject"))

        old_parent = d.pop("oldParent", UNSET)

        webhook_payload_item_updated_sticky_note_change = cls(
            actor_user_id=actor_user_id,
            event_id=event_id,
            kind=kind,
            new=new,
            occurred_at=occurred_at,
            old=old,
            parent=parent,
            seq=seq,
            subject=subject,
            old_parent=old_parent,
        )

        return webhook_payload_item_updated_sticky_note_change
