from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.update_diagram_body_format import UpdateDiagramBodyFormat
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateDiagramBody")


@_attrs_define
class UpdateDiagramBody:
    """`PUT .../diagrams/{diagramId}`.

    Attributes:
        source (str): The new source. Its items are updated in place: kept elements keep their items, people's
            changes on the map stay unless the source changed that very property (docs/diagrams/records.md).
        format_ (UpdateDiagramBodyFormat | Unset): The diagram language. Default: UpdateDiagramBodyFormat.MERMAID.
    """

    source: str
    format_: UpdateDiagramBodyFormat | Unset = UpdateDiagramBodyFormat.MERMAID

    def to_dict(self) -> dict[str, Any]:
        source = self.source

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "source": source,
            }
        )
        if format_ is not UNSET:
            field_dict["format"] = format_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        source = d.pop("source")

        _format_ = d.pop("format", UNSET)
        format_: UpdateDiagramBodyFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = UpdateDiagramBodyFormat(_format_)

        update_diagram_body = cls(
            source=source,
            format_=format_,
        )

        return update_diagram_body
