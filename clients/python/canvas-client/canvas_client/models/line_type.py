from enum import StrEnum


class LineType(StrEnum):
    ANGLED = "Angled"
    CURVED = "Curved"
    STRAIGHT = "Straight"

    def __str__(self) -> str:
        return str(self.value)
