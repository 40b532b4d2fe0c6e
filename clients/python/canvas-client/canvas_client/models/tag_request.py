from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TagRequest")


@_attrs_define
class TagRequest:
    """`POST .../tags` and `PATCH .../tags/{tagId}`: on a create `name` is required and `color`
    defaults; on an update each field sent is changed and the others kept.

        Attributes:
            color (str | Unset): hex colour only: #RRGGBB, #AARRGGBB (alpha first) or #RGB; #8A8F98 on a create without one
            name (str | Unset): 1 to 120 characters, trimmed; unique in the project ignoring case (required on a create)
    """

    color: str | Unset = UNSET
    name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        color = self.color

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if color is not UNSET:
            field_dict["color"] = color
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        color = d.pop("color", UNSET)

        name = d.pop("name", UNSET)

        tag_request = cls(
            color=color,
            name=name,
        )

        return tag_request
