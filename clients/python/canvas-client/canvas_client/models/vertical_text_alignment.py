from enum import StrEnum


class VerticalTextAlignment(StrEnum):
    BOTTOM = "Bottom"
    CENTER = "Center"
    TOP = "Top"

    def __str__(self) -> str:
        return str(self.value)
