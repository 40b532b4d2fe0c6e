from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.connector_item import ConnectorItem
from ...models.document_item import DocumentItem
from ...models.frame_item import FrameItem
from ...models.image_item import ImageItem
from ...models.json_casing import JsonCasing
from ...models.label_item import LabelItem
from ...models.problem import Problem
from ...models.shape_item import ShapeItem
from ...models.sticky_note_item import StickyNoteItem
from ...models.svg_item import SvgItem
from ...models.web_item import WebItem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: UUID,
    item_id: UUID,
    *,
    json_casing: JsonCasing | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
    if_match: None | str | Unset = UNSET,
    if_unmodified_since: None | str | Unset = UNSET,
    if_modified_since: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    if not isinstance(if_unmodified_since, Unset):
        headers["If-Unmodified-Since"] = if_unmodified_since

    if not isinstance(if_modified_since, Unset):
        headers["If-Modified-Since"] = if_modified_since

    params: dict[str, Any] = {}

    json_json_casing: str | Unset = UNSET
    if not isinstance(json_casing, Unset):
        json_json_casing = json_casing.value

    params["jsonCasing"] = json_json_casing

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/projects/{project_id}/item/{item_id}".format(
            project_id=quote(str(project_id), safe=""),
            item_id=quote(str(item_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Any
    | ConnectorItem
    | DocumentItem
    | FrameItem
    | ImageItem
    | LabelItem
    | ShapeItem
    | StickyNoteItem
    | SvgItem
    | WebItem
    | Problem
    | None
):
    if response.status_code == 200:

        def _parse_response_200(
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

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())

        return response_431

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = Problem.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    Any
    | ConnectorItem
    | DocumentItem
    | FrameItem
    | ImageItem
    | LabelItem
    | ShapeItem
    | StickyNoteItem
    | SvgItem
    | WebItem
    | Problem
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    project_id: UUID,
    item_id: UUID,
    *,
    client: AuthenticatedClient,
    json_casing: JsonCasing | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
    if_match: None | str | Unset = UNSET,
    if_unmodified_since: None | str | Unset = UNSET,
    if_modified_since: None | str | Unset = UNSET,
) -> Response[
    Any
    | ConnectorItem
    | DocumentItem
    | FrameItem
    | ImageItem
    | LabelItem
    | ShapeItem
    | StickyNoteItem
    | SvgItem
    | WebItem
    | Problem
]:
    """Read an item with all its properties

    Args:
        project_id (UUID):
        item_id (UUID):
        json_casing (JsonCasing | Unset):
        if_none_match (None | str | Unset):
        if_match (None | str | Unset):
        if_unmodified_since (None | str | Unset):
        if_modified_since (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ConnectorItem | DocumentItem | FrameItem | ImageItem | LabelItem | ShapeItem | StickyNoteItem | SvgItem | WebItem | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        item_id=item_id,
        json_casing=json_casing,
        if_none_match=if_none_match,
        if_match=if_match,
        if_unmodified_since=if_unmodified_since,
        if_modified_since=if_modified_since,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: UUID,
    item_id: UUID,
    *,
    client: AuthenticatedClient,
    json_casing: JsonCasing | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
    if_match: None | str | Unset = UNSET,
    if_unmodified_since: None | str | Unset = UNSET,
    if_modified_since: None | str | Unset = UNSET,
) -> (
    Any
    | ConnectorItem
    | DocumentItem
    | FrameItem
    | ImageItem
    | LabelItem
    | ShapeItem
    | StickyNoteItem
    | SvgItem
    | WebItem
    | Problem
    | None
):
    """Read an item with all its properties

    Args:
        project_id (UUID):
        item_id (UUID):
        json_casing (JsonCasing | Unset):
        if_none_match (None | str | Unset):
        if_match (None | str | Unset):
        if_unmodified_since (None | str | Unset):
        if_modified_since (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ConnectorItem | DocumentItem | FrameItem | ImageItem | LabelItem | ShapeItem | StickyNoteItem | SvgItem | WebItem | Problem
    """

    return sync_detailed(
        project_id=project_id,
        item_id=item_id,
        client=client,
        json_casing=json_casing,
        if_none_match=if_none_match,
        if_match=if_match,
        if_unmodified_since=if_unmodified_since,
        if_modified_since=if_modified_since,
    ).parsed


async def asyncio_detailed(
    project_id: UUID,
    item_id: UUID,
    *,
    client: AuthenticatedClient,
    json_casing: JsonCasing | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
    if_match: None | str | Unset = UNSET,
    if_unmodified_since: None | str | Unset = UNSET,
    if_modified_since: None | str | Unset = UNSET,
) -> Response[
    Any
    | ConnectorItem
    | DocumentItem
    | FrameItem
    | ImageItem
    | LabelItem
    | ShapeItem
    | StickyNoteItem
    | SvgItem
    | WebItem
    | Problem
]:
    """Read an item with all its properties

    Args:
        project_id (UUID):
        item_id (UUID):
        json_casing (JsonCasing | Unset):
        if_none_match (None | str | Unset):
        if_match (None | str | Unset):
        if_unmodified_since (None | str | Unset):
        if_modified_since (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ConnectorItem | DocumentItem | FrameItem | ImageItem | LabelItem | ShapeItem | StickyNoteItem | SvgItem | WebItem | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        item_id=item_id,
        json_casing=json_casing,
        if_none_match=if_none_match,
        if_match=if_match,
        if_unmodified_since=if_unmodified_since,
        if_modified_since=if_modified_since,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: UUID,
    item_id: UUID,
    *,
    client: AuthenticatedClient,
    json_casing: JsonCasing | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
    if_match: None | str | Unset = UNSET,
    if_unmodified_since: None | str | Unset = UNSET,
    if_modified_since: None | str | Unset = UNSET,
) -> (
    Any
    | ConnectorItem
    | DocumentItem
    | FrameItem
    | ImageItem
    | LabelItem
    | ShapeItem
    | StickyNoteItem
    | SvgItem
    | WebItem
    | Problem
    | None
):
    """Read an item with all its properties

    Args:
        project_id (UUID):
        item_id (UUID):
        json_casing (JsonCasing | Unset):
        if_none_match (None | str | Unset):
        if_match (None | str | Unset):
        if_unmodified_since (None | str | Unset):
        if_modified_since (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ConnectorItem | DocumentItem | FrameItem | ImageItem | LabelItem | ShapeItem | StickyNoteItem | SvgItem | WebItem | Problem
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            item_id=item_id,
            client=client,
            json_casing=json_casing,
            if_none_match=if_none_match,
            if_match=if_match,
            if_unmodified_since=if_unmodified_since,
            if_modified_since=if_modified_since,
        )
    ).parsed
