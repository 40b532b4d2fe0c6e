from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_type_list import EventTypeList
from ...models.json_casing import JsonCasing
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    json_casing: JsonCasing | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_json_casing: str | Unset = UNSET
    if not isinstance(json_casing, Unset):
        json_json_casing = json_casing.value

    params["jsonCasing"] = json_json_casing

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/webhooks/event-types",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EventTypeList | Problem | None:
    if response.status_code == 200:
        response_200 = EventTypeList.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())

        return response_431

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EventTypeList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[EventTypeList | Problem]:
    """The webhook event catalog: each kind with the JSON Schema of its call body (no token needed)

    Args:
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventTypeList | Problem]
    """

    kwargs = _get_kwargs(
        json_casing=json_casing,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    json_casing: JsonCasing | Unset = UNSET,
) -> EventTypeList | Problem | None:
    """The webhook event catalog: each kind with the JSON Schema of its call body (no token needed)

    Args:
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventTypeList | Problem
    """

    return sync_detailed(
        client=client,
        json_casing=json_casing,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    json_casing: JsonCasing | Unset = UNSET,
) -> Response[EventTypeList | Problem]:
    """The webhook event catalog: each kind with the JSON Schema of its call body (no token needed)

    Args:
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventTypeList | Problem]
    """

    kwargs = _get_kwargs(
        json_casing=json_casing,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    json_casing: JsonCasing | Unset = UNSET,
) -> EventTypeList | Problem | None:
    """The webhook event catalog: each kind with the JSON Schema of its call body (no token needed)

    Args:
        json_casing (JsonCasing | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventTypeList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            json_casing=json_casing,
        )
    ).parsed
