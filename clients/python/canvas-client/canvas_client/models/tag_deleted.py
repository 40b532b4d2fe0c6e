from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.tag import Tag


T = TypeVar("T", bound="TagDeleted")


@_attrs_define
class TagDeleted:
    """What a tag delete did.

    Attributes:
        tag (Tag): A tag.
        untagged_item_ids (list[str]): The items it was taken off, each with its `item.updated` event.
    """

    tag: Tag
    untagged_item_ids: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tag = self.tag.to_dict()

        untagged_item_ids = self.untagged_item_ids

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Tag": tag,
                "UntaggedItemIds": untagged_item_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tag import Tag  # noqa: PLC0415

        d = dict(src_dict)
        tag = Tag.from_dict(d.pop("Tag"))

        untagged_item_ids = cast(list[str], d.pop("UntaggedItemIds"))

        tag_deleted = cls(
            tag=tag,
            untagged_item_ids=untagged_item_ids,
        )

        tag_deleted.additional_properties = d
        return tag_deleted

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
