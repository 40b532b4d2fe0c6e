from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.diagram_listed import DiagramListed


T = TypeVar("T", bound="DiagramPage")


@_attrs_define
class DiagramPage:
    """A page of diagram records.

    Attributes:
        diagrams (list[DiagramListed]):
        next_cursor (None | str | Unset): The `cursor` of the next page; null at the end.
    """

    diagrams: list[DiagramListed]
    next_cursor: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        diagrams = []
        for diagrams_item_data in self.diagrams:
            diagrams_item = diagrams_item_data.to_dict()
            diagrams.append(diagrams_item)

        next_cursor: None | str | Unset
        if isinstance(self.next_cursor, Unset):
            next_cursor = UNSET
        else:
            next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Diagrams": diagrams,
            }
        )
        if next_cursor is not UNSET:
            field_dict["NextCursor"] = next_cursor

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diagram_listed import DiagramListed  # noqa: PLC0415

        d = dict(src_dict)
        diagrams = []
        _diagrams = d.pop("Diagrams")
        for diagrams_item_data in _diagrams:
            diagrams_item = DiagramListed.from_dict(diagrams_item_data)

            diagrams.append(diagrams_item)

        def _parse_next_cursor(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        next_cursor = _parse_next_cursor(d.pop("NextCursor", UNSET))

        diagram_page = cls(
            diagrams=diagrams,
            next_cursor=next_cursor,
        )

        diagram_page.additional_properties = d
        return diagram_page

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
