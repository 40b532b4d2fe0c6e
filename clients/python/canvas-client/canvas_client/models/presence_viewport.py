from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PresenceViewport")


@_attrs_define
class PresenceViewport:
    """A part of the map: its top-left corner and size, in map units.

    Attributes:
        height (float): Above 0, at most 10000000 map units.
        width (float): Above 0, at most 10000000 map units.
        x (float):
        y (float):
    """

    height: float
    width: float
    x: float
    y: float

    def to_dict(self) -> dict[str, Any]:
        height = self.height

        width = self.width

        x = self.x

        y = self.y

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "height": height,
                "width": width,
                "x": x,
                "y": y,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        height = d.pop("height")

        width = d.pop("width")

        x = d.pop("x")

        y = d.pop("y")

        presence_viewport = cls(
            height=height,
            width=width,
            x=x,
            y=y,
        )

        return presence_viewport
