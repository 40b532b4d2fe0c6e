from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.diagram_write_response import DiagramWriteResponse
from ...models.json_casing import JsonCasing
from ...models.problem import Problem
from ...models.update_diagram_body import UpdateDiagramBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: UUID,
    diagram_id: UUID,
    *,
    body: UpdateDiagramBody,
    json_casing: JsonCasing | Unset = UNSET,
    if_match: None | str | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
    if_unmodified_since: None | str | Unset = UNSET,
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
        "method": "put",
        "url": "/api/v2/projects/{project_id}/diagrams/{diagram_id}".format(
            project_id=quote(str(project_id), safe=""),
            diagram_id=quote(str(diagram_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DiagramWriteResponse | Problem | None:
    if response.status_code == 200:
        response_200 = DiagramWriteResponse.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DiagramWriteResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    project_id: UUID,
    diagram_id: UUID,
    *,
    client: AuthenticatedClient,
    body: UpdateDiagramBody,
    json_casing: JsonCasing | Unset = UNSET,
    if_match: None | str | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
    if_unmodified_since: None | str | Unset = UNSET,
) -> Response[DiagramWriteResponse | Problem]:
    """Update a diagram in place from an edited source (beyond the spec)

     `{source, format?, kind?}`. A source of another diagram kind than the record's is a 400 naming
    `source` unless `kind` names it (then the record changes kind). In one transaction: elements the new
    source keeps keep their items (ids, a person's moves, and any property a person changed unless the
    source changed that very property); new elements are created beside their neighbours; removed ones
    are deleted with their connectors (people's connectors attached to them are detached, as by a single
    delete). Every item change has its own event. Unsupported syntax is a 400 naming line and column,
    and changes nothing. Concurrent updates are applied one after another; with `If-Match` an update
    applies only to the version it names (else 412).

    Args:
        project_id (UUID):
        diagram_id (UUID):
        json_casing (JsonCasing | Unset):
        if_match (None | str | Unset):
        if_none_match (None | str | Unset):
        if_unmodified_since (None | str | Unset):
        body (UpdateDiagramBody): `PUT .../diagrams/{diagramId}`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DiagramWriteResponse | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        diagram_id=diagram_id,
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
    diagram_id: UUID,
    *,
    client: AuthenticatedClient,
    body: UpdateDiagramBody,
    json_casing: JsonCasing | Unset = UNSET,
    if_match: None | str | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
    if_unmodified_since: None | str | Unset = UNSET,
) -> DiagramWriteResponse | Problem | None:
    """Update a diagram in place from an edited source (beyond the spec)

     `{source, format?, kind?}`. A source of another diagram kind than the record's is a 400 naming
    `source` unless `kind` names it (then the record changes kind). In one transaction: elements the new
    source keeps keep their items (ids, a person's moves, and any property a person changed unless the
    source changed that very property); new elements are created beside their neighbours; removed ones
    are deleted with their connectors (people's connectors attached to them are detached, as by a single
    delete). Every item change has its own event. Unsupported syntax is a 400 naming line and column,
    and changes nothing. Concurrent updates are applied one after another; with `If-Match` an update
    applies only to the version it names (else 412).

    Args:
        project_id (UUID):
        diagram_id (UUID):
        json_casing (JsonCasing | Unset):
        if_match (None | str | Unset):
        if_none_match (None | str | Unset):
        if_unmodified_since (None | str | Unset):
        body (UpdateDiagramBody): `PUT .../diagrams/{diagramId}`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DiagramWriteResponse | Problem
    """

    return sync_detailed(
        project_id=project_id,
        diagram_id=diagram_id,
        client=client,
        body=body,
        json_casing=json_casing,
        if_match=if_match,
        if_none_match=if_none_match,
        if_unmodified_since=if_unmodified_since,
    ).parsed


async def asyncio_detailed(
    project_id: UUID,
    diagram_id: UUID,
    *,
    client: AuthenticatedClient,
    body: UpdateDiagramBody,
    json_casing: JsonCasing | Unset = UNSET,
    if_match: None | str | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
    if_unmodified_since: None | str | Unset = UNSET,
) -> Response[DiagramWriteResponse | Problem]:
    """Update a diagram in place from an edited source (beyond the spec)

     `{source, format?, kind?}`. A source of another diagram kind than the record's is a 400 naming
    `source` unless `kind` names it (then the record changes kind). In one transaction: elements the new
    source keeps keep their items (ids, a person's moves, and any property a person changed unless the
    source changed that very property); new elements are created beside their neighbours; removed ones
    are deleted with their connectors (people's connectors attached to them are detached, as by a single
    delete). Every item change has its own event. Unsupported syntax is a 400 naming line and column,
    and changes nothing. Concurrent updates are applied one after another; with `If-Match` an update
    applies only to the version it names (else 412).

    Args:
        project_id (UUID):
        diagram_id (UUID):
        json_casing (JsonCasing | Unset):
        if_match (None | str | Unset):
        if_none_match (None | str | Unset):
        if_unmodified_since (None | str | Unset):
        body (UpdateDiagramBody): `PUT .../diagrams/{diagramId}`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DiagramWriteResponse | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        diagram_id=diagram_id,
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
    diagram_id: UUID,
    *,
    client: AuthenticatedClient,
    body: UpdateDiagramBody,
    json_casing: JsonCasing | Unset = UNSET,
    if_match: None | str | Unset = UNSET,
    if_none_match: None | str | Unset = UNSET,
    if_unmodified_since: None | str | Unset = UNSET,
) -> DiagramWriteResponse | Problem | None:
    """Update a diagram in place from an edited source (beyond the spec)

     `{source, format?, kind?}`. A source of another diagram kind than the record's is a 400 naming
    `source` unless `kind` names it (then the record changes kind). In one transaction: elements the new
    source keeps keep their items (ids, a person's moves, and any property a person changed unless the
    source changed that very property); new elements are created beside their neighbours; removed ones
    are deleted with their connectors (people's connectors attached to them are detached, as by a single
    delete). Every item change has its own event. Unsupported syntax is a 400 naming line and column,
    and changes nothing. Concurrent updates are applied one after another; with `If-Match` an update
    applies only to the version it names (else 412).

    Args:
        project_id (UUID):
        diagram_id (UUID):
        json_casing (JsonCasing | Unset):
        if_match (None | str | Unset):
        if_none_match (None | str | Unset):
        if_unmodified_since (None | str | Unset):
        body (UpdateDiagramBody): `PUT .../diagrams/{diagramId}`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DiagramWriteResponse | Problem
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            diagram_id=diagram_id,
            client=client,
            body=body,
            json_casing=json_casing,
            if_match=if_match,
            if_none_match=if_none_match,
            if_unmodified_since=if_unmodified_since,
        )
    ).parsed
