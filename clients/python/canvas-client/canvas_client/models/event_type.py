from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_type_name import EventTypeName

if TYPE_CHECKING:
    from ..models.event_type_schema import EventTypeSchema


T = TypeVar("T", bound="EventType")


@_attrs_define
class EventType:
    """One kind of webhook call.

    Attributes:
        description (str): When it is sent.
        name (EventTypeName):
        schema (EventTypeSchema): A JSON Schema (draft 2020-12) document.
    """

    description: str
    name: EventTypeName
    schema: EventTypeSchema
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        name = self.name.value

        schema = self.schema.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "description": description,
                "name": name,
                "schema": schema,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_type_schema import EventTypeSchema  # noqa: PLC0415

        d = dict(src_dict)
        description = d.pop("description")

        name = EventTypeName(d.pop("name"))

        schema = EventTypeSchema.from_dict(d.pop("schema"))

        event_type = cls(
            description=description,
            name=name,
            schema=schema,
        )

        event_type.additional_properties = d
        return event_type

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
