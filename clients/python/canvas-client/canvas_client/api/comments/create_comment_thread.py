from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.comment_thread import CommentThread
from ...models.json_casing import JsonCasing
from ...models.problem import Problem
from ...models.thread_request import ThreadRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: UUID,
    *,
    body: ThreadRequest,
    json_casing: JsonCasing | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    json_json_casing: str | Unset = UNSET
    if not isinstance(json_casing, Unset):
        json_json_casing = json_casing.value

    params["jsonCasing"] = json_json_casing

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/projects/{project_id}/comments".format(
            project_id=quote(str(project_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CommentThread | Problem | None:
    if response.status_code == 201:
        response_201 = CommentThread.from_dict(response.json())

        return response_201

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CommentThread | Problem]:
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
    body: ThreadRequest,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[CommentThread | Problem]:
    """Open a comment thread on an item or a point (beyond the spec)

     `{text, itemId}` or `{text, position: {x, y}}`. Any member, Viewers included. `@login` in the text
    mentions a member.

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        body (ThreadRequest): `POST .../comments`: a thread's first comment and where it is (an
            item or a point, not both).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CommentThread | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        body=body,
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
    body: ThreadRequest,
    json_casing: JsonCasing | Unset = UNSET,
) -> CommentThread | Problem | None:
    """Open a comment thread on an item or a point (beyond the spec)

     `{text, itemId}` or `{text, position: {x, y}}`. Any member, Viewers included. `@login` in the text
    mentions a member.

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        body (ThreadRequest): `POST .../comments`: a thread's first comment and where it is (an
            item or a point, not both).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CommentThread | Problem
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        body=body,
        json_casing=json_casing,
    ).parsed


async def asyncio_detailed(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ThreadRequest,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[CommentThread | Problem]:
    """Open a comment thread on an item or a point (beyond the spec)

     `{text, itemId}` or `{text, position: {x, y}}`. Any member, Viewers included. `@login` in the text
    mentions a member.

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        body (ThreadRequest): `POST .../comments`: a thread's first comment and where it is (an
            item or a point, not both).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CommentThread | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        body=body,
        json_casing=json_casing,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ThreadRequest,
    json_casing: JsonCasing | Unset = UNSET,
) -> CommentThread | Problem | None:
    """Open a comment thread on an item or a point (beyond the spec)

     `{text, itemId}` or `{text, position: {x, y}}`. Any member, Viewers included. `@login` in the text
    mentions a member.

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        body (ThreadRequest): `POST .../comments`: a thread's first comment and where it is (an
            item or a point, not both).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CommentThread | Problem
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            body=body,
            json_casing=json_casing,
        )
    ).parsed
