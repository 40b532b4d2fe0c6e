from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.update_connector_body_properties import UpdateConnectorBodyProperties


T = TypeVar("T", bound="UpdateConnectorBody")


@_attrs_define
class UpdateConnectorBody:
    """A connector PATCH wraps the changes: `{"properties": {...}}`.

    Attributes:
        properties (UpdateConnectorBodyProperties):
        parent (None | str | Unset): Moves the connector (beyond the spec): `panel`, `inbox` or a frame's or shape's id.
    """

    properties: UpdateConnectorBodyProperties
    parent: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        properties = self.properties.to_dict()

        parent: None | str | Unset
        if isinstance(self.parent, Unset):
            parent = UNSET
        else:
            parent = self.parent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "properties": properties,
            }
        )
        if parent is not UNSET:
            field_dict["parent"] = parent

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_connector_body_properties import UpdateConnectorBodyProperties  # noqa: PLC0415

        d = dict(src_dict)
        properties = UpdateConnectorBodyProperties.from_dict(d.pop("properties"))

        def _parse_parent(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        parent = _parse_parent(d.pop("parent", UNSET))

        update_connector_body = cls(
            properties=properties,
            parent=parent,
        )

        return update_connector_body
