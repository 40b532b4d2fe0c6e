from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_payload_user_role_changed_change_new import WebhookPayloadUserRoleChangedChangeNew
    from ..models.webhook_payload_user_role_changed_change_old import WebhookPayloadUserRoleChangedChangeOld
    from ..models.webhook_payload_user_role_changed_change_subject import WebhookPayloadUserRoleChangedChangeSubject


T = TypeVar("T", bound="WebhookPayloadUserRoleChangedChange")


@_attrs_define
class WebhookPayloadUserRoleChangedChange:
    """
    Attributes:
        actor_user_id (UUID):
        event_id (UUID): The same on every delivery of the event: drop repeats by it.
        kind (Literal['user.roleChanged']):
        new (WebhookPayloadUserRoleChangedChangeNew):
        occurred_at (datetime.datetime):
        old (WebhookPayloadUserRoleChangedChangeOld):
        seq (int): The event's place in the project's change log, as `GET .../changes` gives it; one item's changes have
            rising seqs.
        subject (WebhookPayloadUserRoleChangedChangeSubject):
    """

    actor_user_id: UUID
    event_id: UUID
    kind: Literal["user.roleChanged"]
    new: WebhookPayloadUserRoleChangedChangeNew
    occurred_at: datetime.datetime
    old: WebhookPayloadUserRoleChangedChangeOld
    seq: int
    subject: WebhookPayloadUserRoleChangedChangeSubject

    def to_dict(self) -> dict[str, Any]:
        actor_user_id = str(self.actor_user_id)

        event_id = str(self.event_id)

        kind = self.kind

        new = self.new.to_dict()

        occurred_at = self.occurred_at.isoformat()

        old = self.old.to_dict()

        seq = self.seq

        subject = self.subject.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "actorUserId": actor_user_id,
                "eventId": event_id,
                "kind": kind,
                "new": new,
                "occurredAt": occurred_at,
                "old": old,
                "seq": seq,
                "subject": subject,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_user_role_changed_change_new import WebhookPayloadUserRoleChangedChangeNew  # noqa: PLC0415
        from ..models.webhook_payload_user_role_changed_change_old import WebhookPayloadUserRoleChangedChangeOld  # noqa: PLC0415
        from ..models.webhook_payload_user_role_changed_change_subject import WebhookPayloadUserRoleChangedChangeSubject  # noqa: PLC0415

        d = dict(src_dict)
        actor_user_id = UUID(d.pop("actorUserId"))

        event_id = UUID(d.pop("eventId"))

        kind = cast(Literal["user.roleChanged"], d.pop("kind"))
        if kind != "user.roleChanged":
            raise ValueError(f"kind must match const 'user.roleChanged', got '{kind}'")

        new = WebhookPayloadUserRoleChangedChangeNew.from_dict(d.pop("new"))

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))

        old = WebhookPayloadUserRoleChangedChangeOld.from_dict(d.pop("old"))

        seq = d.pop("seq")

        subject = WebhookPayloadUserRoleChangedChangeSubject.from_dict(d.pop("subject"))

        webhook_payload_user_role_changed_change = cls(
            actor_user_id=actor_user_id,
            event_id=event_id,
            kind=kind,
            new=new,
            occurred_at=occurred_at,
            old=old,
            seq=seq,
            subject=subject,
        )

        return webhook_payload_user_role_changed_change
