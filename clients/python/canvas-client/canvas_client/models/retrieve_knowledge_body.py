from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.search_mode import SearchMode
from ..types import UNSET, Unset

T = TypeVar("T", bound="RetrieveKnowledgeBody")


@_attrs_define
class RetrieveKnowledgeBody:
    """`POST /api/v1/memory/retrieve`. Field names match in any casing; unknown fields are a 400.

    Attributes:
        project_id (UUID): The project to search.
        query (str): The question; must not be empty.
        agent_config_id (str | Unset): The agent configuration (`default` when absent). Default: 'default'.
        item_ids (list[str] | None | Unset): Search only these items (at most 1000).
        keywords (list[str] | None | Unset): Extra terms for the keyword leg (at most 32).
        max_results (int | Unset): Citations to return: default 20, at most 100 (50 with postProcess); more, or 0, is
            refused. Default: 20.
        mode (None | SearchMode | Unset):
        post_process (bool | Unset): Rerank the candidates and write an answer with the agent's language model. Default:
            False.
    """

    project_id: UUID
    query: str
    agent_config_id: str | Unset = "default"
    item_ids: list[str] | None | Unset = UNSET
    keywords: list[str] | None | Unset = UNSET
    max_results: int | Unset = 20
    mode: None | SearchMode | Unset = UNSET
    post_process: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        project_id = str(self.project_id)

        query = self.query

        agent_config_id = self.agent_config_id

        item_ids: list[str] | None | Unset
        if isinstance(self.item_ids, Unset):
            item_ids = UNSET
        elif isinstance(self.item_ids, list):
            item_ids = self.item_ids

        else:
            item_ids = self.item_ids

        keywords: list[str] | None | Unset
        if isinstance(self.keywords, Unset):
            keywords = UNSET
        elif isinstance(self.keywords, list):
            keywords = self.keywords

        else:
            keywords = self.keywords

        max_results = self.max_results

        mode: None | str | Unset
        if isinstance(self.mode, Unset):
            mode = UNSET
        elif isinstance(self.mode, SearchMode):
            mode = self.mode.value
        else:
            mode = self.mode

        post_process = self.post_process

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "projectId": project_id,
                "query": query,
            }
        )
        if agent_config_id is not UNSET:
            field_dict["agentConfigId"] = agent_config_id
        if item_ids is not UNSET:
            field_dict["itemIds"] = item_ids
        if keywords is not UNSET:
            field_dict["keywords"] = keywords
        if max_results is not UNSET:
            field_dict["maxResults"] = max_results
        if mode is not UNSET:
            field_dict["mode"] = mode
        if post_process is not UNSET:
            field_dict["postProcess"] = post_process

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        project_id = UUID(d.pop("projectId"))

        query = d.pop("query")

        agent_config_id = d.pop("agentConfigId", UNSET)

        def _parse_item_ids(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                item_ids_type_0 = cast(list[str], data)

                return item_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        item_ids = _parse_item_ids(d.pop("itemIds", UNSET))

        def _parse_keywords(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                keywords_type_0 = cast(list[str], data)

                return keywords_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        keywords = _parse_keywords(d.pop("keywords", UNSET))

        max_results = d.pop("maxResults", UNSET)

        def _parse_mode(data: object) -> None | SearchMode | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                mode_type_1 = SearchMode(data)

                return mode_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SearchMode | Unset, data)

        mode = _parse_mode(d.pop("mode", UNSET))

        post_process = d.pop("postProcess", UNSET)

        retrieve_knowledge_body = cls(
            project_id=project_id,
            query=query,
            agent_config_id=agent_config_id,
            item_ids=item_ids,
            keywords=keywords,
            max_results=max_results,
            mode=mode,
            post_process=post_process,
        )

        return retrieve_knowledge_body
