from enum import StrEnum


class ShapeItemItemType(StrEnum):
    SHAPE = "shape"

    def __str__(self) -> str:
        return str(self.value)
