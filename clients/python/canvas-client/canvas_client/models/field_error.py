from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.field_error_reason import FieldErrorReason

T = TypeVar("T", bound="FieldError")


@_attrs_define
class FieldError:
    """One offending field of a 400.

    Attributes:
        field (str): The field's camelCase path (`size.width`, `startPoint.itemId`, `adjustmentValues[1]`).
        message (str): The rule it breaks.
        reason (FieldErrorReason):
    """

    field: str
    message: str
    reason: FieldErrorReason
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field = self.field

        message = self.message

        reason = self.reason.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Field": field,
                "Message": message,
                "Reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field = d.pop("Field")

        message = d.pop("Message")

        reason = FieldErrorReason(d.pop("Reason"))

        field_error = cls(
            field=field,
            message=message,
            reason=reason,
        )

        field_error.additional_properties = d
        return field_error

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
