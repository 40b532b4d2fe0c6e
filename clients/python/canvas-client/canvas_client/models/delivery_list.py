from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.delivery_attempt import DeliveryAttempt


T = TypeVar("T", bound="DeliveryList")


@_attrs_define
class DeliveryList:
    """`GET .../webhooks/{webhookId}/deliveries`: recent attempts, newest first.

    Attributes:
        elements (list[DeliveryAttempt]):
    """

    elements: list[DeliveryAttempt]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        elements = []
        for elements_item_data in self.elements:
            elements_item = elements_item_data.to_dict()
            elements.append(elements_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Elements": elements,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_attempt import DeliveryAttempt  # noqa: PLC0415

        d = dict(src_dict)
        elements = []
        _elements = d.pop("Elements")
        for elements_item_data in _elements:
            elements_item = DeliveryAttempt.from_dict(elements_item_data)

            elements.append(elements_item)

        delivery_list = cls(
            elements=elements,
        )

        delivery_list.additional_properties = d
        return delivery_list

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
