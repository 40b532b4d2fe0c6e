from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.update_connector_body_properties import UpdateConnectorBodyProperties


T = TypeVar("T", bound="UpdateConnectorBody")


@_attrs_define
class UpdateConnectorBody:
    """A connector PATCH wraps the changes: `{"properties": {...}}`.

    Attributes:
        properties (UpdateConnectorBodyProperties):
    """

    properties: UpdateConnectorBodyProperties

    def to_dict(self) -> dict[str, Any]:
        properties = self.properties.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "properties": properties,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_connector_body_properties import UpdateConnectorBodyProperties  # noqa: PLC0415

        d = dict(src_dict)
        properties = UpdateConnectorBodyProperties.from_dict(d.pop("properties"))

        update_connector_body = cls(
            properties=properties,
        )

        return update_connector_body
