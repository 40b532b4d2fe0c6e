from __future__ import annotations

from collections.abc import Mapping
from io import BytesIO
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, File, Unset

T = TypeVar("T", bound="FileUpload")


@_attrs_define
class FileUpload:
    """`multipart/form-data` of an upload. The file name comes from the `binary` part, the MIME type is sniffed from the
    bytes, `fileSize` is the byte count (over 25 MiB: 413).

        Attributes:
            binary (File): The file.
            dataobject (str | Unset): Optional JSON object (as text) with further item properties.
    """

    binary: File
    dataobject: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        binary = self.binary.to_tuple()

        dataobject = self.dataobject

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "binary": binary,
            }
        )
        if dataobject is not UNSET:
            field_dict["dataobject"] = dataobject

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("binary", self.binary.to_tuple()))

        if not isinstance(self.dataobject, Unset):
            files.append(("dataobject", (None, str(self.dataobject).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        binary = File(payload=BytesIO(d.pop("binary")))

        dataobject = d.pop("dataobject", UNSET)

        file_upload = cls(
            binary=binary,
            dataobject=dataobject,
        )

        file_upload.additional_properties = d
        return file_upload

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
