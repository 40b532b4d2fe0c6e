from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.webhook_payload_webhook_delivery_exhausted_change_new_event_kind import (
    WebhookPayloadWebhookDeliveryExhaustedChangeNewEventKind,
)

T = TypeVar("T", bound="WebhookPayloadWebhookDeliveryExhaustedChangeNew")


@_attrs_define
class WebhookPayloadWebhookDeliveryExhaustedChangeNew:
    """
    Attributes:
        attempts (int):
        delivery_id (UUID):
        event_id (UUID):
        event_kind (WebhookPayloadWebhookDeliveryExhaustedChangeNewEventKind):
        event_occurred_at (datetime.datetime):
        last_error (None | str):
        last_status_code (int | None):
        name (None | str):
    """

    attempts: int
    delivery_id: UUID
    event_id: UUID
    event_kind: WebhookPayloadWebhookDeliveryExhaustedChangeNewEventKind
    event_occurred_at: datetime.datetime
    last_error: None | str
    last_status_code: int | None
    name: None | str

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        delivery_id = str(self.delivery_id)

        event_id = str(self.event_id)

        event_kind = self.event_kind.value

        event_occurred_at = self.event_occurred_at.isoformat()

        last_error: None | str
        last_error = self.last_error

        last_status_code: int | None
        last_status_code = self.last_status_code

        name: None | str
        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempts": attempts,
                "deliveryId": delivery_id,
                "eventId": event_id,
                "eventKind": event_kind,
                "eventOccurredAt": event_occurred_at,
                "lastError": last_error,
                "lastStatusCode": last_status_code,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        delivery_id = UUID(d.pop("deliveryId"))

        event_id = UUID(d.pop("eventId"))

        event_kind = WebhookPayloadWebhookDeliveryExhaustedChangeNewEventKind(d.pop("eventKind"))

        event_occurred_at = datetime.datetime.fromisoformat(d.pop("eventOccurredAt"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("lastError"))

        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("lastStatusCode"))

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        webhook_payload_webhook_delivery_exhausted_change_new = cls(
            attempts=attempts,
            delivery_id=delivery_id,
            event_id=event_id,
            event_kind=event_kind,
            event_occurred_at=event_occurred_at,
            last_error=last_error,
            last_status_code=last_status_code,
            name=name,
        )

        return webhook_payload_webhook_delivery_exhausted_change_new
