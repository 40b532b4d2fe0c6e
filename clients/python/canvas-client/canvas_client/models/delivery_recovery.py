from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_recovery_state import DeliveryRecoveryState
from ..types import UNSET, Unset

T = TypeVar("T", bound="DeliveryRecovery")


@_attrs_define
class DeliveryRecovery:
    """A recovery: the job `POST .../recover` starts, and where its deliveries are.

    Attributes:
        created_at (datetime.datetime):
        delivered (int):
        failed (int): Given up after every attempt (they can be recovered again).
        project_id (UUID):
        queued (int): Waiting for the ones before them.
        recovery_id (UUID):
        sending (int): Being sent, or waiting for a retry after a failed attempt.
        since (datetime.datetime):
        state (DeliveryRecoveryState):
        total (int): Events it sends again, one delivery each, in the order they happened.
        until (datetime.datetime):
        webhook_id (UUID):
        finished_at (datetime.datetime | None | Unset): When the last of its deliveries was delivered or given up; null
            while it runs.
    """

    created_at: datetime.datetime
    delivered: int
    failed: int
    project_id: UUID
    queued: int
    recovery_id: UUID
    sending: int
    since: datetime.datetime
    state: DeliveryRecoveryState
    total: int
    until: datetime.datetime
    webhook_id: UUID
    finished_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        delivered = self.delivered

        failed = self.failed

        project_id = str(self.project_id)

        queued = self.queued

        recovery_id = str(self.recovery_id)

        sending = self.sending

        since = self.since.isoformat()

        state = self.state.value

        total = self.total

        until = self.until.isoformat()

        webhook_id = str(self.webhook_id)

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "CreatedAt": created_at,
                "Delivered": delivered,
                "Failed": failed,
                "ProjectId": project_id,
                "Queued": queued,
                "RecoveryId": recovery_id,
                "Sending": sending,
                "Since": since,
                "State": state,
                "Total": total,
                "Until": until,
                "WebhookId": webhook_id,
            }
        )
        if finished_at is not UNSET:
            field_dict["FinishedAt"] = finished_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        delivered = d.pop("Delivered")

        failed = d.pop("Failed")

        project_id = UUID(d.pop("ProjectId"))

        queued = d.pop("Queued")

        recovery_id = UUID(d.pop("RecoveryId"))

        sending = d.pop("Sending")

        since = datetime.datetime.fromisoformat(d.pop("Since"))

        state = DeliveryRecoveryState(d.pop("State"))

        total = d.pop("Total")

        until = datetime.datetime.fromisoformat(d.pop("Until"))

        webhook_id = UUID(d.pop("WebhookId"))

        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("FinishedAt", UNSET))

        delivery_recovery = cls(
            created_at=created_at,
            delivered=delivered,
            failed=failed,
            project_id=project_id,
            queued=queued,
            recovery_id=recovery_id,
            sending=sending,
            since=since,
            state=state,
            total=total,
            until=until,
            webhook_id=webhook_id,
            finished_at=finished_at,
        )

        delivery_recovery.additional_properties = d
        return delivery_recovery

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
