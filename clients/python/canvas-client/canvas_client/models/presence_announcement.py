from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.presence_cursor import PresenceCursor
    from ..models.presence_viewport import PresenceViewport


T = TypeVar("T", bound="PresenceAnnouncement")


@_attrs_define
class PresenceAnnouncement:
    """`POST .../presence`: what one open map says about itself.

    Attributes:
        client_id (str): The open map's own id, kept while it is open.
        cursor (None | PresenceCursor | Unset):
        leaving (bool | Unset): The map is being closed: the client leaves at once.
        selection (list[str] | Unset): The selected items (at most 200).
        summon (bool | Unset): "Bring everyone here": every other open map is asked to follow this one's view (needs
            `viewport`). Passed on once; a map opened later is not summoned.
        viewport (None | PresenceViewport | Unset):
    """

    client_id: str
    cursor: None | PresenceCursor | Unset = UNSET
    leaving: bool | Unset = UNSET
    selection: list[str] | Unset = UNSET
    summon: bool | Unset = UNSET
    viewport: None | PresenceViewport | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.presence_cursor import PresenceCursor  # noqa: PLC0415
        from ..models.presence_viewport import PresenceViewport  # noqa: PLC0415

        client_id = self.client_id

        cursor: dict[str, Any] | None | Unset
        if isinstance(self.cursor, Unset):
            cursor = UNSET
        elif isinstance(self.cursor, PresenceCursor):
            cursor = self.cursor.to_dict()
        else:
            cursor = self.cursor

        leaving = self.leaving

        selection: list[str] | Unset = UNSET
        if not isinstance(self.selection, Unset):
            selection = self.selection

        summon = self.summon

        viewport: dict[str, Any] | None | Unset
        if isinstance(self.viewport, Unset):
            viewport = UNSET
        elif isinstance(self.viewport, PresenceViewport):
            viewport = self.viewport.to_dict()
        else:
            viewport = self.viewport

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "clientId": client_id,
            }
        )
        if cursor is not UNSET:
            field_dict["cursor"] = cursor
        if leaving is not UNSET:
            field_dict["leaving"] = leaving
        if selection is not UNSET:
            field_dict["selection"] = selection
        if summon is not UNSET:
            field_dict["summon"] = summon
        if viewport is not UNSET:
            field_dict["viewport"] = viewport

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.presence_cursor import PresenceCursor  # noqa: PLC0415
        from ..models.presence_viewport import PresenceViewport  # noqa: PLC0415

        d = dict(src_dict)
        client_id = d.pop("clientId")

        def _parse_cursor(data: object) -> None | PresenceCursor | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                cursor_type_1 = PresenceCursor.from_dict(data)

                return cursor_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PresenceCursor | Unset, data)

        cursor = _parse_cursor(d.pop("cursor", UNSET))

        leaving = d.pop("leaving", UNSET)

        selection = cast(list[str], d.pop("selection", UNSET))

        summon = d.pop("summon", UNSET)

        def _parse_viewport(data: object) -> None | PresenceViewport | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                viewport_type_1 = PresenceViewport.from_dict(data)

                return viewport_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PresenceViewport | Unset, data)

        viewport = _parse_viewport(d.pop("viewport", UNSET))

        presence_announcement = cls(
            client_id=client_id,
            cursor=cursor,
            leaving=leaving,
            selection=selection,
            summon=summon,
            viewport=viewport,
        )

        return presence_announcement
