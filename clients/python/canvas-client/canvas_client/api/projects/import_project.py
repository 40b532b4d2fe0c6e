from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.imported_project import ImportedProject
from ...models.json_casing import JsonCasing
from ...models.problem import Problem
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    *,
    body: File,
    owner: UUID | Unset = UNSET,
    name: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    json_owner: str | Unset = UNSET
    if not isinstance(owner, Unset):
        json_owner = str(owner)
    params["owner"] = json_owner

    params["name"] = name

    json_json_casing: str | Unset = UNSET
    if not isinstance(json_casing, Unset):
        json_json_casing = json_casing.value

    params["jsonCasing"] = json_json_casing

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/projects/import",
        "params": params,
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ImportedProject | Problem | None:
    if response.status_code == 200:
        response_200 = ImportedProject.from_dict(response.json())

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
) -> Response[ImportedProject | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: File,
    owner: UUID | Unset = UNSET,
    name: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[ImportedProject | Problem]:
    """A new project from an archive file

     Reads an archive made by `GET /api/v2/projects/{projectId}/export` (docs/ARCHIVE.md) into a new
    project: new ids, every reference remapped, every item checked by the rules of a create, all or
    nothing. System administrators only (whoever may create projects). Members are added by login where
    such a user exists (`MembersSkipped` lists the others); webhooks arrive inactive until saved again.
    A damaged or hostile archive is a 400 naming the entry, line and field at fault; an archive over 1
    GiB a 413.

    Args:
        owner (UUID | Unset):
        name (str | Unset):
        json_casing (JsonCasing | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ImportedProject | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        owner=owner,
        name=name,
        json_casing=json_casing,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: File,
    owner: UUID | Unset = UNSET,
    name: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> ImportedProject | Problem | None:
    """A new project from an archive file

     Reads an archive made by `GET /api/v2/projects/{projectId}/export` (docs/ARCHIVE.md) into a new
    project: new ids, every reference remapped, every item checked by the rules of a create, all or
    nothing. System administrators only (whoever may create projects). Members are added by login where
    such a user exists (`MembersSkipped` lists the others); webhooks arrive inactive until saved again.
    A damaged or hostile archive is a 400 naming the entry, line and field at fault; an archive over 1
    GiB a 413.

    Args:
        owner (UUID | Unset):
        name (str | Unset):
        json_casing (JsonCasing | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ImportedProject | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        owner=owner,
        name=name,
        json_casing=json_casing,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: File,
    owner: UUID | Unset = UNSET,
    name: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[ImportedProject | Problem]:
    """A new project from an archive file

     Reads an archive made by `GET /api/v2/projects/{projectId}/export` (docs/ARCHIVE.md) into a new
    project: new ids, every reference remapped, every item checked by the rules of a create, all or
    nothing. System administrators only (whoever may create projects). Members are added by login where
    such a user exists (`MembersSkipped` lists the others); webhooks arrive inactive until saved again.
    A damaged or hostile archive is a 400 naming the entry, line and field at fault; an archive over 1
    GiB a 413.

    Args:
        owner (UUID | Unset):
        name (str | Unset):
        json_casing (JsonCasing | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ImportedProject | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        owner=owner,
        name=name,
        json_casing=json_casing,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: File,
    owner: UUID | Unset = UNSET,
    name: str | Unset = UNSET,
    json_casing: JsonCasing | Unset = UNSET,
) -> ImportedProject | Problem | None:
    """A new project from an archive file

     Reads an archive made by `GET /api/v2/projects/{projectId}/export` (docs/ARCHIVE.md) into a new
    project: new ids, every reference remapped, every item checked by the rules of a create, all or
    nothing. System administrators only (whoever may create projects). Members are added by login where
    such a user exists (`MembersSkipped` lists the others); webhooks arrive inactive until saved again.
    A damaged or hostile archive is a 400 naming the entry, line and field at fault; an archive over 1
    GiB a 413.

    Args:
        owner (UUID | Unset):
        name (str | Unset):
        json_casing (JsonCasing | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ImportedProject | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            owner=owner,
            name=name,
            json_casing=json_casing,
        )
    ).parsed
