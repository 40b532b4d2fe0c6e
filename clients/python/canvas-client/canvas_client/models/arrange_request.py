from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.arrange_request_style import ArrangeRequestStyle
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.diagram_position import DiagramPosition


T = TypeVar("T", bound="ArrangeRequest")


@_attrs_define
class ArrangeRequest:
    """`POST .../items/arrange`.

    Attributes:
        item_ids (list[UUID]): The items to move; connectors among them are skipped (they follow their ends).
        style (ArrangeRequestStyle): `grid` in the order given; `layered` along the connectors between the items; `tree`
            from the items no connector points to.
        position (DiagramPosition | None | Unset):
    """

    item_ids: list[UUID]
    style: ArrangeRequestStyle
    position: DiagramPosition | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.diagram_position import DiagramPosition  # noqa: PLC0415

        item_ids = []
        for item_ids_item_data in self.item_ids:
            item_ids_item = str(item_ids_item_data)
            item_ids.append(item_ids_item)

        style = self.style.value

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, DiagramPosition):
            position = self.position.to_dict()
        else:
            position = self.position

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "itemIds": item_ids,
                "style": style,
            }
        )
        if position is not UNSET:
            field_dict["position"] = position

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diagram_position import DiagramPosition  # noqa: PLC0415

        d = dict(src_dict)
        item_ids = []
        _item_ids = d.pop("itemIds")
        for item_ids_item_data in _item_ids:
            item_ids_item = UUID(item_ids_item_data)

            item_ids.append(item_ids_item)

        style = ArrangeRequestStyle(d.pop("style"))

        def _parse_position(data: object) -> DiagramPosition | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_1 = DiagramPosition.from_dict(data)

                return position_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DiagramPosition | None | Unset, data)

        position = _parse_position(d.pop("position", UNSET))

        arrange_request = cls(
            item_ids=item_ids,
            style=style,
            position=position,
        )

        return arrange_request
