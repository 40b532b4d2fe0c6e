from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_kind import EventKind
from ..models.webhook_record_inactive import WebhookRecordInactive
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_status import WebhookStatus


T = TypeVar("T", bound="WebhookRecord")


@_attrs_define
class WebhookRecord:
    """A webhook record.

    Attributes:
        created_at (datetime.datetime): RFC 3339 with offset.
        enabled (bool):
        events (list[EventKind]): The event kinds: not empty, no duplicates.
        id (UUID):
        status (WebhookStatus): Delivery state of a webhook.
        url (str):
        custom_data (Any | Unset): Any JSON (at most 4096 bytes of JSON text), sent back byte for byte in every call.
        inactive (WebhookRecordInactive | Unset):
        max_deliveries_per_second (int | None | Unset): The most calls per second this webhook gets, 1 to 1000 (a token
            bucket holding one second of calls: a burst of that many, then that pace); null or absent: no limit. A
            receiver's 429 with Retry-After slows it further (docs/WEBHOOKS.md).
        name (str | Unset): Absent when none was given.
    """

    created_at: datetime.datetime
    enabled: bool
    events: list[EventKind]
    id: UUID
    status: WebhookStatus
    url: str
    custom_data: Any | Unset = UNSET
    inactive: WebhookRecordInactive | Unset = UNSET
    max_deliveries_per_second: int | None | Unset = UNSET
    name: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        enabled = self.enabled

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        id = str(self.id)

        status = self.status.to_dict()

        url = self.url

        custom_data = self.custom_data

        inactive: str | Unset = UNSET
        if not isinstance(self.inactive, Unset):
            inactive = self.inactive.value

        max_deliveries_per_second: int | None | Unset
        if isinstance(self.max_deliveries_per_second, Unset):
            max_deliveries_per_second = UNSET
        else:
            max_deliveries_per_second = self.max_deliveries_per_second

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "CreatedAt": created_at,
                "Enabled": enabled,
                "Events": events,
                "Id": id,
                "Status": status,
                "Url": url,
            }
        )
        if custom_data is not UNSET:
            field_dict["CustomData"] = custom_data
        if inactive is not UNSET:
            field_dict["Inactive"] = inactive
        if max_deliveries_per_second is not UNSET:
            field_dict["MaxDeliveriesPerSecond"] = max_deliveries_per_second
        if name is not UNSET:
            field_dict["Name"] = name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_status import WebhookStatus  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))

        enabled = d.pop("Enabled")

        events = []
        _events = d.pop("Events")
        for events_item_data in _events:
            events_item = EventKind(events_item_data)

            events.append(events_item)

        id = UUID(d.pop("Id"))

        status = WebhookStatus.from_dict(d.pop("Status"))

        url = d.pop("Url")

        custom_data = d.pop("CustomData", UNSET)

        _inactive = d.pop("Inactive", UNSET)
        inactive: WebhookRecordInactive | Unset
        if isinstance(_inactive, Unset):
            inactive = UNSET
        else:
            inactive = WebhookRecordInactive(_inactive)

        def _parse_max_deliveries_per_second(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_deliveries_per_second = _parse_max_deliveries_per_second(d.pop("MaxDeliveriesPerSecond", UNSET))

        name = d.pop("Name", UNSET)

        webhook_record = cls(
            created_at=created_at,
            enabled=enabled,
            events=events,
            id=id,
            status=status,
            url=url,
            custom_data=custom_data,
            inactive=inactive,
            max_deliveries_per_second=max_deliveries_per_second,
            name=name,
        )

        webhook_record.additional_properties = d
        return webhook_record

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
