from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_patch_position_type_0 import DocumentPatchPositionType0
    from ..models.document_patch_size_type_0 import DocumentPatchSizeType0


T = TypeVar("T", bound="DocumentPatch")


@_attrs_define
class DocumentPatch:
    """
    Attributes:
        angle (float | None | Unset):
        file_name (None | str | Unset):
        parent (str | Unset): Moves the item (beyond the spec): `panel`, `inbox`, or the id of a frame, shape or
            connector that may hold it (canvas_vocabulary::items::containers). Omitted: where it is.
        position (DocumentPatchPositionType0 | None | Unset):
        scale (float | None | Unset):
        size (DocumentPatchSizeType0 | None | Unset):
        tags (list[UUID] | None | Unset): ids of the project's tags (GET .../tags); each at most once
    """

    angle: float | None | Unset = UNSET
    file_name: None | str | Unset = UNSET
    parent: str | Unset = UNSET
    position: DocumentPatchPositionType0 | None | Unset = UNSET
    scale: float | None | Unset = UNSET
    size: DocumentPatchSizeType0 | None | Unset = UNSET
    tags: list[UUID] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_patch_position_type_0 import DocumentPatchPositionType0  # noqa: PLC0415
        from ..models.document_patch_size_type_0 import DocumentPatchSizeType0  # noqa: PLC0415

        angle: float | None | Unset
        if isinstance(self.angle, Unset):
            angle = UNSET
        else:
            angle = self.angle

        file_name: None | str | Unset
        if isinstance(self.file_name, Unset):
            file_name = UNSET
        else:
            file_name = self.file_name

        parent = self.parent

        position: dict[str, Any] | None | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, DocumentPatchPositionType0):
            position = self.position.to_dict()
        else:
            position = self.position

        scale: float | None | Unset
        if isinstance(self.scale, Unset):
            scale = UNSET
        else:
            scale = self.scale

        size: dict[str, Any] | None | Unset
        if isinstance(self.size, Unset):
            size = UNSET
        elif isinstance(self.size, DocumentPatchSizeType0):
            size = self.size.to_dict()
        else:
            size = self.size

        tags: list[str] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, list):
            tags = []
            for tags_type_0_item_data in self.tags:
                tags_type_0_item = str(tags_type_0_item_data)
                tags.append(tags_type_0_item)

        else:
            tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if angle is not UNSET:
            field_dict["angle"] = angle
        if file_name is not UNSET:
            field_dict["fileName"] = file_name
        if parent is not UNSET:
            field_dict["parent"] = parent
        if position is not UNSET:
            field_dict["position"] = position
        if scale is not UNSET:
            field_dict["scale"] = scale
        if size is not UNSET:
            field_dict["size"] = size
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_patch_position_type_0 import DocumentPatchPositionType0  # noqa: PLC0415
        from ..models.document_patch_size_type_0 import DocumentPatchSizeType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_angle(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        angle = _parse_angle(d.pop("angle", UNSET))

        def _parse_file_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        file_name = _parse_file_name(d.pop("fileName", UNSET))

        parent = d.pop("parent", UNSET)

        def _parse_position(data: object) -> DocumentPatchPositionType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_0 = DocumentPatchPositionType0.from_dict(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentPatchPositionType0 | None | Unset, data)

        position = _parse_position(d.pop("position", UNSET))

        def _parse_scale(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        scale = _parse_scale(d.pop("scale", UNSET))

        def _parse_size(data: object) -> DocumentPatchSizeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                size_type_0 = DocumentPatchSizeType0.from_dict(data)

                return size_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentPatchSizeType0 | None | Unset, data)

        size = _parse_size(d.pop("size", UNSET))

        def _parse_tags(data: object) -> list[UUID] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tags_type_0 = []
                _tags_type_0 = data
                for tags_type_0_item_data in _tags_type_0:
                    tags_type_0_item = UUID(tags_type_0_item_data)

                    tags_type_0.append(tags_type_0_item)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UUID] | None | Unset, data)

        tags = _parse_tags(d.pop("tags", UNSET))

        document_patch = cls(
            angle=angle,
            file_name=file_name,
            parent=parent,
            position=position,
            scale=scale,
            size=size,
            tags=tags,
        )

        return document_patch
