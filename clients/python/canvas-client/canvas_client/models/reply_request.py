from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ReplyRequest")


@_attrs_define
class ReplyRequest:
    """`POST .../comments/{threadId}/replies` and `PATCH .../replies/{commentId}`.

    Attributes:
        text (str | Unset): plain text or HTML under the label rule, 1 to 10000 characters; `@login` mentions a member
            (at most 50 people)
    """

    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        text = d.pop("text", UNSET)

        reply_request = cls(
            text=text,
        )

        return reply_request
