import datetime
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.item_page import ItemPage
from ...models.json_casing import JsonCasing
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: UUID,
    *,
    type_: str | Unset = UNSET,
    parent: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    region: str | Unset = UNSET,
    text: str | Unset = UNSET,
    changed_since: datetime.datetime | Unset = UNSET,
    tag: str | Unset = UNSET,
    frame: UUID | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["type"] = type_

    params["parent"] = parent

    params["limit"] = limit

    params["cursor"] = cursor

    params["region"] = region

    params["text"] = text

    json_changed_since: str | Unset = UNSET
    if not isinstance(changed_since, Unset):
        json_changed_since = changed_since.isoformat()
    params["changedSince"] = json_changed_since

    params["tag"] = tag

    json_frame: str | Unset = UNSET
    if not isinstance(frame, Unset):
        json_frame = str(frame)
    params["frame"] = json_frame

    json_json_casing: str | Unset = UNSET
    if not isinstance(json_casing, Unset):
        json_json_casing = json_casing.value

    params["jsonCasing"] = json_json_casing

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/projects/{project_id}/items".format(
            project_id=quote(str(project_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ItemPage | Problem | None:
    if response.status_code == 200:
        response_200 = ItemPage.from_dict(response.json())

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
) -> Response[Any | ItemPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    parent: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    region: str | Unset = UNSET,
    text: str | Unset = UNSET,
    changed_since: datetime.datetime | Unset = UNSET,
    tag: str | Unset = UNSET,
    frame: UUID | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
) -> Response[Any | ItemPage | Problem]:
    """List a project's items in creation order

    Args:
        project_id (UUID):
        type_ (str | Unset):
        parent (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        region (str | Unset):
        text (str | Unset):
        changed_since (datetime.datetime | Unset):
        tag (str | Unset):
        frame (UUID | Unset):
        json_casing (JsonCasing | Unset):
        if_none_match (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ItemPage | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        type_=type_,
        parent=parent,
        limit=limit,
        cursor=cursor,
        region=region,
        text=text,
        changed_since=changed_since,
        tag=tag,
        frame=frame,
        json_casing=json_casing,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    parent: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    region: str | Unset = UNSET,
    text: str | Unset = UNSET,
    changed_since: datetime.datetime | Unset = UNSET,
    tag: str | Unset = UNSET,
    frame: UUID | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
) -> Any | ItemPage | Problem | None:
    """List a project's items in creation order

    Args:
        project_id (UUID):
        type_ (str | Unset):
        parent (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        region (str | Unset):
        text (str | Unset):
        changed_since (datetime.datetime | Unset):
        tag (str | Unset):
        frame (UUID | Unset):
        json_casing (JsonCasing | Unset):
        if_none_match (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ItemPage | Problem
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        type_=type_,
        parent=parent,
        limit=limit,
        cursor=cursor,
        region=region,
        text=text,
        changed_since=changed_since,
        tag=tag,
        frame=frame,
        json_casing=json_casing,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    parent: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    region: str | Unset = UNSET,
    text: str | Unset = UNSET,
    changed_since: datetime.datetime | Unset = UNSET,
    tag: str | Unset = UNSET,
    frame: UUID | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
) -> Response[Any | ItemPage | Problem]:
    """List a project's items in creation order

    Args:
        project_id (UUID):
        type_ (str | Unset):
        parent (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        region (str | Unset):
        text (str | Unset):
        changed_since (datetime.datetime | Unset):
        tag (str | Unset):
        frame (UUID | Unset):
        json_casing (JsonCasing | Unset):
        if_none_match (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ItemPage | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        type_=type_,
        parent=parent,
        limit=limit,
        cursor=cursor,
        region=region,
        text=text,
        changed_since=changed_since,
        tag=tag,
        frame=frame,
        json_casing=json_casing,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    parent: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    region: str | Unset = UNSET,
    text: str | Unset = UNSET,
    changed_since: datetime.datetime | Unset = UNSET,
    tag: str | Unset = UNSET,
    frame: UUID | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
) -> Any | ItemPage | Problem | None:
    """List a project's items in creation order

    Args:
        project_id (UUID):
        type_ (str | Unset):
        parent (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        region (str | Unset):
        text (str | Unset):
        changed_since (datetime.datetime | Unset):
        tag (str | Unset):
        frame (UUID | Unset):
        json_casing (JsonCasing | Unset):
        if_none_match (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ItemPage | Problem
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            type_=type_,
            parent=parent,
            limit=limit,
            cursor=cursor,
            region=region,
            text=text,
            changed_since=changed_since,
            tag=tag,
            frame=frame,
            json_casing=json_casing,
            if_none_match=if_none_match,
        )
    ).parsed
