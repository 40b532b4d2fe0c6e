from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.frame_patch import FramePatch
from ...models.item_ref import ItemRef
from ...models.json_casing import JsonCasing
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: UUID,
    item_id: UUID,
    *,
    body: FramePatch,
    json_casing: JsonCasing | Unset = UNSET,
    if_match: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
    if_unmodified_since: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    if not isinstance(if_unmodified_since, Unset):
        headers["If-Unmodified-Since"] = if_unmodified_since

    params: dict[str, Any] = {}

    json_json_casing: str | Unset = UNSET
    if not isinstance(json_casing, Unset):
        json_json_casing = json_casing.value

    params["jsonCasing"] = json_json_casing

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v2/projects/{project_id}/item/frame/{item_id}".format(
            project_id=quote(str(project_id), safe=""),
            item_id=quote(str(item_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ItemRef | Problem | None:
    if response.status_code == 200:
        response_200 = ItemRef.from_dict(response.json())

        return response_200

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

    if response.status_code == 408:
        response_408 = Problem.from_dict(response.json())

        return response_408

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ItemRef | Problem]:
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
    body: FramePatch,
    json_casing: JsonCasing | Unset = UNSET,
    if_match: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
    if_unmodified_since: str | Unset = UNSET,
) -> Response[ItemRef | Problem]:
    """Change a frame item

     Only the properties to change; `null` resets an optional property to its default.

    Args:
        project_id (UUID):
        item_id (UUID):
        json_casing (JsonCasing | Unset):
        if_match (str | Unset):
        if_none_match (str | Unset):
        if_unmodified_since (str | Unset):
        body (FramePatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ItemRef | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        item_id=item_id,
        body=body,
        json_casing=json_casing,
        if_match=if_match,
        if_none_match=if_none_match,
        if_unmodified_since=if_unmodified_since,
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
    body: FramePatch,
    json_casing: JsonCasing | Unset = UNSET,
    if_match: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
    if_unmodified_since: str | Unset = UNSET,
) -> ItemRef | Problem | None:
    """Change a frame item

     Only the properties to change; `null` resets an optional property to its default.

    Args:
        project_id (UUID):
        item_id (UUID):
        json_casing (JsonCasing | Unset):
        if_match (str | Unset):
        if_none_match (str | Unset):
        if_unmodified_since (str | Unset):
        body (FramePatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ItemRef | Problem
    """

    return sync_detailed(
        project_id=project_id,
        item_id=item_id,
        client=client,
        body=body,
        json_casing=json_casing,
        if_match=if_match,
        if_none_match=if_none_match,
        if_unmodified_since=if_unmodified_since,
    ).parsed


async def asyncio_detailed(
    project_id: UUID,
    item_id: UUID,
    *,
    client: AuthenticatedClient,
    body: FramePatch,
    json_casing: JsonCasing | Unset = UNSET,
    if_match: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
    if_unmodified_since: str | Unset = UNSET,
) -> Response[ItemRef | Problem]:
    """Change a frame item

     Only the properties to change; `null` resets an optional property to its default.

    Args:
        project_id (UUID):
        item_id (UUID):
        json_casing (JsonCasing | Unset):
        if_match (str | Unset):
        if_none_match (str | Unset):
        if_unmodified_since (str | Unset):
        body (FramePatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ItemRef | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        item_id=item_id,
        body=body,
        json_casing=json_casing,
        if_match=if_match,
        if_none_match=if_none_match,
        if_unmodified_since=if_unmodified_since,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: UUID,
    item_id: UUID,
    *,
    client: AuthenticatedClient,
    body: FramePatch,
    json_casing: JsonCasing | Unset = UNSET,
    if_match: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
    if_unmodified_since: str | Unset = UNSET,
) -> ItemRef | Problem | None:
    """Change a frame item

     Only the properties to change; `null` resets an optional property to its default.

    Args:
        project_id (UUID):
        item_id (UUID):
        json_casing (JsonCasing | Unset):
        if_match (str | Unset):
        if_none_match (str | Unset):
        if_unmodified_since (str | Unset):
        body (FramePatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ItemRef | Problem
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            item_id=item_id,
            client=client,
            body=body,
            json_casing=json_casing,
            if_match=if_match,
            if_none_match=if_none_match,
            if_unmodified_since=if_unmodified_since,
        )
    ).parsed
