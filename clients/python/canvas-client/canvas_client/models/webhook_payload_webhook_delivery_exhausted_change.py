from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_payload_webhook_delivery_exhausted_change_new import (
        WebhookPayloadWebhookDeliveryExhaustedChangeNew,
    )
    from ..models.webhook_payload_webhook_delivery_exhausted_change_subject import (
        WebhookPayloadWebhookDeliveryExhaustedChangeSubject,
    )


T = TypeVar("T", bound="WebhookPayloadWebhookDeliveryExhaustedChange")


@_attrs_define
class WebhookPayloadWebhookDeliveryExhaustedChange:
    """
    Attributes:
        event_id (UUID): The same on every delivery of the event: drop repeats by it.
        kind (Literal['webhook.deliveryExhausted']):
        new (WebhookPayloadWebhookDeliveryExhaustedChangeNew):
        occurred_at (datetime.datetime):
        seq (int): The event's place in the project's change log, as `GET .../changes` gives it; one item's changes have
            rising seqs.
        subject (WebhookPayloadWebhookDeliveryExhaustedChangeSubject):
    """

    event_id: UUID
    kind: Literal["webhook.deliveryExhausted"]
    new: WebhookPayloadWebhookDeliveryExhaustedChangeNew
    occurred_at: datetime.datetime
    seq: int
    subject: WebhookPayloadWebhookDeliveryExhaustedChangeSubject

    def to_dict(self) -> dict[str, Any]:
        event_id = str(self.event_id)

        kind = self.kind

        new = self.new.to_dict()

        occurred_at = self.occurred_at.isoformat()

        seq = self.seq

        subject = self.subject.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "eventId": event_id,
                "kind": kind,
                "new": new,
                "occurredAt": occurred_at,
                "seq": seq,
                "subject": subject,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_payload_webhook_delivery_exhausted_change_new import (
            WebhookPayloadWebhookDeliveryExhaustedChangeNew,  # noqa: PLC0415
        )
        from ..models.webhook_payload_webhook_delivery_exhausted_change_subject import (
            WebhookPayloadWebhookDeliveryExhaustedChangeSubject,  # noqa: PLC0415
        )

        d = dict(src_dict)
        event_id = UUID(d.pop("eventId"))

        kind = cast(Literal["webhook.deliveryExhausted"], d.pop("kind"))
        if kind != "webhook.deliveryExhausted":
            raise ValueError(f"kind must match const 'webhook.deliveryExhausted', got '{kind}'")

        new = WebhookPayloadWebhookDeliveryExhaustedChangeNew.from_dict(d.pop("new"))

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))

        seq = d.pop("seq")

        subject = WebhookPayloadWebhookDeliveryExhaustedChangeSubject.from_dict(d.pop("subject"))

        webhook_payload_webhook_delivery_exhausted_change = cls(
            event_id=event_id,
            kind=kind,
            new=new,
            occurred_at=occurred_at,
            seq=seq,
            subject=subject,
        )

        return webhook_payload_webhook_delivery_exhausted_change
