from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookPayloadWebhookDisabledChangeNew")


@_attrs_define
class WebhookPayloadWebhookDisabledChangeNew:
    """
    Attributes:
        consecutive_failures (int):
        disabled_at (datetime.datetime):
        last_error (None | str):
        last_status_code (int | None):
        name (None | str):
        reason (None | str):
    """

    consecutive_failures: int
    disabled_at: datetime.datetime
    last_error: None | str
    last_status_code: int | None
    name: None | str
    reason: None | str

    def to_dict(self) -> dict[str, Any]:
        consecutive_failures = self.consecutive_failures

        disabled_at = self.disabled_at.isoformat()

        last_error: None | str
        last_error = self.last_error

        last_status_code: int | None
        last_status_code = self.last_status_code

        name: None | str
        name = self.name

        reason: None | str
        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "consecutiveFailures": consecutive_failures,
                "disabledAt": disabled_at,
                "lastError": last_error,
                "lastStatusCode": last_status_code,
                "name": name,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        consecutive_failures = d.pop("consecutiveFailures")

        disabled_at = datetime.datetime.fromisoformat(d.pop("disabledAt"))

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

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        webhook_payload_webhook_disabled_change_new = cls(
            consecutive_failures=consecutive_failures,
            disabled_at=disabled_at,
            last_error=last_error,
            last_status_code=last_status_code,
            name=name,
            reason=reason,
        )

        return webhook_payload_webhook_disabled_change_new
