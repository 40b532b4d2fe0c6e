from enum import StrEnum


class IndexStatusState(StrEnum):
    FAILED = "failed"
    INDEXED = "indexed"
    INDEXING = "indexing"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
