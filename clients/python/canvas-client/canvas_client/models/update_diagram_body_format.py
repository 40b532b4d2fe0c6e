from enum import StrEnum


class UpdateDiagramBodyFormat(StrEnum):
    MERMAID = "mermaid"

    def __str__(self) -> str:
        return str(self.value)
