from enum import StrEnum


class FieldErrorReason(StrEnum):
    ACTIVE_CONTENT = "ACTIVE_CONTENT"
    DUPLICATE_PROPERTY = "DUPLICATE_PROPERTY"
    INVALID_VALUE = "INVALID_VALUE"
    READ_ONLY_PROPERTY = "READ_ONLY_PROPERTY"
    REQUIRED = "REQUIRED"
    UNKNOWN_PROPERTY = "UNKNOWN_PROPERTY"

    def __str__(self) -> str:
        return str(self.value)
