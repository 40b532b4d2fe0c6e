from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.decorator import Decorator
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_connector_body_start_point_position_type_0 import CreateConnectorBodyStartPointPositionType0


T = TypeVar("T", bound="CreateConnectorBodyStartPoint")


@_attrs_define
class CreateConnectorBodyStartPoint:
    """
    Attributes:
        decorator (Decorator | Unset):
        edge (bool | Unset): attach to the item's outline Default: True.
        item_id (None | Unset | UUID): another, non-connector item of the project to follow
        position (CreateConnectorBodyStartPointPositionType0 | None | Unset): required unless itemId is given; relative
            to that item when it is (default {0, 0})
    """

    decorator: Decorator | Unset = UNSET
    edge: bool | Unset = True
    item_id: None | Unset | UUID = UNSET
    position: CreateConnectorBodyStartPointPositionType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.create_connector_body_start_point_position_type_0 import (
            CreateConnectorBodyStartPointPositionType0,  # noqa: PLC0415
        )

        decorator: str | Unset = UNSET
        if not isinstance(self.decorator, Unset):
            decorator = self.decorator.value

        edge = self.edge

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
        elif isinstance(self.position, CreateConnectorBodyStartPointPositionType0):
            position = self.position.to_dict()
        else:
            position = self.position

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if decorator is not UNSET:
            field_dict["decorator"] = decorator
        if edge is not UNSET:
            field_dict["edge"] = edge
        if item_id is not UNSET:
            field_dict["itemId"] = item_id
        if position is not UNSET:
            field_dict["position"] = position

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_connector_body_start_point_position_type_0 import (
            CreateConnectorBodyStartPointPositionType0,  # noqa: PLC0415
        )

        d = dict(src_dict)
        _decorator = d.pop("decorator", UNSET)
        decorator: Decorator | Unset
        if isinstance(_decorator, Unset):
            decorator = UNSET
        else:
            decorator = Decorator(_decorator)

        edge = d.pop("edge", UNSET)

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

        def _parse_position(data: object) -> CreateConnectorBodyStartPointPositionType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_0 = CreateConnectorBodyStartPointPositionType0.from_dict(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateConnectorBodyStartPointPositionType0 | None | Unset, data)

        position = _parse_position(d.pop("position", UNSET))

        create_connector_body_start_point = cls(
            decorator=decorator,
            edge=edge,
            item_id=item_id,
            position=position,
        )

        return create_connector_body_start_point
