from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.answer_response import AnswerResponse
from ...models.json_casing import JsonCasing
from ...models.problem import Problem
from ...models.retrieve_knowledge_body import RetrieveKnowledgeBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: RetrieveKnowledgeBody,
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
        "url": "/api/v1/memory/retrieve",
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AnswerResponse | Problem | None:
    if response.status_code == 200:
        response_200 = AnswerResponse.from_dict(response.json())

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
) -> Response[AnswerResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: RetrieveKnowledgeBody,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[AnswerResponse | Problem]:
    """Answer a question over a project (hybrid keyword and semantic search)

    Args:
        json_casing (JsonCasing | Unset):
        body (RetrieveKnowledgeBody): `POST /api/v1/memory/retrieve`. Field names match in any
            casing; unknown fields are a 400.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AnswerResponse | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        json_casing=json_casing,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: RetrieveKnowledgeBody,
    json_casing: JsonCasing | Unset = UNSET,
) -> AnswerResponse | Problem | None:
    """Answer a question over a project (hybrid keyword and semantic search)

    Args:
        json_casing (JsonCasing | Unset):
        body (RetrieveKnowledgeBody): `POST /api/v1/memory/retrieve`. Field names match in any
            casing; unknown fields are a 400.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AnswerResponse | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        json_casing=json_casing,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: RetrieveKnowledgeBody,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[AnswerResponse | Problem]:
    """Answer a question over a project (hybrid keyword and semantic search)

    Args:
        json_casing (JsonCasing | Unset):
        body (RetrieveKnowledgeBody): `POST /api/v1/memory/retrieve`. Field names match in any
            casing; unknown fields are a 400.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AnswerResponse | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        json_casing=json_casing,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: RetrieveKnowledgeBody,
    json_casing: JsonCasing | Unset = UNSET,
) -> AnswerResponse | Problem | None:
    """Answer a question over a project (hybrid keyword and semantic search)

    Args:
        json_casing (JsonCasing | Unset):
        body (RetrieveKnowledgeBody): `POST /api/v1/memory/retrieve`. Field names match in any
            casing; unknown fields are a 400.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AnswerResponse | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            json_casing=json_casing,
        )
    ).parsed
