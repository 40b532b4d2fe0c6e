from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.create_items_body_items_item import CreateItemsBodyItemsItem


T = TypeVar("T", bound="CreateItemsBody")


@_attrs_define
class CreateItemsBody:
    """`POST .../items/bulk`.

    Attributes:
        items (list[CreateItemsBodyItemsItem]): 1 to 1000 items, created in this order, all or none.
    """

    items: list[CreateItemsBodyItemsItem]

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "items": items,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_items_body_items_item import CreateItemsBodyItemsItem  # noqa: PLC0415

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = CreateItemsBodyItemsItem.from_dict(items_item_data)

            items.append(items_item)

        create_items_body = cls(
            items=items,
        )

        return create_items_body
