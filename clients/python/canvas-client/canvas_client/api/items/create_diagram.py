from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_diagram_body import CreateDiagramBody
from ...models.diagram_response import DiagramResponse
from ...models.json_casing import JsonCasing
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: UUID,
    *,
    body: CreateDiagramBody,
    json_casing: JsonCasing | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    params: dict[str, Any] = {}

    json_json_casing: str | Unset = UNSET
    if not isinstance(json_casing, Unset):
        json_json_casing = json_casing.value

    params["jsonCasing"] = json_json_casing

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/projects/{project_id}/diagrams".format(
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
) -> DiagramResponse | Problem | None:
    if response.status_code == 200:
        response_200 = DiagramResponse.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DiagramResponse | Problem]:
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
    body: CreateDiagramBody,
    json_casing: JsonCasing | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[DiagramResponse | Problem]:
    """Create a diagram from Mermaid, laid out automatically (beyond the spec)

     `{format: "mermaid", source, position?: {x, y}}`. The diagram (the Mermaid kinds are listed below)
    becomes ordinary shapes, labels, connectors and containers, created all at once through the bulk
    path. `position` is the diagram's top-left corner; without it the diagram goes right of everything
    on the map, overlapping nothing. `frame` (beyond the spec) draws it inside that frame: its outer
    items become the frame's, it starts 40 units in from the frame's top-left corner unless `position`
    is given, and the frame grows to hold it. Unsupported syntax is a 400 naming the line and column
    (field `source`). The answer lists every item id and maps each Mermaid node id to its shape.

    Mermaid kinds: flowchart/graph (or flowchart-elk), mindmap, sequenceDiagram, classDiagram (or
    classDiagram-v2), erDiagram and stateDiagram-v2 (or stateDiagram).

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        idempotency_key (str | Unset):
        body (CreateDiagramBody): `POST .../diagrams`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DiagramResponse | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        body=body,
        json_casing=json_casing,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    body: CreateDiagramBody,
    json_casing: JsonCasing | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> DiagramResponse | Problem | None:
    """Create a diagram from Mermaid, laid out automatically (beyond the spec)

     `{format: "mermaid", source, position?: {x, y}}`. The diagram (the Mermaid kinds are listed below)
    becomes ordinary shapes, labels, connectors and containers, created all at once through the bulk
    path. `position` is the diagram's top-left corner; without it the diagram goes right of everything
    on the map, overlapping nothing. `frame` (beyond the spec) draws it inside that frame: its outer
    items become the frame's, it starts 40 units in from the frame's top-left corner unless `position`
    is given, and the frame grows to hold it. Unsupported syntax is a 400 naming the line and column
    (field `source`). The answer lists every item id and maps each Mermaid node id to its shape.

    Mermaid kinds: flowchart/graph (or flowchart-elk), mindmap, sequenceDiagram, classDiagram (or
    classDiagram-v2), erDiagram and stateDiagram-v2 (or stateDiagram).

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        idempotency_key (str | Unset):
        body (CreateDiagramBody): `POST .../diagrams`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DiagramResponse | Problem
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        body=body,
        json_casing=json_casing,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    body: CreateDiagramBody,
    json_casing: JsonCasing | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[DiagramResponse | Problem]:
    """Create a diagram from Mermaid, laid out automatically (beyond the spec)

     `{format: "mermaid", source, position?: {x, y}}`. The diagram (the Mermaid kinds are listed below)
    becomes ordinary shapes, labels, connectors and containers, created all at once through the bulk
    path. `position` is the diagram's top-left corner; without it the diagram goes right of everything
    on the map, overlapping nothing. `frame` (beyond the spec) draws it inside that frame: its outer
    items become the frame's, it starts 40 units in from the frame's top-left corner unless `position`
    is given, and the frame grows to hold it. Unsupported syntax is a 400 naming the line and column
    (field `source`). The answer lists every item id and maps each Mermaid node id to its shape.

    Mermaid kinds: flowchart/graph (or flowchart-elk), mindmap, sequenceDiagram, classDiagram (or
    classDiagram-v2), erDiagram and stateDiagram-v2 (or stateDiagram).

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        idempotency_key (str | Unset):
        body (CreateDiagramBody): `POST .../diagrams`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DiagramResponse | Problem]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        body=body,
        json_casing=json_casing,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    body: CreateDiagramBody,
    json_casing: JsonCasing | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> DiagramResponse | Problem | None:
    """Create a diagram from Mermaid, laid out automatically (beyond the spec)

     `{format: "mermaid", source, position?: {x, y}}`. The diagram (the Mermaid kinds are listed below)
    becomes ordinary shapes, labels, connectors and containers, created all at once through the bulk
    path. `position` is the diagram's top-left corner; without it the diagram goes right of everything
    on the map, overlapping nothing. `frame` (beyond the spec) draws it inside that frame: its outer
    items become the frame's, it starts 40 units in from the frame's top-left corner unless `position`
    is given, and the frame grows to hold it. Unsupported syntax is a 400 naming the line and column
    (field `source`). The answer lists every item id and maps each Mermaid node id to its shape.

    Mermaid kinds: flowchart/graph (or flowchart-elk), mindmap, sequenceDiagram, classDiagram (or
    classDiagram-v2), erDiagram and stateDiagram-v2 (or stateDiagram).

    Args:
        project_id (UUID):
        json_casing (JsonCasing | Unset):
        idempotency_key (str | Unset):
        body (CreateDiagramBody): `POST .../diagrams`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DiagramResponse | Problem
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            body=body,
            json_casing=json_casing,
            idempotency_key=idempotency_key,
        )
    ).parsed
