from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

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
        kind (None | str | Unset): The kind the new source is (`flowchart`, `sequence`, `mindmap`, `class`, `er`,
            `state`):
            needed only to change the diagram's kind; a source of another kind without it is a 400
            naming `source`.
    """

    source: str
    format_: UpdateDiagramBodyFormat | Unset = UpdateDiagramBodyFormat.MERMAID
    kind: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        source = self.source

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.value

        kind: None | str | Unset
        if isinstance(self.kind, Unset):
            kind = UNSET
        else:
            kind = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "source": source,
            }
        )
        if format_ is not UNSET:
            field_dict["format"] = format_
        if kind is not UNSET:
            field_dict["kind"] = kind

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

        def _parse_kind(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kind = _parse_kind(d.pop("kind", UNSET))

        update_diagram_body = cls(
            source=source,
            format_=format_,
            kind=kind,
        )

        return update_diagram_body
