from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.create_diagram_body_format import CreateDiagramBodyFormat
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.diagram_position import DiagramPosition


T = TypeVar("T", bound="CreateDiagramBody")


@_attrs_define
class CreateDiagramBody:
    """`POST .../diagrams`.

    Attributes:
        source (str): The diagram's Mermaid text; its first word names the kind (the operation lists them).
        format_ (CreateDiagramBodyFormat | Unset): The diagram language. Default: CreateDiagramBodyFormat.MERMAID.
        frame (None | Unset | UUID): Draws the diagram inside this frame (its id; beyond the spec): its outer items
            become the
            frame's, and the frame grows to hold it.
        position (DiagramPosition | None | Unset):
    """

    source: str
    format_: CreateDiagramBodyFormat | Unset = CreateDiagramBodyFormat.MERMAID
    frame: None | Unset | UUID = UNSET
    position: DiagramPosition | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.diagram_position import DiagramPosition  # noqa: PLC0415

        source = self.source

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.value

        frame: None | str | Unset
        if isinstance(self.frame, Unset):
            frame = UNSET
        elif isinstance(self.frame, UUID):
            frame = str(self.frame)
        else:
            frame = self.frame

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, DiagramPosition):
            position = self.position.to_dict()
        else:
            position = self.position

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "source": source,
            }
        )
        if format_ is not UNSET:
            field_dict["format"] = format_
        if frame is not UNSET:
            field_dict["frame"] = frame
        if position is not UNSET:
            field_dict["position"] = position

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diagram_position import DiagramPosition  # noqa: PLC0415

        d = dict(src_dict)
        source = d.pop("source")

        _format_ = d.pop("format", UNSET)
        format_: CreateDiagramBodyFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = CreateDiagramBodyFormat(_format_)

        def _parse_frame(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                frame_type_0 = UUID(data)

                return frame_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        frame = _parse_frame(d.pop("frame", UNSET))

        def _parse_position(data: object) -> DiagramPosition | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_1 = DiagramPosition.from_dict(data)

                return position_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DiagramPosition | None | Unset, data)

        position = _parse_position(d.pop("position", UNSET))

        create_diagram_body = cls(
            source=source,
            format_=format_,
            frame=frame,
            position=position,
        )

        return create_diagram_body
