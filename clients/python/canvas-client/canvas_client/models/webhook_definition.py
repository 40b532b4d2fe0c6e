from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.event_kind import EventKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookDefinition")


@_attrs_define
class WebhookDefinition:
    """A webhook definition (create, replace, test). Unknown names are a 400; the record's own
    read-only names (`id`, `createdAt`, `status`, `inactive`) are ignored, so a GET can be PUT back.

        Attributes:
            events (list[EventKind]): The event kinds: not empty, no duplicates.
            url (str): The absolute `https` URL receiving the calls.
            custom_data (Any | Unset): Any JSON (at most 4096 bytes of JSON text), sent back byte for byte in every call.
            enabled (bool | None | Unset): Disabled webhooks are kept but not called (default true).
            max_deliveries_per_second (int | None | Unset): The most calls per second this webhook gets, 1 to 1000 (a token
                bucket holding one second of calls: a burst of that many, then that pace); null or absent: no limit. A
                receiver's 429 with Retry-After slows it further (docs/WEBHOOKS.md).
            name (None | str | Unset): Display name, at most 128 characters.
    """

    events: list[EventKind]
    url: str
    custom_data: Any | Unset = UNSET
    enabled: bool | None | Unset = UNSET
    max_deliveries_per_second: int | None | Unset = UNSET
    name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        url = self.url

        custom_data = self.custom_data

        enabled: bool | None | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        else:
            enabled = self.enabled

        max_deliveries_per_second: int | None | Unset
        if isinstance(self.max_deliveries_per_second, Unset):
            max_deliveries_per_second = UNSET
        else:
            max_deliveries_per_second = self.max_deliveries_per_second

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
                "url": url,
            }
        )
        if custom_data is not UNSET:
            field_dict["customData"] = custom_data
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if max_deliveries_per_second is not UNSET:
            field_dict["maxDeliveriesPerSecond"] = max_deliveries_per_second
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = EventKind(events_item_data)

            events.append(events_item)

        url = d.pop("url")

        custom_data = d.pop("customData", UNSET)

        def _parse_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enabled = _parse_enabled(d.pop("enabled", UNSET))

        def _parse_max_deliveries_per_second(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_deliveries_per_second = _parse_max_deliveries_per_second(d.pop("maxDeliveriesPerSecond", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        webhook_definition = cls(
            events=events,
            url=url,
            custom_data=custom_data,
            enabled=enabled,
            max_deliveries_per_second=max_deliveries_per_second,
            name=name,
        )

        return webhook_definition
