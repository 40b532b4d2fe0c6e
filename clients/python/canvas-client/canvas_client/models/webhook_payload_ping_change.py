from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookPayloadPingChange")


@_attrs_define
class WebhookPayloadPingChange:
    """
    Attributes:
        kind (Literal['ping']):
        occurred_at (datetime.datetime):
    """

    kind: Literal["ping"]
    occurred_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        occurred_at = self.occurred_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "occurredAt": occurred_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal["ping"], d.pop("kind"))
        if kind != "ping":
            raise ValueError(f"kind must match const 'ping', got '{kind}'")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))

        webhook_payload_ping_change = cls(
            kind=kind,
            occurred_at=occurred_at,
        )

        return webhook_payload_ping_change
