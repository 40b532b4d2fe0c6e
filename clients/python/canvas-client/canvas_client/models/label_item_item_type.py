from enum import StrEnum


class LabelItemItemType(StrEnum):
    LABEL = "label"

    def __str__(self) -> str:
        return str(self.value)
