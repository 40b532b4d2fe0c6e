from enum import StrEnum


class CreateDiagramBodyFormat(StrEnum):
    MERMAID = "mermaid"

    def __str__(self) -> str:
        return str(self.value)
