import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.json_casing import JsonCasing
from ...models.problem import Problem
from ...models.thread_page import ThreadPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: UUID,
    *,
    item: UUID | Unset = UNSET,
    status: str | Unset = UNSET,
    author: str | Unset = UNSET,
    mentions: str | Unset = UNSET,
    changed_since: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_item: str | Unset = UNSET
    if not isinstance(item, Unset):
        json_item = str(item)
    params["item"] = json_item

    params["status"] = status

    params["author"] = author

    params["mentions"] = mentions

    json_changed_since: str | Unset = UNSET
    if not isinstance(changed_since, Unset):
        json_changed_since = changed_since.isoformat()
    params["changedSince"] = json_changed_since

    params["limit"] = limit

    params["cursor"] = cursor

    json_json_casing: str | Unset = UNSET
    if not isinstance(json_casing, Unset):
        json_json_casing = json_casing.value

    params["jsonCasing"] = json_json_casing

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/projects/{project_id}/comments".format(
            project_id=quote(str(project_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | ThreadPage | None:
    if response.status_code == 200:
        response_200 = ThreadPage.from_dict(response.json())

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
) -> Response[Problem | ThreadPage]:
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
    item: UUID | Unset = UNSET,
    status: str | Unset = UNSET,
    author: str | Unset = UNSET,
    mentions: str | Unset = UNSET,
    changed_since: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[Problem | ThreadPage]:
    """List comment threads (beyond the spec)

     Threads in the order they were opened, each with all its replies; every filter sent must hold. Any
    member may read them.

    Args:
        project_id (UUID):
        item (UUID | Unset):
        status (str | Unset):
        author (str | Unset):
        mentions (str | Unset):
        changed_since (datetime.datetime | Unset):
        limit (int | Unset):
        cursor (str | Unset):
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ThreadPage]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        item=item,
        status=status,
        author=author,
        mentions=mentions,
        changed_since=changed_since,
        limit=limit,
        cursor=cursor,
        json_casing=json_casing,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    item: UUID | Unset = UNSET,
    status: str | Unset = UNSET,
    author: str | Unset = UNSET,
    mentions: str | Unset = UNSET,
    changed_since: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> Problem | ThreadPage | None:
    """List comment threads (beyond the spec)

     Threads in the order they were opened, each with all its replies; every filter sent must hold. Any
    member may read them.

    Args:
        project_id (UUID):
        item (UUID | Unset):
        status (str | Unset):
        author (str | Unset):
        mentions (str | Unset):
        changed_since (datetime.datetime | Unset):
        limit (int | Unset):
        cursor (str | Unset):
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ThreadPage
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        item=item,
        status=status,
        author=author,
        mentions=mentions,
        changed_since=changed_since,
        limit=limit,
        cursor=cursor,
        json_casing=json_casing,
    ).parsed


async def asyncio_detailed(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    item: UUID | Unset = UNSET,
    status: str | Unset = UNSET,
    author: str | Unset = UNSET,
    mentions: str | Unset = UNSET,
    changed_since: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[Problem | ThreadPage]:
    """List comment threads (beyond the spec)

     Threads in the order they were opened, each with all its replies; every filter sent must hold. Any
    member may read them.

    Args:
        project_id (UUID):
        item (UUID | Unset):
        status (str | Unset):
        author (str | Unset):
        mentions (str | Unset):
        changed_since (datetime.datetime | Unset):
        limit (int | Unset):
        cursor (str | Unset):
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ThreadPage]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        item=item,
        status=status,
        author=author,
        mentions=mentions,
        changed_since=changed_since,
        limit=limit,
        cursor=cursor,
        json_casing=json_casing,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    item: UUID | Unset = UNSET,
    status: str | Unset = UNSET,
    author: str | Unset = UNSET,
    mentions: str | Unset = UNSET,
    changed_since: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> Problem | ThreadPage | None:
    """List comment threads (beyond the spec)

     Threads in the order they were opened, each with all its replies; every filter sent must hold. Any
    member may read them.

    Args:
        project_id (UUID):
        item (UUID | Unset):
        status (str | Unset):
        author (str | Unset):
        mentions (str | Unset):
        changed_since (datetime.datetime | Unset):
        limit (int | Unset):
        cursor (str | Unset):
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ThreadPage
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            item=item,
            status=status,
            author=author,
            mentions=mentions,
            changed_since=changed_since,
            limit=limit,
            cursor=cursor,
            json_casing=json_casing,
        )
    ).parsed
