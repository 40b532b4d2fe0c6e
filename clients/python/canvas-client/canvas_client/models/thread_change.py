from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ThreadChange")


@_attrs_define
class ThreadChange:
    """`PATCH .../comments/{threadId}`: the first comment's new text (its author only), resolve
    (`true`) or reopen (`false`); a field not sent is kept.

        Attributes:
            resolved (bool | None | Unset):
            text (str | Unset): plain text or HTML under the label rule, 1 to 10000 characters; `@login` mentions a member
                (at most 50 people)
    """

    resolved: bool | None | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        resolved: bool | None | Unset
        if isinstance(self.resolved, Unset):
            resolved = UNSET
        else:
            resolved = self.resolved

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if resolved is not UNSET:
            field_dict["resolved"] = resolved
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_resolved(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        resolved = _parse_resolved(d.pop("resolved", UNSET))

        text = d.pop("text", UNSET)

        thread_change = cls(
            resolved=resolved,
            text=text,
        )

        return thread_change
