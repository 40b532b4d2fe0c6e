from http import HTTPStatus
from io import BytesIO
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.json_casing import JsonCasing
from ...models.problem import Problem
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    project_id: UUID,
    *,
    item_ids: str | Unset = UNSET,
    x: float | Unset = UNSET,
    y: float | Unset = UNSET,
    width: float | Unset = UNSET,
    height: float | Unset = UNSET,
    scale: float | Unset = UNSET,
    frame: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["itemIds"] = item_ids

    params["x"] = x

    params["y"] = y

    params["width"] = width

    params["height"] = height

    params["scale"] = scale

    params["frame"] = frame

    json_json_casing: str | Unset = UNSET
    if not isinstance(json_casing, Unset):
        json_json_casing = json_casing.value

    params["jsonCasing"] = json_json_casing

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/projects/{project_id}/render.png".format(
            project_id=quote(str(project_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> File | Problem | None:
    if response.status_code == 200:
        response_200 = File(payload=BytesIO(response.content))

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

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[File | Problem]:
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
    item_ids: str | Unset = UNSET,
    x: float | Unset = UNSET,
    y: float | Unset = UNSET,
    width: float | Unset = UNSET,
    height: float | Unset = UNSET,
    scale: float | Unset = UNSET,
    frame: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[File | Problem]:
    """The project map drawn as PNG

    Args:
        project_id (UUID):
        item_ids (str | Unset):
        x (float | Unset):
        y (float | Unset):
        width (float | Unset):
        height (float | Unset):
        scale (float | Unset):
        frame (str | Unset):
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        item_ids=item_ids,
        x=x,
        y=y,
        width=width,
        height=height,
        scale=scale,
        frame=frame,
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
    item_ids: str | Unset = UNSET,
    x: float | Unset = UNSET,
    y: float | Unset = UNSET,
    width: float | Unset = UNSET,
    height: float | Unset = UNSET,
    scale: float | Unset = UNSET,
    frame: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> File | Problem | None:
    """The project map drawn as PNG

    Args:
        project_id (UUID):
        item_ids (str | Unset):
        x (float | Unset):
        y (float | Unset):
        width (float | Unset):
        height (float | Unset):
        scale (float | Unset):
        frame (str | Unset):
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | Problem
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        item_ids=item_ids,
        x=x,
        y=y,
        width=width,
        height=height,
        scale=scale,
        frame=frame,
        json_casing=json_casing,
    ).parsed


async def asyncio_detailed(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    item_ids: str | Unset = UNSET,
    x: float | Unset = UNSET,
    y: float | Unset = UNSET,
    width: float | Unset = UNSET,
    height: float | Unset = UNSET,
    scale: float | Unset = UNSET,
    frame: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[File | Problem]:
    """The project map drawn as PNG

    Args:
        project_id (UUID):
        item_ids (str | Unset):
        x (float | Unset):
        y (float | Unset):
        width (float | Unset):
        height (float | Unset):
        scale (float | Unset):
        frame (str | Unset):
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        item_ids=item_ids,
        x=x,
        y=y,
        width=width,
        height=height,
        scale=scale,
        frame=frame,
        json_casing=json_casing,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    item_ids: str | Unset = UNSET,
    x: float | Unset = UNSET,
    y: float | Unset = UNSET,
    width: float | Unset = UNSET,
    height: float | Unset = UNSET,
    scale: float | Unset = UNSET,
    frame: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> File | Problem | None:
    """The project map drawn as PNG

    Args:
        project_id (UUID):
        item_ids (str | Unset):
        x (float | Unset):
        y (float | Unset):
        width (float | Unset):
        height (float | Unset):
        scale (float | Unset):
        frame (str | Unset):
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | Problem
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            item_ids=item_ids,
            x=x,
            y=y,
            width=width,
            height=height,
            scale=scale,
            frame=frame,
            json_casing=json_casing,
        )
    ).parsed
