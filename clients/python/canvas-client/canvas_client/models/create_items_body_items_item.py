from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.create_items_body_items_item_type import CreateItemsBodyItemsItemType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_items_body_items_item_properties_type_0 import CreateItemsBodyItemsItemPropertiesType0


T = TypeVar("T", bound="CreateItemsBodyItemsItem")


@_attrs_define
class CreateItemsBodyItemsItem:
    """One item of a bulk create.

    Attributes:
        type_ (CreateItemsBodyItemsItemType): The item's type. Document and SVG items are created by upload only; an
            image may be created without bytes, as by its single create.
        parent (str | Unset): `panel` (default), `inbox`, an item id, or `ref:<ref>` of an item of the batch. Default:
            'panel'.
        properties (CreateItemsBodyItemsItemPropertiesType0 | None | Unset): Exactly the properties the single create of
            the type takes; a connector end's `itemId`
            may be `ref:<ref>`. core-service checks them.
        ref (str | Unset): Optional: 1 to 64 characters of letters, digits, '_', '-', '.' and ':', unique in the batch;
            other items name this one by writing "ref:<ref>" as a parent or a connector end's itemId.
    """

    type_: CreateItemsBodyItemsItemType
    parent: str | Unset = "panel"
    properties: CreateItemsBodyItemsItemPropertiesType0 | None | Unset = UNSET
    ref: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.create_items_body_items_item_properties_type_0 import CreateItemsBodyItemsItemPropertiesType0  # noqa: PLC0415

        type_ = self.type_.value

        parent = self.parent

        properties: dict[str, Any] | None | Unset
        if isinstance(self.properties, Unset):
            properties = UNSET
        elif isinstance(self.properties, CreateItemsBodyItemsItemPropertiesType0):
            properties = self.properties.to_dict()
        else:
            properties = self.properties

        ref = self.ref

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if parent is not UNSET:
            field_dict["parent"] = parent
        if properties is not UNSET:
            field_dict["properties"] = properties
        if ref is not UNSET:
            field_dict["ref"] = ref

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_items_body_items_item_properties_type_0 import CreateItemsBodyItemsItemPropertiesType0  # noqa: PLC0415

        d = dict(src_dict)
        type_ = CreateItemsBodyItemsItemType(d.pop("type"))

        parent = d.pop("parent", UNSET)

        def _parse_properties(data: object) -> CreateItemsBodyItemsItemPropertiesType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                properties_type_0 = CreateItemsBodyItemsItemPropertiesType0.from_dict(data)

                return properties_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateItemsBodyItemsItemPropertiesType0 | None | Unset, data)

        properties = _parse_properties(d.pop("properties", UNSET))

        ref = d.pop("ref", UNSET)

        create_items_body_items_item = cls(
            type_=type_,
            parent=parent,
            properties=properties,
            ref=ref,
        )

        return create_items_body_items_item
