from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeliveryAttempt")


@_attrs_define
class DeliveryAttempt:
    """One delivery attempt.

    Attributes:
        attempt (int):
        delivery_id (UUID):
        duration_ms (int):
        event (str): The event kind.
        event_id (UUID):
        attempted_at (datetime.datetime | None | Unset):
        error (None | str | Unset):
        status_code (int | None | Unset):
    """

    attempt: int
    delivery_id: UUID
    duration_ms: int
    event: str
    event_id: UUID
    attempted_at: datetime.datetime | None | Unset = UNSET
    error: None | str | Unset = UNSET
    status_code: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        delivery_id = str(self.delivery_id)

        duration_ms = self.duration_ms

        event = self.event

        event_id = str(self.event_id)

        attempted_at: None | str | Unset
        if isinstance(self.attempted_at, Unset):
            attempted_at = UNSET
        elif isinstance(self.attempted_at, datetime.datetime):
            attempted_at = self.attempted_at.isoformat()
        else:
            attempted_at = self.attempted_at

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        status_code: int | None | Unset
        if isinstance(self.status_code, Unset):
            status_code = UNSET
        else:
            status_code = self.status_code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Attempt": attempt,
                "DeliveryId": delivery_id,
                "DurationMs": duration_ms,
                "Event": event,
                "EventId": event_id,
            }
        )
        if attempted_at is not UNSET:
            field_dict["AttemptedAt"] = attempted_at
        if error is not UNSET:
            field_dict["Error"] = error
        if status_code is not UNSET:
            field_dict["StatusCode"] = status_code

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt = d.pop("Attempt")

        delivery_id = UUID(d.pop("DeliveryId"))

        duration_ms = d.pop("DurationMs")

        event = d.pop("Event")

        event_id = UUID(d.pop("EventId"))

        def _parse_attempted_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                attempted_at_type_0 = datetime.datetime.fromisoformat(data)

                return attempted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        attempted_at = _parse_attempted_at(d.pop("AttemptedAt", UNSET))

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("Error", UNSET))

        def _parse_status_code(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        status_code = _parse_status_code(d.pop("StatusCode", UNSET))

        delivery_attempt = cls(
            attempt=attempt,
            delivery_id=delivery_id,
            duration_ms=duration_ms,
            event=event,
            event_id=event_id,
            attempted_at=attempted_at,
            error=error,
            status_code=status_code,
        )

        delivery_attempt.additional_properties = d
        return delivery_attempt

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
