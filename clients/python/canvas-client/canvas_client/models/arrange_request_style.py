from enum import StrEnum


class ArrangeRequestStyle(StrEnum):
    GRID = "grid"
    LAYERED = "layered"
    TREE = "tree"

    def __str__(self) -> str:
        return str(self.value)
