from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: str,
    *,
    node: str | Unset = UNSET,
    auth: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["node"] = node

    params["auth"] = auth

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/map/{project_id}".format(
            project_id=quote(str(project_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 303:
        response_303 = cast(Any, None)
        return response_303

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())

        return response_431

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    project_id: str,
    *,
    client: AuthenticatedClient,
    node: str | Unset = UNSET,
    auth: str | Unset = UNSET,
) -> Response[Any | Problem | str]:
    """The live web map (HTML; signed in to the account site, or it asks for a token itself)

    Args:
        project_id (str):
        node (str | Unset):
        auth (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | str]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        node=node,
        auth=auth,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: str,
    *,
    client: AuthenticatedClient,
    node: str | Unset = UNSET,
    auth: str | Unset = UNSET,
) -> Any | Problem | str | None:
    """The live web map (HTML; signed in to the account site, or it asks for a token itself)

    Args:
        project_id (str):
        node (str | Unset):
        auth (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | str
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        node=node,
        auth=auth,
    ).parsed


async def asyncio_detailed(
    project_id: str,
    *,
    client: AuthenticatedClient,
    node: str | Unset = UNSET,
    auth: str | Unset = UNSET,
) -> Response[Any | Problem | str]:
    """The live web map (HTML; signed in to the account site, or it asks for a token itself)

    Args:
        project_id (str):
        node (str | Unset):
        auth (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | str]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        node=node,
        auth=auth,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: str,
    *,
    client: AuthenticatedClient,
    node: str | Unset = UNSET,
    auth: str | Unset = UNSET,
) -> Any | Problem | str | None:
    """The live web map (HTML; signed in to the account site, or it asks for a token itself)

    Args:
        project_id (str):
        node (str | Unset):
        auth (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | str
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            node=node,
            auth=auth,
        )
    ).parsed
