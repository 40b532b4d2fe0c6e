from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.json_casing import JsonCasing
from ...models.presence_announcement import PresenceAnnouncement
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: UUID,
    *,
    body: PresenceAnnouncement,
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
        "url": "/api/v2/projects/{project_id}/presence".format(
            project_id=quote(str(project_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem]:
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
    body: PresenceAnnouncement,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[Any | Problem]:
    """Say where this open map's cursor is and what it has selected

     `{clientId, cursor: {x, y} | null, selection: [itemId…], leaving, viewport: {x, y, width, height} |
    null, summon}`. Followers of the project's presence see it at once, on every replica; nothing is
    written to the database. A client not heard from for 30 s has left, as has one that sends `leaving:
    true`. `viewport` is the part of the map it shows (others can follow it); `summon: true` asks every
    other open map to follow it ("bring everyone here", needs `viewport`). Needs the Viewer role or
    above. A client id is held by the person who first announced it until it leaves (409 for another
    person).

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        body (PresenceAnnouncement): `POST .../presence`: what one open map says about itself.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
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
    body: PresenceAnnouncement,
    json_casing: JsonCasing | Unset = UNSET,
) -> Any | Problem | None:
    """Say where this open map's cursor is and what it has selected

     `{clientId, cursor: {x, y} | null, selection: [itemId…], leaving, viewport: {x, y, width, height} |
    null, summon}`. Followers of the project's presence see it at once, on every replica; nothing is
    written to the database. A client not heard from for 30 s has left, as has one that sends `leaving:
    true`. `viewport` is the part of the map it shows (others can follow it); `summon: true` asks every
    other open map to follow it ("bring everyone here", needs `viewport`). Needs the Viewer role or
    above. A client id is held by the person who first announced it until it leaves (409 for another
    person).

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        body (PresenceAnnouncement): `POST .../presence`: what one open map says about itself.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
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
    body: PresenceAnnouncement,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[Any | Problem]:
    """Say where this open map's cursor is and what it has selected

     `{clientId, cursor: {x, y} | null, selection: [itemId…], leaving, viewport: {x, y, width, height} |
    null, summon}`. Followers of the project's presence see it at once, on every replica; nothing is
    written to the database. A client not heard from for 30 s has left, as has one that sends `leaving:
    true`. `viewport` is the part of the map it shows (others can follow it); `summon: true` asks every
    other open map to follow it ("bring everyone here", needs `viewport`). Needs the Viewer role or
    above. A client id is held by the person who first announced it until it leaves (409 for another
    person).

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        body (PresenceAnnouncement): `POST .../presence`: what one open map says about itself.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
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
    body: PresenceAnnouncement,
    json_casing: JsonCasing | Unset = UNSET,
) -> Any | Problem | None:
    """Say where this open map's cursor is and what it has selected

     `{clientId, cursor: {x, y} | null, selection: [itemId…], leaving, viewport: {x, y, width, height} |
    null, summon}`. Followers of the project's presence see it at once, on every replica; nothing is
    written to the database. A client not heard from for 30 s has left, as has one that sends `leaving:
    true`. `viewport` is the part of the map it shows (others can follow it); `summon: true` asks every
    other open map to follow it ("bring everyone here", needs `viewport`). Needs the Viewer role or
    above. A client id is held by the person who first announced it until it leaves (409 for another
    person).

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        body (PresenceAnnouncement): `POST .../presence`: what one open map says about itself.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            body=body,
            json_casing=json_casing,
        )
    ).parsed
