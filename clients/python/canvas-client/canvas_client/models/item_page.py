from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.connector_item import ConnectorItem
    from ..models.document_item import DocumentItem
    from ..models.frame_item import FrameItem
    from ..models.image_item import ImageItem
    from ..models.label_item import LabelItem
    from ..models.shape_item import ShapeItem
    from ..models.sticky_note_item import StickyNoteItem
    from ..models.svg_item import SvgItem
    from ..models.web_item import WebItem


T = TypeVar("T", bound="ItemPage")


@_attrs_define
class ItemPage:
    """`GET .../items`: a page in creation order.

    Attributes:
        items (list[ConnectorItem | DocumentItem | FrameItem | ImageItem | LabelItem | ShapeItem | StickyNoteItem |
            SvgItem | WebItem]):
        next_cursor (None | str): The cursor of the next page; null on the last one.
    """

    items: list[
        ConnectorItem
        | DocumentItem
        | FrameItem
        | ImageItem
        | LabelItem
        | ShapeItem
        | StickyNoteItem
        | SvgItem
        | WebItem
    ]
    next_cursor: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.connector_item import ConnectorItem  # noqa: PLC0415
        from ..models.document_item import DocumentItem  # noqa: PLC0415
        from ..models.image_item import ImageItem  # noqa: PLC0415
        from ..models.label_item import LabelItem  # noqa: PLC0415
        from ..models.shape_item import ShapeItem  # noqa: PLC0415
        from ..models.sticky_note_item import StickyNoteItem  # noqa: PLC0415
        from ..models.svg_item import SvgItem  # noqa: PLC0415
        from ..models.web_item import WebItem  # noqa: PLC0415

        items = []
        for items_item_data in self.items:
            items_item: dict[str, Any]
            if isinstance(items_item_data, LabelItem):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, StickyNoteItem):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, ShapeItem):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, ConnectorItem):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, WebItem):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, ImageItem):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, DocumentItem):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, SvgItem):
                items_item = items_item_data.to_dict()
            else:
                items_item = items_item_data.to_dict()

            items.append(items_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Items": items,
                "NextCursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.connector_item import ConnectorItem  # noqa: PLC0415
        from ..models.document_item import DocumentItem  # noqa: PLC0415
        from ..models.frame_item import FrameItem  # noqa: PLC0415
        from ..models.image_item import ImageItem  # noqa: PLC0415
        from ..models.label_item import LabelItem  # noqa: PLC0415
        from ..models.shape_item import ShapeItem  # noqa: PLC0415
        from ..models.sticky_note_item import StickyNoteItem  # noqa: PLC0415
        from ..models.svg_item import SvgItem  # noqa: PLC0415
        from ..models.web_item import WebItem  # noqa: PLC0415

        d = dict(src_dict)
        items = []
        _items = d.pop("Items")
        for items_item_data in _items:

            def _parse_items_item(
                data: object,
            ) -> (
                ConnectorItem
                | DocumentItem
                | FrameItem
                | ImageItem
                | LabelItem
                | ShapeItem
                | StickyNoteItem
                | SvgItem
                | WebItem
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_item_type_0 = LabelItem.from_dict(data)

                    return componentsschemas_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_item_type_1 = StickyNoteItem.from_dict(data)

                    return componentsschemas_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_item_type_2 = ShapeItem.from_dict(data)

                    return componentsschemas_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_item_type_3 = ConnectorItem.from_dict(data)

                    return componentsschemas_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_item_type_4 = WebItem.from_dict(data)

                    return componentsschemas_item_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_item_type_5 = ImageItem.from_dict(data)

                    return componentsschemas_item_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_item_type_6 = DocumentItem.from_dict(data)

                    return componentsschemas_item_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_item_type_7 = SvgItem.from_dict(data)

                    return componentsschemas_item_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_item_type_8 = FrameItem.from_dict(data)

                return componentsschemas_item_type_8

            items_item = _parse_items_item(items_item_data)

            items.append(items_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("NextCursor"))

        item_page = cls(
            items=items,
            next_cursor=next_cursor,
        )

        item_page.additional_properties = d
        return item_page

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
