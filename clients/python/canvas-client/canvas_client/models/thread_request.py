from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.comment_position import CommentPosition


T = TypeVar("T", bound="ThreadRequest")


@_attrs_define
class ThreadRequest:
    """`POST .../comments`: a thread's first comment and where it is (an item or a point, not both).

    Attributes:
        item_id (None | Unset | UUID):
        position (CommentPosition | None | Unset):
        text (str | Unset): plain text or HTML under the label rule, 1 to 10000 characters; `@login` mentions a member
            (at most 50 people)
    """

    item_id: None | Unset | UUID = UNSET
    position: CommentPosition | None | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.comment_position import CommentPosition  # noqa: PLC0415

        item_id: None | str | Unset
        if isinstance(self.item_id, Unset):
            item_id = UNSET
        elif isinstance(self.item_id, UUID):
            item_id = str(self.item_id)
        else:
            item_id = self.item_id

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, CommentPosition):
            position = self.position.to_dict()
        else:
            position = self.position

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if item_id is not UNSET:
            field_dict["itemId"] = item_id
        if position is not UNSET:
            field_dict["position"] = position
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.comment_position import CommentPosition  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_item_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                item_id_type_0 = UUID(data)

                return item_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        item_id = _parse_item_id(d.pop("itemId", UNSET))

        def _parse_position(data: object) -> CommentPosition | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_1 = CommentPosition.from_dict(data)

                return position_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CommentPosition | None | Unset, data)

        position = _parse_position(d.pop("position", UNSET))

        text = d.pop("text", UNSET)

        thread_request = cls(
            item_id=item_id,
            position=position,
            text=text,
        )

        return thread_request
