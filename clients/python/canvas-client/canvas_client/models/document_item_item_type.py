from enum import StrEnum


class DocumentItemItemType(StrEnum):
    DOCUMENT = "document"

    def __str__(self) -> str:
        return str(self.value)
