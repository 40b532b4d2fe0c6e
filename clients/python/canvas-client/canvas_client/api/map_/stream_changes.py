from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.json_casing import JsonCasing
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: UUID,
    *,
    after: int | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    params: dict[str, Any] = {}

    params["after"] = after

    json_json_casing: str | Unset = UNSET
    if not isinstance(json_casing, Unset):
        json_json_casing = json_casing.value

    params["jsonCasing"] = json_json_casing

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/projects/{project_id}/changes".format(
            project_id=quote(str(project_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | str]:
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
    after: int | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """The project's changes as server-sent events

     Events: `ready` (data `{seq}`), then one `change` per change (data `{eventId, seq, kind, itemId,
    itemType, threadId, occurredAt}`, SSE id = seq; a comment's change: `itemId` the comment, `itemType`
    `comment`, `threadId` its thread). Resume with `after` or `Last-Event-ID`. A stream ends after 300
    s.

    Args:
        project_id (UUID):
        after (int | Unset):
        json_casing (JsonCasing | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        after=after,
        json_casing=json_casing,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> Problem | str | None:
    """The project's changes as server-sent events

     Events: `ready` (data `{seq}`), then one `change` per change (data `{eventId, seq, kind, itemId,
    itemType, threadId, occurredAt}`, SSE id = seq; a comment's change: `itemId` the comment, `itemType`
    `comment`, `threadId` its thread). Resume with `after` or `Last-Event-ID`. A stream ends after 300
    s.

    Args:
        project_id (UUID):
        after (int | Unset):
        json_casing (JsonCasing | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        after=after,
        json_casing=json_casing,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """The project's changes as server-sent events

     Events: `ready` (data `{seq}`), then one `change` per change (data `{eventId, seq, kind, itemId,
    itemType, threadId, occurredAt}`, SSE id = seq; a comment's change: `itemId` the comment, `itemType`
    `comment`, `threadId` its thread). Resume with `after` or `Last-Event-ID`. A stream ends after 300
    s.

    Args:
        project_id (UUID):
        after (int | Unset):
        json_casing (JsonCasing | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        after=after,
        json_casing=json_casing,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> Problem | str | None:
    """The project's changes as server-sent events

     Events: `ready` (data `{seq}`), then one `change` per change (data `{eventId, seq, kind, itemId,
    itemType, threadId, occurredAt}`, SSE id = seq; a comment's change: `itemId` the comment, `itemType`
    `comment`, `threadId` its thread). Resume with `after` or `Last-Event-ID`. A stream ends after 300
    s.

    Args:
        project_id (UUID):
        after (int | Unset):
        json_casing (JsonCasing | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            after=after,
            json_casing=json_casing,
            last_event_id=last_event_id,
        )
    ).parsed
