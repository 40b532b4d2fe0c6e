from enum import StrEnum


class HorizontalTextAlignment(StrEnum):
    CENTER = "Center"
    LEFT = "Left"
    RIGHT = "Right"

    def __str__(self) -> str:
        return str(self.value)
