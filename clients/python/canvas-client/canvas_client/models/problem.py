from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.problem_reason import ProblemReason
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.field_error import FieldError


T = TypeVar("T", bound="Problem")


@_attrs_define
class Problem:
    """RFC 9457 problem details: the body of every error answer (`application/problem+json`).
    Names follow `jsonCasing` like every JSON answer; shown here in the default PascalCase.

        Example:
            {'Detail': 'size.width: must be >= 5 when isAutoSizeWidth is false', 'Errors': [{'Field': 'size.width',
                'Message': 'must be >= 5 when isAutoSizeWidth is false', 'Reason': 'INVALID_VALUE'}], 'Reason':
                'VALIDATION_FAILED', 'Status': 400, 'Title': 'Bad Request', 'Type': 'about:blank'}

        Attributes:
            detail (str): What went wrong, readable by a person.
            reason (ProblemReason):
            status (int): The HTTP status code.
            title (str): The HTTP reason phrase of `Status`.
            type_ (str): Always `about:blank`.
            current_version (int | None | Unset): The item's version now, with a 412 (`If-Match` named another).
            dependency (None | str | Unset): The dependency that is unavailable (`database`, `embedding_model`, `llm`,
                `blob_store`, `signing_key`), with a 503.
            errors (list[FieldError] | Unset): Validation failures: one entry per offending field (absent otherwise).
    """

    detail: str
    reason: ProblemReason
    status: int
    title: str
    type_: str
    current_version: int | None | Unset = UNSET
    dependency: None | str | Unset = UNSET
    errors: list[FieldError] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        detail = self.detail

        reason = self.reason.value

        status = self.status

        title = self.title

        type_ = self.type_

        current_version: int | None | Unset
        if isinstance(self.current_version, Unset):
            current_version = UNSET
        else:
            current_version = self.current_version

        dependency: None | str | Unset
        if isinstance(self.dependency, Unset):
            dependency = UNSET
        else:
            dependency = self.dependency

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "Detail": detail,
                "Reason": reason,
                "Status": status,
                "Title": title,
                "Type": type_,
            }
        )
        if current_version is not UNSET:
            field_dict["CurrentVersion"] = current_version
        if dependency is not UNSET:
            field_dict["Dependency"] = dependency
        if errors is not UNSET:
            field_dict["Errors"] = errors

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field_error import FieldError  # noqa: PLC0415

        d = dict(src_dict)
        detail = d.pop("Detail")

        reason = ProblemReason(d.pop("Reason"))

        status = d.pop("Status")

        title = d.pop("Title")

        type_ = d.pop("Type")

        def _parse_current_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        current_version = _parse_current_version(d.pop("CurrentVersion", UNSET))

        def _parse_dependency(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        dependency = _parse_dependency(d.pop("Dependency", UNSET))

        _errors = d.pop("Errors", UNSET)
        errors: list[FieldError] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = FieldError.from_dict(errors_item_data)

                errors.append(errors_item)

        problem = cls(
            detail=detail,
            reason=reason,
            status=status,
            title=title,
            type_=type_,
            current_version=current_version,
            dependency=dependency,
            errors=errors,
        )

        problem.additional_properties = d
        return problem

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
